// The table page: waiting room before the start, the board during the game, the result after.
import { t, say, translateStatic } from "./i18n.js";
import { Connection, api, presets, seatOf, saveSeat, forgetSeat } from "./net.js";
import { renderBoard, boardKey } from "./board.js";
import { scoreSheetHTML, lostFromEvents, startLives, sessionKind } from "./scoresheet.js";
import { toast, savedName, botOption } from "./lobby.js";
import { keepState, keptStates } from "./store.js";
import { esc } from "./util.js";

const LOG_MAX = 300;

export async function showTable(app, tableId, setConn) {
  const mine = seatOf(tableId);
  const st = {
    table: null, view: null, seat: mine ? mine.seat : null, host: mine ? mine.host : false,
    token: mine ? mine.token : null, pending: false, hint: null, hintAvailable: true,
    events: loadLog(tableId), animate: null, lost: null, bots: ["random"], defaultBot: "random", meta: null,
  };
  app.innerHTML = `<div class="tablepage">
    <div class="main-col"><div id="waiting"></div><div id="board" class="board"></div></div>
    <aside class="side">
      <div class="invite" id="invite"></div>
      <section class="log-box" aria-labelledby="h-log"><h2 id="h-log" data-i18n="web.log"></h2><ol id="log" class="log" aria-live="polite"></ol></section>
    </aside>
    <div id="result" class="result" hidden></div>
  </div>`;
  translateStatic(app);
  const els = {
    waiting: app.querySelector("#waiting"), board: app.querySelector("#board"), log: app.querySelector("#log"),
    invite: app.querySelector("#invite"), result: app.querySelector("#result"),
  };
  if (st.token) {
    // Is there a hint endpoint? A missing route answers FastAPI's plain 404 "Not Found".
    fetch(`/api/tables/${tableId}/hint`, { headers: { Authorization: `Bearer ${st.token}` } }).then(async (r) => {
      let d = null; try { d = await r.json(); } catch { d = null; }
      if ((r.status === 404 && (!d || d.detail === "Not Found")) || r.status === 405) { st.hintAvailable = false; drawBoard(); }
    }).catch(() => {});
  }
  presets().then((m) => {
    st.meta = m; st.bots = m.bots; st.defaultBot = m.default_bot || m.bots[0];
    if (st.table && st.table.status === "lobby") drawWaiting(); else drawBoard();
  }).catch(() => {});

  const conn = new Connection(tableId, st.token, {
    onStatus: (s, detail) => {
      setConn(s);
      if (s === "closed" && (detail === 4001)) {
        // the token is no longer valid (left, removed): carry on as a spectator
        forgetSeat(tableId);
        toast(t("web.token_refused"));
        setTimeout(() => location.reload(), 800);
      } else if (s === "closed" && detail === 4004) {
        st.missing = true;
        drawMissing();
      }
    },
    onMessage: (msg) => handle(msg),
  });
  // for debugging and the browser tests: the page's own state, nothing the page does not hold
  window.toepenConn = conn;
  window.toepenState = st;

  function handle(msg) {
    if (msg.type === "welcome") {
      st.table = msg.table;
      st.seat = msg.seat;
      st.host = msg.host;
      st.pending = false;
      drawAll();
    } else if (msg.type === "table") {
      st.table = msg.table;
      drawAll();
    } else if (msg.type === "state") {
      const names = msg.view.players;
      // the first state after welcome brings the game's log so far, as this receiver may see it
      if (msg.history) st.events = msg.history.map((e) => ({ e, names }));
      const plays = new Set();
      let knock = null;
      for (const e of msg.events) {
        st.events.push({ e, names });
        if (e.kind === "play" && e.cards.length) plays.add(`${e.seat}${e.cards[0]}`);
        if (e.kind === "knock") knock = e.seat;
      }
      if (st.events.length > LOG_MAX) st.events.splice(0, st.events.length - LOG_MAX);
      saveLog(tableId, st.events);
      st.animate = { plays, knock };
      st.view = msg.view;
      keepState(tableId, msg.view.seat ?? "spectator", msg);
      st.pending = false;
      st.hint = null;
      drawAll();
    } else if (msg.type === "error") {
      st.pending = false;
      // an illegal action: the engine's refusal, in words the server chose (refusal.<code>)
      const why = msg.refusal ? say(msg.refusal.say, st.view ? st.view.players : []) : null;
      if (msg.code !== "stale") toast(why || msg.message || msg.code);
      drawBoard();
    }
  }

  function act(action) {
    if (!st.view || st.pending) return;
    if (!conn.send({ type: "act", action, state: st.view.action_count })) { toast(t("web.not_connected")); return; }
    st.pending = true;
    drawBoard();
  }

  async function hint() {
    if (!st.token || !st.view) return;
    try {
      const h = await api("GET", `/api/tables/${tableId}/hint`, undefined, st.token);
      if (st.view && h.state === st.view.action_count) { st.hint = h.action; drawBoard(); toast(t("web.hint_is", { action: h.action })); }
    } catch (e) {
      if (e.status === 404 || e.status === 405) { st.hintAvailable = false; drawBoard(); }
      else toast(e.message);
    }
  }

  // an unknown table id: said in the page's language, with the way back to the lobby
  function drawMissing() {
    els.board.innerHTML = `<section class="panel notfound"><h1>${esc(t("web.no_such_table"))}</h1>` +
      `<p>${esc(t("web.no_such_table_id"))}</p><a class="button primary" id="back" href="/">${esc(t("web.back_to_lobby"))}</a></section>`;
  }

  function drawAll() {
    if (st.missing) { drawMissing(); return; }
    drawInvite();
    drawWaiting();
    drawBoard();
    drawLog();
    drawResult();
  }

  function drawInvite() {
    const tb = st.table;
    if (!tb) return;
    const link = `${location.origin}/join/${tb.code}`;
    const role = st.seat !== null && st.seat !== undefined ? t("web.you_sit", { n: st.seat + 1 }) : t("web.spectating");
    els.invite.innerHTML = `<div class="role">${esc(role)}${tb.spectators ? ` · ${esc(t("web.spectators_n", { n: tb.spectators }))}` : ""}</div>` +
      `<label class="invite-row"><span>${esc(t("web.invite"))} <span class="code">${esc(tb.code)}</span></span>` +
      `<input id="invite-link" readonly value="${esc(link)}"></label>` +
      `<button id="copy" class="small">${esc(t("web.copy"))}</button>`;
    els.invite.querySelector("#copy").addEventListener("click", async () => {
      const input = els.invite.querySelector("#invite-link");
      try { await navigator.clipboard.writeText(link); } catch { input.select(); document.execCommand && document.execCommand("copy"); }
      toast(t("web.copied"));
    });
  }

  function drawWaiting() {
    const tb = st.table;
    if (!tb || tb.status !== "lobby") { els.waiting.innerHTML = ""; return; }
    const rows = tb.seats.map((s) => {
      let who;
      if (s.kind === "open") who = `<em>${esc(t("web.seat_open"))}</em>`;
      else if (s.kind === "bot") who = `${esc(s.name || s.bot)} <span class="badge bot">${esc(t("web.bot"))}: ${esc(s.bot)}</span>`;
      else who = `${esc(s.name)} ${s.connected ? "" : `<span class="badge away">${esc(t("web.away"))}</span>`}`;
      let ctl = "";
      if (st.host && s.kind === "open") {
        ctl = `<select data-botsel="${s.seat}" aria-label="${esc(t("web.bot"))}">${st.bots.map((b) => botOption(b, st.defaultBot)).join("")}</select>` +
          `<button class="small" data-cmd="add_bot" data-seat="${s.seat}">${esc(t("web.add_bot"))}</button>`;
      } else if (st.host && s.kind === "bot") {
        ctl = `<button class="small" data-cmd="remove_bot" data-seat="${s.seat}">${esc(t("web.remove"))}</button>`;
      } else if (st.host && s.kind === "human" && !s.connected && s.seat !== st.seat) {
        ctl = `<button class="small" data-cmd="remove_seat" data-seat="${s.seat}">${esc(t("web.remove"))}</button>`;
      }
      if (s.kind === "open" && (st.seat === null || st.seat === undefined) && !st.host) {
        ctl += `<button class="small" data-take="${s.seat}">${esc(t("web.take_seat"))}</button>`;
      }
      return `<li data-seat="${s.seat}"><span class="seatno">${s.seat + 1}</span> ${who} ${ctl}</li>`;
    }).join("");
    const full = tb.seats.every((s) => s.kind !== "open");
    const startBtn = st.host ? `<button class="big primary" id="start" ${full ? "" : "disabled"}>${esc(t("web.start"))}</button>` : "";
    const leaveBtn = st.seat !== null && st.seat !== undefined && !st.host ? `<button class="small" id="leave">${esc(t("web.leave"))}</button>` : "";
    const nameIn = (st.seat === null || st.seat === undefined) && !st.host ? `<label>${esc(t("web.your_name"))} <input id="take-name" value="${esc(savedName())}"></label>` : "";
    els.waiting.innerHTML = `<section class="panel waiting"><h1>${esc(t("web.waiting_room"))} <span class="code">${esc(tb.code)}</span></h1>` +
      `<p>${esc(tb.preset)} · ${esc(t("web.players_n", { n: tb.size }))}</p>${nameIn}<ol class="seatlist">${rows}</ol>` +
      `<p class="hintline">${esc(full ? (st.host ? t("web.ready_to_start") : t("web.waiting_for_host")) : t("web.waiting_for_players"))}</p>${startBtn}${leaveBtn}</section>`;
    for (const b of els.waiting.querySelectorAll("[data-cmd]")) {
      b.addEventListener("click", () => {
        const seat = Number(b.dataset.seat);
        const msg = { type: "host", command: b.dataset.cmd, seat };
        if (b.dataset.cmd === "add_bot") msg.bot = els.waiting.querySelector(`[data-botsel="${seat}"]`).value;
        if (!conn.send(msg)) toast(t("web.not_connected"));
      });
    }
    for (const b of els.waiting.querySelectorAll("[data-take]")) {
      b.addEventListener("click", async () => {
        const name = els.waiting.querySelector("#take-name").value.trim();
        try {
          const joined = await api("POST", `/api/tables/${tb.id}/join`, { name, seat: Number(b.dataset.take) });
          localStorage.setItem("toepen.name", name);
          saveSeat(tb.id, joined);
          location.reload();
        } catch (e) { toast(e.message); }
      });
    }
    const sb = els.waiting.querySelector("#start");
    if (sb) sb.addEventListener("click", () => { if (!conn.send({ type: "host", command: "start" })) toast(t("web.not_connected")); });
    const lb = els.waiting.querySelector("#leave");
    if (lb) lb.addEventListener("click", () => {
      conn.send({ type: "leave" });
      conn.stopped = true; // the server closes the socket: no reconnect
      forgetSeat(tableId);
      setTimeout(() => location.assign("/"), 300);
    });
  }

  function drawBoard() {
    if (!st.view) { els.board.innerHTML = ""; return; }
    renderBoard(els.board, st.view, {
      me: st.seat, table: st.table, pending: st.pending, hint: st.hint, hintAvailable: st.hintAvailable && !!st.token,
      onAction: act, onHint: hint, animate: st.animate, rubbers: sessionKind(st.view.rules, st.meta) === "rubber", knockSeat: st.animate ? st.animate.knock : null,
    });
    st.animate = null;
    const standin = st.table && st.seat !== null && st.seat !== undefined && st.table.seats[st.seat] && st.table.seats[st.seat].standin;
    if (standin) {
      const bar = document.createElement("div");
      bar.className = "standin-bar";
      bar.innerHTML = `${esc(t("web.standin_playing"))} <button class="big" id="back">${esc(t("web.back"))}</button>`;
      bar.querySelector("#back").addEventListener("click", () => conn.send({ type: "back" }));
      els.board.prepend(bar);
    }
  }

  function drawLog() {
    const lines = [];
    for (const { e, names } of st.events) {
      const text = say(e.say, names); // the server's narration of the event, for this seat
      if (text) lines.push(`<li class="ev-${e.kind}">${esc(text)}</li>`);
    }
    els.log.innerHTML = lines.slice(-120).reverse().join("");
  }

  async function drawResult() {
    const v = st.view;
    if (!v || v.phase !== "over") { els.result.hidden = true; return; }
    if (st.resultClosed || st.lostLoading) return;
    if (st.lost === null) {
      st.lostLoading = true;
      st.lost = await lostInSession(tableId, st.seat, v.players.length);
      if (!st.lost) st.start = startLives(v.rules, await presets().catch(() => null));
      st.lostLoading = false;
    }
    if (!els.result.hidden && els.result.dataset.lang === document.documentElement.lang) return;
    els.result.dataset.lang = document.documentElement.lang;
    const winner = v.winner !== null ? v.players[v.winner] : "";
    els.result.innerHTML = `<section class="panel result-panel" role="dialog" aria-modal="false" aria-labelledby="h-result">` +
      `<h1 id="h-result">${esc(winner ? t("web.game_over_winner", { name: winner }) : t("phase.over"))}</h1>` +
      scoreSheetHTML(v, st.lost, st.start) +
      `<p class="result-buttons"><a class="button big primary" href="/?replay=${esc(tableId)}">${esc(t("web.replay"))}</a> ` +
      `<a class="button big" href="/api/tables/${esc(tableId)}/record" download="toepen-${esc(tableId)}.json">${esc(t("web.download_record"))}</a> ` +
      `<a class="button big" href="/">${esc(t("web.new_table"))}</a> <button class="big" id="close-result">${esc(t("web.close"))}</button></p></section>`;
    els.result.hidden = false;
    els.result.querySelector("#close-result").addEventListener("click", () => { els.result.hidden = true; st.resultClosed = true; });
  }

  document.addEventListener("keydown", (ev) => {
    if (boardKey(ev, st.view, st.seat, act, st.hintAvailable && st.token ? hint : null)) ev.preventDefault();
  });

  return {
    relabel: () => { translateStatic(app); els.result.hidden = true; st.resultClosed = false; drawAll(); },
    state: st,
  };
}

/**
 * Lives lost by seat over the whole session, from the events: the server's replay if it
 * has one, else the states this browser kept if it saw every one of them; else undefined
 * (the score sheet then counts from the final lives).
 */
async function lostInSession(tableId, seat, n) {
  try {
    const r = await api("GET", `/api/tables/${tableId}/replay`);
    return lostFromEvents(r.steps.flatMap((x) => x.events), n);
  } catch { /* no replay endpoint */ }
  const kept = (await keptStates(tableId))[seat ?? "spectator"] || [];
  const complete = kept.length > 0 && kept[0].state === 0 && kept.length === kept[kept.length - 1].state + 1;
  return complete ? lostFromEvents(kept.flatMap((x) => x.events), n) : undefined;
}

function loadLog(tableId) {
  try { return JSON.parse(sessionStorage.getItem(`toepen.log.${tableId}`) || "[]"); } catch { return []; }
}
function saveLog(tableId, events) {
  try { sessionStorage.setItem(`toepen.log.${tableId}`, JSON.stringify(events)); } catch { /* full: keep in memory */ }
}
