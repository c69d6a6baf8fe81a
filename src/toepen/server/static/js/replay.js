// The replay viewer: step through a finished game from any seat, or with every card shown.
import { t, actionText, translateStatic } from "./i18n.js";
import { api } from "./net.js";
import { renderBoard } from "./board.js";
import { narrate } from "./narrate.js";

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export async function showReplay(app, tableId) {
  const params = new URLSearchParams(location.search);
  let who = params.get("seat") ?? "all";
  let step = Number(params.get("step") || 0);
  let table = null;
  let steps = null;
  let record = null;
  try { table = await api("GET", `/api/tables/${tableId}`); } catch (e) {
    app.innerHTML = `<section class="panel"><h1>${esc(t("web.no_such_table"))}</h1><p>${esc(e.message)}</p></section>`;
    return { relabel: () => {} };
  }
  app.innerHTML = `<div class="replay"><div class="replay-bar panel">
      <h1><span data-i18n="web.replay"></span> <span class="code">${esc(table.code)}</span></h1>
      <label><span data-i18n="web.view_as"></span> <select id="who"></select></label>
      <div class="stepper" role="group" aria-label="steps">
        <button id="first" class="small" data-i18n-label="web.first">⏮</button>
        <button id="prev" class="small" data-i18n-label="web.previous">◀</button>
        <input id="slider" type="range" min="0" value="0" aria-label="step">
        <button id="next" class="small" data-i18n-label="web.next">▶</button>
        <button id="last" class="small" data-i18n-label="web.last">⏭</button>
        <span id="stepno" aria-live="polite"></span>
      </div>
      <a class="button small" href="/api/tables/${esc(tableId)}/record" download data-i18n="web.download_record"></a>
    </div>
    <div class="tablepage"><div class="main-col"><div id="rboard" class="board"></div></div>
    <aside class="side"><section class="log-box"><h2 data-i18n="web.log"></h2><ol id="rlog" class="log"></ol></section></aside></div></div>`;
  translateStatic(app);
  const sel = app.querySelector("#who");
  const slider = app.querySelector("#slider");
  const board = app.querySelector("#rboard");
  const log = app.querySelector("#rlog");

  async function load() {
    const q = who === "spectator" ? "" : `?seat=${who}`;
    try {
      steps = (await api("GET", `/api/tables/${tableId}/replay${q}`)).steps;
    } catch (e) {
      steps = null;
      if (!record) { try { record = await api("GET", `/api/tables/${tableId}/record`); } catch (e2) { record = { actions: [], error: e2.message }; } }
    }
    draw();
  }

  function fillWho() {
    const names = table.seats.map((s) => s.name || s.bot || `${s.seat + 1}`);
    sel.innerHTML = `<option value="all">${esc(t("web.all_cards"))}</option><option value="spectator">${esc(t("web.spectator"))}</option>` +
      names.map((n, s) => `<option value="${s}">${esc(n)}</option>`).join("");
    sel.value = who;
  }

  function draw() {
    if (!steps) {
      const actions = (record && record.actions) || [];
      board.innerHTML = `<p class="panel">${esc(t("web.replay_unavailable"))}</p>`;
      log.innerHTML = actions.map((m) => {
        const [s, ...rest] = m.split(" ");
        const name = table.seats[Number(s)] ? (table.seats[Number(s)].name || table.seats[Number(s)].bot) : s;
        return `<li>${esc(name)}: ${esc(actionText(rest.join(" ")))}</li>`;
      }).join("");
      slider.max = "0";
      return;
    }
    step = Math.max(0, Math.min(step, steps.length - 1));
    slider.max = String(steps.length - 1);
    slider.value = String(step);
    app.querySelector("#stepno").textContent = t("web.step_of", { n: step, total: steps.length - 1 });
    const cur = steps[step];
    const me = who === "all" || who === "spectator" ? null : Number(who);
    renderBoard(board, cur.view, { me, table: null, readonly: true, hands: cur.hands || null,
      animate: { plays: new Set(cur.events.filter((e) => e.kind === "play" && e.cards.length).map((e) => `${e.seat}${e.cards[0]}`)), knock: null } });
    const names = cur.view.players;
    const lines = [];
    for (let i = 0; i <= step; i++) {
      for (const e of steps[i].events) {
        const text = narrate(e, names, me ?? -1);
        if (text) lines.push(`<li class="${i === step ? "now" : ""}">${esc(text)}</li>`);
      }
    }
    log.innerHTML = lines.reverse().join("");
    const u = new URL(location.href);
    u.searchParams.set("seat", who);
    u.searchParams.set("step", String(step));
    history.replaceState(null, "", u);
  }

  window.addEventListener("resize", () => { if (steps) draw(); });
  const go = (k) => { step = k; draw(); };
  app.querySelector("#first").addEventListener("click", () => go(0));
  app.querySelector("#prev").addEventListener("click", () => go(step - 1));
  app.querySelector("#next").addEventListener("click", () => go(step + 1));
  app.querySelector("#last").addEventListener("click", () => go(steps ? steps.length - 1 : 0));
  slider.addEventListener("input", () => go(Number(slider.value)));
  sel.addEventListener("change", () => { who = sel.value; load(); });
  document.addEventListener("keydown", (ev) => {
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "SELECT" || (tag === "INPUT" && ev.target.type !== "range")) return;
    if (ev.key === "ArrowRight") { go(step + 1); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft") { go(step - 1); ev.preventDefault(); }
    else if (ev.key === "Home") { go(0); ev.preventDefault(); }
    else if (ev.key === "End" && steps) { go(steps.length - 1); ev.preventDefault(); }
  });
  fillWho();
  await load();
  return { relabel: () => { translateStatic(app); fillWho(); draw(); } };
}
