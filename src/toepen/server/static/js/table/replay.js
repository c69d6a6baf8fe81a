// The replay viewer: step through a finished game from any seat, or with every card shown.
// It asks the server for the views of the steps a page at a time as the user moves
// (GET /api/tables/{id}/replay?from=&count=; a long game has tens of thousands of steps,
// and only the pages near the step shown are kept); where the server has no such endpoint
// it replays the states this browser received while it watched or played (kept in
// IndexedDB), and failing that lists the record's moves.
import { t, say, actionText, translateStatic } from "../ui/i18n.js";
import { api } from "../net/http.js";
import { renderBoard } from "./board.js";
import { keptStates } from "./store.js";
import { esc } from "../ui/util.js";
import { reviewButton } from "./review.js";

export async function showReplay(app, tableId) {
  const params = new URLSearchParams(location.search);
  let who = params.get("seat") ?? "all";
  let step = Number(params.get("step") || 0);
  let table = null;
  let steps = null; // the kept states' steps (kept mode only)
  let record = null;
  const PAGE = 100; // steps asked for at once
  const KEEP = 2000; // steps kept in memory around the one shown
  let known = new Map(); // step number -> step, from the server's pages
  let loading = new Map(); // page start -> its request
  let total = 0; // the game's steps (server mode)
  let gen = 0; // the view asked for: an answer for another one is dropped
  let kept = null; // states this browser received, where the server has no replay endpoint
  try { table = await api("GET", `/api/tables/${tableId}`); } catch (e) {
    app.innerHTML = `<section class="panel"><h1>${esc(t("web.no_such_table"))}</h1><p>${esc(e.message)}</p></section>`;
    return { relabel: () => {} };
  }
  app.innerHTML = `<div class="replay"><div class="replay-bar panel">
      <h1><span data-i18n="web.replay"></span> <span class="code">${esc(table.code)}</span></h1>
      <label><span data-i18n="web.view_as"></span> <select id="who"></select></label>
      <div class="stepper" role="group" aria-label="steps">
        <button id="first" class="small" data-i18n-label="web.first">◀◀</button>
        <button id="prev" class="small" data-i18n-label="web.previous">◀</button>
        <input id="slider" type="range" min="0" value="0" aria-label="step">
        <button id="next" class="small" data-i18n-label="web.next">▶</button>
        <button id="last" class="small" data-i18n-label="web.last">▶▶</button>
        <span id="stepno" aria-live="polite"></span>
      </div>
      <a class="button small" href="/api/tables/${esc(tableId)}/record" download data-i18n="web.download_record"></a>
      <p id="replay-note" class="note"></p>
    </div>
    <div class="tablepage"><div class="main-col"><div id="rboard" class="board"></div></div>
    <aside class="side"><section class="log-box"><h2 data-i18n="web.log"></h2><ol id="rlog" class="log"></ol></section></aside></div></div>`;
  translateStatic(app);
  // the page's height below the header: the replay fits the window (css/table.css)
  const fit = () => document.documentElement.style.setProperty("--top", `${document.querySelector(".topbar").offsetHeight}px`);
  fit();
  window.addEventListener("resize", fit);
  const sel = app.querySelector("#who");
  app.querySelector("#replay-note").before(reviewButton(tableId, table.seats.map((s) => s.name || s.bot || `${s.seat + 1}`),
    () => (/^\d+$/.test(who) ? Number(who) : 0)));
  const slider = app.querySelector("#slider");
  const board = app.querySelector("#rboard");
  const log = app.querySelector("#rlog");
  const names = table.seats.map((s) => s.name || s.bot || `${s.seat + 1}`);
  // the seats as the board marks them: which are bots (no presence: nobody is "away" in a replay)
  const botsOnly = { seats: table.seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot } : { kind: "person" })) };

  const wait = (ms) => new Promise((done) => setTimeout(done, ms));

  // the page from step `from` (the server may send fewer steps than asked: its pages are
  // bounded in bytes); a busy server is asked again as it says
  async function fetchPage(from) {
    const q = new URLSearchParams({ from: String(from), count: String(PAGE) });
    if (who !== "spectator") q.set("seat", who);
    const my = gen;
    for (let tries = 0; ; tries++) {
      try {
        const page = await api("GET", `/api/tables/${tableId}/replay?${q}`);
        if (my !== gen) return;
        total = page.total;
        page.steps.forEach((s, i) => known.set(page.from + i, s));
        return;
      } catch (e) {
        if ((e.status === 429 || e.status === 503) && tries < 20 && my === gen) {
          app.querySelector("#replay-note").textContent = e.message;
          await wait(2000);
          continue;
        }
        throw e;
      }
    }
  }

  // make sure step `k` is here (its page asked for once, whoever else waits for it)
  async function ensure(k) {
    if (known.has(k)) return;
    const start = Math.floor(k / PAGE) * PAGE;
    const from = known.has(start) ? k : start;
    let req = loading.get(from);
    if (!req) {
      req = fetchPage(from).finally(() => loading.delete(from));
      loading.set(from, req);
    }
    await req;
    if (!known.has(k) && known.has(from) && k > from) await ensure(k); // a short page
  }

  // forget steps far from the one shown (a long game's pages would fill the memory)
  function trim() {
    if (known.size <= KEEP) return;
    for (const k of known.keys()) if (Math.abs(k - step) > KEEP / 2) known.delete(k);
  }

  const count = () => (kept ? (steps ? steps.length : 0) : total);
  const at = (k) => (kept ? steps && steps[k] : known.get(k));

  async function load() {
    gen += 1;
    known = new Map();
    loading = new Map();
    total = 0;
    if (kept) { steps = kept[who] || null; draw(); return; }
    try {
      await ensure(0); // the first page: how many steps there are (draw asks for the rest)
      app.querySelector("#replay-note").textContent = "";
    } catch {
      total = 0;
      steps = null;
      const local = await keptStates(tableId);
      if (Object.keys(local).length) {
        kept = local;
        if (!(who in kept)) who = Object.keys(kept)[0];
        steps = kept[who];
        fillWho();
      } else if (!record) {
        try { record = await api("GET", `/api/tables/${tableId}/record`); } catch (e2) { record = { actions: [], error: e2.message }; }
      }
    }
    draw();
  }

  function fillWho() {
    const label = (w) => (w === "all" ? t("web.all_cards") : w === "spectator" ? t("web.spectator") : names[Number(w)]);
    const choices = kept ? Object.keys(kept) : ["all", "spectator", ...names.map((_, s) => String(s))];
    sel.innerHTML = choices.map((w) => `<option value="${esc(w)}">${esc(label(w))}</option>`).join("");
    sel.value = who;
    app.querySelector("#replay-note").textContent = kept ? t("web.replay_local") : "";
  }

  async function draw() {
    if (!count()) {
      const actions = (record && record.actions) || [];
      board.innerHTML = `<p class="panel">${esc(t("web.replay_unavailable"))}</p>`;
      log.innerHTML = actions.map((m) => {
        const [s, ...rest] = m.split(" ");
        return `<li>${esc(names[Number(s)] ?? s)}: ${esc(actionText(rest.join(" ")))}</li>`;
      }).join("");
      slider.max = "0";
      return;
    }
    const n = count();
    step = Math.max(0, Math.min(step, n - 1));
    slider.max = String(n - 1);
    slider.value = String(step);
    let cur = at(step);
    if (!cur) { // a page not here yet: ask for it, then draw (unless the user moved on)
      const want = step;
      const my = gen;
      const first = Math.floor(step / PAGE) * PAGE;
      app.querySelector("#stepno").textContent = t("web.replay_loading", { first, last: Math.min(first + PAGE, n) - 1, total: n - 1 });
      await wait(150); // a slider dragged along: only the page where it stops is asked for
      if (my !== gen || want !== step) return;
      try { await ensure(step); } catch (e) { app.querySelector("#replay-note").textContent = e.message; return; }
      if (my !== gen || want !== step) return;
      app.querySelector("#replay-note").textContent = kept ? t("web.replay_local") : "";
      cur = at(step);
      if (!cur) return;
      trim();
    }
    app.querySelector("#stepno").textContent = t("web.step_of", { n: cur.state, total: n - 1 });
    const me = who === "all" || who === "spectator" ? null : Number(who);
    const plays = new Set(cur.events.filter((e) => e.kind === "play" && e.cards.length).map((e) => `${e.seat}${e.cards[0]}`));
    renderBoard(board, cur.view, { me, table: botsOnly, readonly: true, hands: cur.hands || null, animate: { plays, knock: null } });
    const lines = [];
    let from = step; // the log: the steps here before this one, back to the start
    while (from > 0 && at(from - 1)) from -= 1;
    for (let i = from; i <= step; i++) {
      for (const e of at(i).events) {
        const text = say(e.say, cur.view.players); // the server's narration for this seat
        if (text) lines.push(`<li class="${i === step ? "now" : ""}">${esc(text)}</li>`);
      }
    }
    log.innerHTML = lines.reverse().join("");
    const u = new URL(location.href);
    u.searchParams.set("seat", who);
    u.searchParams.set("step", String(step));
    history.replaceState(null, "", u);
  }

  const go = (k) => { step = k; draw(); };
  app.querySelector("#first").addEventListener("click", () => go(0));
  app.querySelector("#prev").addEventListener("click", () => go(step - 1));
  app.querySelector("#next").addEventListener("click", () => go(step + 1));
  app.querySelector("#last").addEventListener("click", () => go(Math.max(0, count() - 1)));
  slider.addEventListener("input", () => go(Number(slider.value)));
  sel.addEventListener("change", () => { who = sel.value; load(); });
  document.addEventListener("keydown", (ev) => {
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "SELECT" || (tag === "INPUT" && ev.target.type !== "range")) return;
    if (ev.key === "ArrowRight") { go(step + 1); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft") { go(step - 1); ev.preventDefault(); }
    else if (ev.key === "Home") { go(0); ev.preventDefault(); }
    else if (ev.key === "End" && count()) { go(count() - 1); ev.preventDefault(); }
  });
  fillWho();
  await load();
  return { relabel: () => { translateStatic(app); fillWho(); draw(); } };
}
