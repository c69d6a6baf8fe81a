// Message catalogs: the same catalogs as the terminal client (toepen.i18n.catalog_json),
// generated into static/i18n/{lang}.json by scripts/build_web_catalogs.py.

export const LANGS = ["en", "nl", "de", "it", "nb"];
const SUIT_LETTERS = "cdhs";
const RANK_LETTERS = "T987AKQJ";
const SUIT_SYMBOLS = ["\u2663", "\u2666", "\u2665", "\u2660"];

let current = { lang: "en", messages: {}, ranks: ["10", "9", "8", "7", "A", "K", "Q", "J"], suits: SUIT_SYMBOLS };
let english = current;
const listeners = [];

/** The language to start in: saved choice, else the browser's, else English. */
export function initialLang() {
  const saved = localStorage.getItem("toepen.lang");
  if (saved && LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    let code = String(l).toLowerCase().split(/[-_]/)[0];
    if (code === "no" || code === "nn") code = "nb";
    if (LANGS.includes(code)) return code;
  }
  return "en";
}

let liveCatalogs = true;

async function fetchCatalog(lang) {
  const r = await fetch(`/i18n/${lang}.json`, { cache: "no-cache" });
  if (!r.ok) throw new Error(`catalog ${lang}: HTTP ${r.status}`);
  const data = await r.json();
  // The server's own catalogs, where it serves them, are always current: they win.
  if (liveCatalogs) {
    try {
      const live = await fetch(`/api/i18n/${lang}`);
      if (live.ok) {
        const fresh = await live.json();
        Object.assign(data.messages, fresh.messages || {});
        if (Array.isArray(fresh.ranks) && fresh.ranks.length === 8) data.ranks = fresh.ranks;
      } else liveCatalogs = false;
    } catch { liveCatalogs = false; }
  }
  return data;
}

/** Load a language (and English as the fallback) and tell every listener. */
let latest = 0;

export async function setLang(lang) {
  if (!LANGS.includes(lang)) lang = "en";
  const mine = ++latest;
  localStorage.setItem("toepen.lang", lang);
  if (english.lang !== "en" || !Object.keys(english.messages).length) {
    english = await fetchCatalog("en");
  }
  const next = lang === "en" ? english : await fetchCatalog(lang);
  if (mine !== latest) return; // a later choice overtook this one
  current = next;
  document.documentElement.lang = lang === "nb" ? "nb" : lang;
  translateStatic(document);
  for (const f of listeners) f(lang);
}

export function lang() { return current.lang; }
export function onLangChange(f) { listeners.push(f); }

/** Translate a message id with named {placeholders}; English, then the id, as fallbacks. */
export function t(key, values = {}) {
  let text = current.messages[key] ?? english.messages[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m));
}

export function has(key) { return key in current.messages || key in english.messages; }

/** Elements with data-i18n="id" get their text; data-i18n-label sets aria-label and title. */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
    el.title = t(el.dataset.i18nLabel);
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

/** Card notation ("Th") -> {suit 0..3, rank 0..7}. */
export function parseCard(card) {
  return { rank: RANK_LETTERS.indexOf(card[0]), suit: SUIT_LETTERS.indexOf(card[1]) };
}

/** The localised rank letter of a card ("H" for a Dutch king). */
export function rankText(card) { return current.ranks[parseCard(card).rank]; }
export function suitSymbol(card) { return SUIT_SYMBOLS[parseCard(card).suit]; }

/** A card for display: localised rank + suit symbol ("V♥"). */
export function cardText(card) { return rankText(card) + suitSymbol(card); }

/** A card for screen readers: "queen of hearts" in the language (falls back to cardText). */
export function cardName(card) {
  const { suit } = parseCard(card);
  const suitName = t(`suit.${SUIT_LETTERS[suit]}`);
  return `${cardText(card)} (${suitName})`;
}

/** An action text ("play Th", "knock") in words. */
export function actionText(action) {
  if (action.startsWith("play ")) return t("act.play", { card: cardText(action.slice(5)) });
  return t(`act.${action}`);
}

export function sortCards(cards) {
  return [...cards].sort((a, b) => {
    const x = parseCard(a), y = parseCard(b);
    return x.suit - y.suit || x.rank - y.rank;
  });
}
