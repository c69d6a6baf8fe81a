// Message catalogs: the same catalogs as the terminal client (toepen.i18n.catalog_json),
// generated into static/i18n/{lang}.json by scripts/build_web_catalogs.py, with the
// languages and their aliases in static/i18n/languages.json. Card notation, suit symbols,
// rank letters and the verbs' keys come in the catalogs too: nothing is written out here.
// Plural forms (toepen.i18n): a message with a count has variants "<id>.one"... beside
// "<id>" (the "other" form), chosen by the CLDR category of the count (Intl.PluralRules of
// the catalog's language); the count is the first of the catalog's `counts` ("n", "lives",
// "seconds") given, if it is a number.
import { once } from "./util.js";

const EMPTY = { lang: "en", messages: {}, ranks: [], suits: [], notation: { ranks: "", suits: "" }, keys: {}, counts: [] };
let current = EMPTY;
let english = EMPTY;
const listeners = [];

/** The languages there are: {languages: [{code, name}], default, aliases}. */
export const languages = once(async () => {
  const r = await fetch("/i18n/languages.json", { cache: "no-cache" });
  if (!r.ok) throw new Error(`languages: HTTP ${r.status}`);
  return r.json();
});

/** The catalog language of a locale name ("nl-BE" -> "nl"), or null (toepen.i18n.normalise_lang). */
function normalise(value, langs) {
  let code = String(value).trim().split(".")[0].split("@")[0].replace(/-/g, "_").split("_")[0].toLowerCase();
  code = langs.aliases[code] ?? code;
  return langs.languages.some((l) => l.code === code) ? code : null;
}

/** The language to start in: saved choice, else the browser's, else the default. */
export async function initialLang() {
  const langs = await languages();
  const saved = localStorage.getItem("toepen.lang");
  if (saved && normalise(saved, langs) === saved) return saved;
  for (const l of navigator.languages || [navigator.language || langs.default]) {
    const code = normalise(l, langs);
    if (code) return code;
  }
  return langs.default;
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
        for (const key of ["ranks", "suits", "notation", "keys", "counts"]) if (fresh[key]) data[key] = fresh[key];
      } else liveCatalogs = false;
    } catch { liveCatalogs = false; }
  }
  return data;
}

/** Load a language (and the default as the fallback) and tell every listener. */
let latest = 0;

export async function setLang(lang) {
  const langs = await languages();
  if (normalise(lang, langs) !== lang) lang = langs.default;
  const mine = ++latest;
  localStorage.setItem("toepen.lang", lang);
  if (english.lang !== langs.default || !Object.keys(english.messages).length) {
    english = await fetchCatalog(langs.default);
  }
  const next = lang === langs.default ? english : await fetchCatalog(lang);
  if (mine !== latest) return; // a later choice overtook this one
  current = next;
  document.documentElement.lang = lang;
  translateStatic(document);
  for (const f of listeners) f(lang);
}

export function lang() { return current.lang; }
export function onLangChange(f) { listeners.push(f); }

/**
 * Translate a message id with named {placeholders}; English, then the id, as fallbacks. A
 * message with plural variants says the one of its count, from the same catalog as the
 * message itself (a language without a variant says "<id>", never English's variant).
 */
export function t(key, values = {}) {
  const from = Object.hasOwn(current.messages, key) ? current
    : Object.hasOwn(english.messages, key) ? english : null;
  let text = from ? from.messages[key] : key;
  const n = from ? countOf(values, from.counts || english.counts || []) : null;
  if (n !== null) text = from.messages[`${key}.${pluralRules(from.lang).select(n)}`] ?? text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m));
}

const plurals = new Map();

/** The language's CLDR plural rules (the browser's own, Intl.PluralRules). */
function pluralRules(code) {
  if (!plurals.has(code)) plurals.set(code, new Intl.PluralRules(code));
  return plurals.get(code);
}

/** The count among a message's values: the first of `counts` given, if it is a number. */
function countOf(values, counts) {
  for (const name of counts) {
    if (name in values) return typeof values[name] === "number" && Number.isFinite(values[name]) ? values[name] : null;
  }
  return null;
}

/** Names as a list in the language's own way ("Cor and Dirk", "Ann, Bob und Cor"): the
 * browser's Intl.ListFormat, which agrees with Babel's format_list (toepen.narration.name_list). */
export function nameList(items) {
  try {
    return new Intl.ListFormat(current.lang, { type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

export function has(key) { return key in current.messages || key in english.messages; }

/**
 * A message of the server (toepen.narration: {id, params}) in the language. A parameter is
 * a number or text, or a reference: {seat} a player's name, {seats} their names, {cards}
 * cards, {msg, params} another message.
 */
export function say(message, names) {
  if (!message || typeof message.id !== "string") return null;
  const values = {};
  for (const [k, v] of Object.entries(message.params || {})) values[k] = sayParam(v, names);
  return t(message.id, values);
}

function sayParam(v, names) {
  if (v === null || typeof v !== "object") return v;
  if ("seat" in v) return names[v.seat] ?? "";
  if ("seats" in v) return nameList(v.seats.map((s) => names[s] ?? ""));
  if ("cards" in v) return v.cards.map(cardText).join(" ");
  if ("msg" in v) return say({ id: v.msg, params: v.params }, names);
  return "";
}

/** Elements with data-i18n="id" get their text; data-i18n-label sets aria-label and title. */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
    el.title = t(el.dataset.i18nLabel);
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

/** Card notation ("Th") -> {suit 0..3, rank 0..7}, by the catalog's notation letters. */
export function parseCard(card) {
  const n = current.notation.ranks ? current.notation : english.notation;
  return { rank: n.ranks.indexOf(card[0]), suit: n.suits.indexOf(card[1]) };
}

/** The localised rank letter of a card ("H" for a Dutch king). */
export function rankText(card) { return current.ranks[parseCard(card).rank]; }
export function suitSymbol(card) { return current.suits[parseCard(card).suit]; }

/** A card for display: localised rank + suit symbol ("V♥"). */
export function cardText(card) { return rankText(card) + suitSymbol(card); }

/** A card for screen readers: "queen of hearts" in the language (falls back to cardText). */
export function cardName(card) {
  return `${cardText(card)} (${t(`suit.${card[1]}`)})`;
}

/** An action text ("play Th", "knock") in words. */
export function actionText(action) {
  if (action.startsWith("play ")) return t("act.play", { card: cardText(action.slice(5)) });
  return t(`act.${action}`);
}

/** The keyboard key of a verb ("k" for knock), the same as the terminal client's. */
export function verbKey(verb) { return current.keys[verb] ?? english.keys[verb] ?? ""; }

/** The verbs that have a key: [[verb, key], ...]. */
export function verbKeys() { return Object.entries(Object.keys(current.keys).length ? current.keys : english.keys); }

export function sortCards(cards) {
  return [...cards].sort((a, b) => {
    const x = parseCard(a), y = parseCard(b);
    return x.suit - y.suit || x.rank - y.rank;
  });
}
