// The score sheet for real cards (docs/tally.md): one phone keeps it (?sheet=ID#key=KEY),
// everyone else follows it live (?sheet=ID). The server says what may be entered next
// (sheet.legal) and narrates every event (log[].say); this page only draws and translates.
import { t, say, translateStatic } from "../ui/i18n.js";
import { esc } from "../ui/util.js";
import { api, presets } from "../net/http.js";
import { toast } from "../table/lobby.js";
import { keepAwake, awakeToggle, speakToggle, speak, qrFigure, shareButton } from "../ui/pwa.js";
import { optionField, fieldValue, showPresetValues } from "../ui/options.js";
import { potText, settlementHTML } from "../ui/pot.js";

/** The rule options of pot toepen the new sheet's form offers (GET /api/presets' fields). */
const POT_OPTIONS = ["rebuy", "pot", "pot_unit"];

/** Lives lost as tally strokes: groups of five (four strokes and one across). */
export function strokes(n) {
  if (n <= 0) return "";
  const groups = [];
  for (let i = 0; i < Math.floor(n / 5); i++) groups.push('<span class="tally-five">||||</span>');
  if (n % 5) groups.push(`<span class="tally-ones">${"|".repeat(n % 5)}</span>`);
  return `<span class="tally-strokes" aria-label="${esc(String(n))}">${groups.join(" ")}</span>`;
}

function stylesheet() {
  if (document.querySelector('link[href="css/tally.css"]')) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "css/tally.css";
  document.head.append(link);
}

export async function showSheet(app, sheetId) {
  stylesheet();
  if (!sheetId) return showNewSheet(app);
  const hash = new URLSearchParams(location.hash.slice(1));
  let key = hash.get("key") || localStorage.getItem(`toepen.sheet.${sheetId}`) || "";
  if (hash.get("key")) localStorage.setItem(`toepen.sheet.${sheetId}`, key);
  let state = null;
  let alive = true;
  let spoken = null;  // the hands done when the standings were last said aloud
  keepAwake();

  function names() { return state ? state.sheet.players : []; }

  function cell(paid) {
    if (!paid) return "";
    return state.sheet.display === "points" ? esc(String(paid)) : strokes(paid);
  }

  function render() {
    const s = state.sheet;
    const n = s.players.length;
    const keeper = Boolean(key);
    const head = s.players.map((p, i) => `<th scope="col" class="${s.seats[i].in ? "" : "out"}">${esc(p)}</th>`).join("");
    const rows = s.hands.map((h) => `<tr class="${h.done ? "" : "current"}"><th scope="row">${esc(String(h.number))}</th>` +
      `<td class="dealer">${esc(s.players[h.dealer])}</td><td class="stake">${esc(String(h.stake))}</td>` +
      h.paid.map((p, seat) => (h.last === seat || h.left === seat
        ? `<td class="took" title="${esc(t("web.tally.took"))}">${cell(p)}</td>` : `<td>${cell(p)}</td>`)).join("") + "</tr>").join("");
    const points = s.display === "points" || s.count === "points_up"; // count: points_up counts penalty points only
    const total = s.seats.map((x) => `<td>${points ? esc(String(s.lives - x.lives)) : strokes(x.lost)}</td>`).join("");
    const left = s.seats.map((x) => `<td class="lives">${esc(String(x.lives))}</td>`).join("");
    let extra = "";
    if (s.session === "rubber") {
      extra += `<tr><th scope="row" colspan="3">${esc(t("web.tally.rubbers_won"))}</th>${s.seats.map((x) => `<td>${esc(String(x.rubbers_won))}${x.toepkoning ? " 👑" : ""}</td>`).join("")}</tr>`;
      extra += `<tr><th scope="row" colspan="3">${esc(t("web.tally.drinks"))}</th>${s.seats.map((x) => `<td>${esc(String(x.drinks))}</td>`).join("")}</tr>`;
    }
    if (s.rebuys && s.rebuys.some((r) => r)) {
      extra += `<tr class="tally-rebuys"><th scope="row" colspan="3">${esc(t("web.pot.rebuys"))}</th>${s.rebuys.map((r) => `<td>${esc(String(r))}</td>`).join("")}</tr>`;
    }
    if (s.seats.some((x) => x.beers)) {
      extra += `<tr><th scope="row" colspan="3">${esc(t("web.tally.beers"))}</th>${s.seats.map((x) => `<td>${esc(String(x.beers))}</td>`).join("")}</tr>`;
    }
    let status;
    if (s.over) status = t("web.tally.winner", { name: s.players[s.winner] ?? "" });
    else if (s.turn >= 0) status = t("web.tally.to_answer", { name: s.players[s.turn], stake: s.stake });
    else if (s.target >= 0) status = t("web.tally.to_challenge", { name: s.players[s.target] });
    else status = t("web.tally.hand", { hand: s.hand, name: s.players[s.dealer], stake: s.stake });
    const bySeat = Array.from({ length: n }, () => []);
    // each legal entry with the server's words for it (legal_say: a message to translate)
    s.legal.forEach((e, i) => bySeat[Number(e.split(" ")[0])].push([e, s.legal_say[i]]));
    const controls = keeper && !s.over ? `<div class="tally-entry" aria-label="${esc(t("web.tally.enter"))}">` +
      bySeat.map((entries, seat) => entries.length ? `<div class="tally-seat"><span class="who">${esc(s.players[seat])}</span>` +
        entries.map(([e, label]) => `<button type="button" data-entry="${esc(e)}"${e.endsWith(" rebuy") ? ' class="tally-rebuy"' : ""}>${esc(say(label, s.players))}</button>`).join("") + "</div>" : "").join("") +
      "</div>" : "";
    const follow = `${location.origin}/?sheet=${encodeURIComponent(state.id)}`;
    const log = state.log.slice(-12).map((item) => `<li>${esc(say(item.say, names()) || "")}</li>`).join("");
    app.innerHTML = `<section class="panel tally" data-version="${esc(String(state.version))}" data-keeper="${keeper ? 1 : 0}">
      <h1>${esc(t("web.tally.title"))}</h1>
      <p class="tally-status" role="status" aria-live="polite">${esc(status)}</p>
      ${s.pot ? `<p class="tally-pot pot" data-cents="${esc(String(s.pot))}">${esc(potText(s.pot, s.pot_unit || ""))}</p>` : ""}
      ${controls}
      <div class="tally-tools no-print">
        ${keeper ? `<button type="button" id="tally-undo" ${s.entries.length ? "" : "disabled"}>${esc(t("web.tally.undo"))}</button>` : ""}
        <a class="button" id="tally-record" href="/api/sheets/${encodeURIComponent(state.id)}/record" download>${esc(t("web.tally.download"))}</a>
        <button type="button" id="tally-print">${esc(t("web.tally.print"))}</button>
      </div>
      <div class="tally-scroll"><table class="tally-table">
        <thead><tr><th scope="col">#</th><th scope="col">${esc(t("web.tally.dealer"))}</th><th scope="col">${esc(t("web.tally.stake"))}</th>${head}</tr></thead>
        <tbody>${rows}</tbody>
        <tfoot><tr><th scope="row" colspan="3">${esc(t(points ? "web.tally.points" : "web.tally.lost"))}</th>${total}</tr>
        ${s.count === "points_up" ? "" : `<tr><th scope="row" colspan="3">${esc(t("web.tally.lives"))}</th>${left}</tr>`}${extra}</tfoot>
      </table></div>
      ${s.over && s.standings_say ? `<section class="standings tally-standings"><h2>${esc(say(s.standings_say[0], names()))}</h2><ol>` +
        s.standings_say.slice(1).map((m) => `<li>${esc(say(m, names()))}</li>`).join("") + "</ol></section>" : ""}
      ${s.over && s.pot && s.pot_balances ? settlementHTML(s.pot_balances.map((c, i) => [s.players[i], c]),
        (s.settlement || []).map((x) => ({ payer: s.players[x.payer], payee: s.players[x.payee], cents: x.cents })), s.pot_unit || "", "tally-settlement") : ""}
      <ol class="tally-log" aria-label="${esc(t("web.tally.log"))}">${log}</ol>
      <p class="tally-follow no-print">${esc(t("web.tally.follow"))} <a id="tally-follow" href="${esc(follow)}">${esc(follow)}</a></p>
      ${keeper ? `<details class="tally-follow no-print"><summary>${esc(t("web.tally.hand_over"))}</summary><a id="tally-keep" href="${esc(`${follow}#key=${encodeURIComponent(key)}`)}">${esc(`${follow}#key=${key}`)}</a></details>` : ""}
    </section>`;
    for (const b of app.querySelectorAll("[data-entry]")) b.addEventListener("click", () => change("entries", { entry: b.dataset.entry }));
    const undo = app.querySelector("#tally-undo");
    if (undo) undo.addEventListener("click", () => change("undo", {}));
    app.querySelector("#tally-print").addEventListener("click", () => window.print());
    // issue 39: the follow link as a QR code, the screen awake, the standings aloud, the result shared
    app.querySelector("#tally-follow").closest("p").after(qrFigure(`/api/sheets/${encodeURIComponent(state.id)}/qr`, t("web.pub.qr.sheet"), "sheet-qr"));
    app.querySelector(".tally-tools").append(awakeToggle(), speakToggle());
    if (s.over && s.standings_say) {
      app.querySelector(".tally-tools").prepend(shareButton(() => ({
        title: say(s.standings_say[0], names()),
        lines: s.standings_say.slice(1).map((m) => say(m, names())),
        url: follow,
      }), toast));
    }
    sayHands();
  }

  /** After each hand (a hand more done than the last time), the standings aloud: each
   * player still in with their lives (or points), then who is on their last life. */
  function sayHands() {
    const s = state.sheet;
    const done = s.hands.filter((h) => h.done).length;
    if (spoken === null || done <= spoken) { spoken = spoken === null ? done : Math.max(spoken, done); return; }
    spoken = done;
    if (s.over) { speak(t("web.tally.winner", { name: s.players[s.winner] ?? "" })); return; }
    const points = s.count === "points_up";
    const inPlay = s.seats.map((x, i) => ({ name: s.players[i], x })).filter((p) => p.x.in);
    inPlay.sort((a, b) => (points ? (s.lives - a.x.lives) - (s.lives - b.x.lives) : b.x.lives - a.x.lives));
    const lines = [t("web.pub.speech.hand", { hand: done })];
    for (const p of inPlay) {
      lines.push(points ? t("web.pub.speech.points", { name: p.name, n: s.lives - p.x.lives })
        : t("web.pub.speech.lives", { name: p.name, n: p.x.lives }));
    }
    if (!points) for (const p of inPlay.filter((q) => q.x.lives === 1)) lines.push(t("web.pub.speech.last", { name: p.name }));
    speak(lines.join(". "));
  }

  async function change(what, body) {
    try {
      state = await api("POST", `/api/sheets/${encodeURIComponent(sheetId)}/${what}`, { ...body, version: state.version }, { token: key, names: names() });
      render();
    } catch (e) {
      toast(e.message);
      if (e.status === 409) await load();
    }
  }

  async function load(after) {
    const q = after === undefined ? "" : `?after=${after}&wait=25`;
    const fresh = await api("GET", `/api/sheets/${encodeURIComponent(sheetId)}${q}`);
    if (state && fresh.version === state.version && after !== undefined) return;
    state = fresh;
    render();
  }

  async function follow() {
    while (alive) {
      try { await load(state.version); } catch (e) {
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  }

  try { await load(); } catch (e) {
    app.innerHTML = `<p class="panel error">${esc(e.message)}</p>`;
    return { relabel() {} };
  }
  follow();  // the keeper too: another phone may keep the sheet as well
  return { relabel: render, stop() { alive = false; } };
}

async function showNewSheet(app) {
  const meta = await presets();
  const options = meta.presets.map((p) => `<option value="${esc(p.name)}">${esc(t(p.label))}</option>`).join("");
  // pot toepen on the sheet: the same fields as the lobby's options (empty: as the preset says)
  const potFields = (meta.options || []).filter((o) => POT_OPTIONS.includes(o.name));
  function draw() {
    app.innerHTML = `<section class="panel tally-new"><h1>${esc(t("web.tally.title"))}</h1>
      <p>${esc(t("web.tally.about"))}</p>
      <form id="tally-form">
        <label>${esc(t("web.tally.rules"))} <select name="preset">${options}</select></label>
        <div class="tally-pair"><label>${esc(t("web.tally.lives"))} <input name="lives" type="number" min="1" max="99" value=""></label>
        <label>${esc(t("web.tally.display"))} <select name="display">
          <option value="strokes">${esc(t("web.tally.display.strokes"))}</option>
          <option value="points">${esc(t("web.tally.display.points"))}</option></select></label></div>
        ${potFields.length ? `<details class="tally-pot-options"><summary>${esc(t("web.pot.title"))}</summary>${potFields.map(optionField).join("")}</details>` : ""}
        <fieldset><legend>${esc(t("web.tally.players"))}</legend>
          ${Array.from({ length: 8 }, (_, i) => `<input name="player" maxlength="24" aria-label="${esc(t("web.tally.player", { n: i + 1 }))}" placeholder="${esc(t("web.tally.player", { n: i + 1 }))}">`).join("")}
        </fieldset>
        <button type="submit" class="primary">${esc(t("web.tally.start"))}</button>
      </form></section>`;
    translateStatic(app);
    const form = app.querySelector("#tally-form");
    const presetValues = () => showPresetValues(form, meta.presets.find((p) => p.name === form.preset.value), potFields);
    form.preset.addEventListener("change", presetValues);
    presetValues();
    app.querySelector("#tally-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const f = new FormData(ev.target);
      const players = f.getAll("player").map((p) => String(p).trim()).filter(Boolean);
      const opts = {};
      if (f.get("lives")) opts.lives = Number(f.get("lives"));
      for (const el of ev.target.querySelectorAll("[data-option]")) if (el.value !== "") opts[el.dataset.option] = fieldValue(el);
      try {
        const made = await api("POST", "/api/sheets", { preset: f.get("preset"), options: opts, players, display: f.get("display") });
        localStorage.setItem(`toepen.sheet.${made.id}`, made.key);
        location.href = `/?sheet=${encodeURIComponent(made.id)}#key=${encodeURIComponent(made.key)}`;
      } catch (e) {
        toast(e.message);
      }
    });
  }
  draw();
  return { relabel: draw };
}
