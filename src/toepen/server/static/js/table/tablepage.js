// The table page: waiting room before the start, the board during the game, the result after.
import { t, say, has, translateStatic } from "../ui/i18n.js";
import { Connection, seatOf, saveSeat, forgetSeat } from "../net/socket.js";
import { api, presets } from "../net/http.js";
import { renderBoard, boardKey } from "./board.js";
import { scoreSheetHTML, pointsLimit } from "../ui/scoresheet.js";
import { rulesList } from "../ui/rulesets.js";
import { toast, savedName, botOption } from "./lobby.js";
import { keepState } from "./store.js";
import { esc } from "../ui/util.js";
import { money } from "../ui/pot.js";
import { reviewButton } from "./review.js";
import { tableLine, botMark } from "../ui/tableinfo.js";
import { botKind, botMenu } from "../ui/levels.js";
import { sound, soundOn, setSoundOn } from "../ui/sound.js";
import { tableInvitations } from "../site/invitations.js";
import { keepAwake, awakeToggle, qrFigure, shareButton } from "../ui/pwa.js";

const LOG_MAX = 300;
const LOG_LINES = 120; // the log's lines on the page, newest first
const CHAT_MAX = 60;
/** How long a finished trick stays on the felt before the next card (seconds; remembered). */
const PAUSES = [0, 1, 2, 4];
export function trickPause() {
  const v = localStorage.getItem("toepen.pause");
  return v !== null && PAUSES.includes(Number(v)) ? Number(v) : 2;
}

/** "Armoede: always pass" (remembered as toepen.autopass). */
function autopassOn() { return localStorage.getItem("toepen.autopass") === "1"; }

export async function showTable(app, tableId, setConn) {
  const mine = seatOf(tableId);
  const st = {
    table: null, view: null, seat: mine ? mine.seat : null, host: mine ? mine.host : false,
    token: mine ? mine.token : null, pending: false, hint: null, hintAvailable: true,
    events: loadLog(tableId), skipped: 0, animate: null, bots: ["random"], defaultBot: "random", meta: null,
    queue: [], holdUntil: 0, lastTrick: null, summary: null, standings: null, clock: null,
    chat: [], reactions: [], guide: localStorage.getItem("toepen.guide") !== "0",
  };
  app.innerHTML = `<div class="tablepage">
    <div class="main-col"><div id="waiting"></div><div id="board" class="board"></div></div>
    <aside class="side">
      <div class="invite" id="invite"></div>
      <div class="settings" id="settings"></div>
      <section class="chat-box" id="chat-box" aria-labelledby="h-chat"><h2 id="h-chat"><span data-i18n="web.chat"></span>
        <button type="button" class="small to-table" id="to-table" data-i18n="web.to_table"></button></h2>
        <div class="reactions" id="reactions"></div>
        <ol id="chat" class="chat" aria-live="polite"></ol>
        <form id="chat-form" class="chat-form"><input id="chat-text" autocomplete="off" data-i18n-placeholder="web.chat_placeholder" data-i18n-label="web.chat"><button class="small" id="chat-send" data-i18n="web.chat_send"></button></form>
      </section>
      <section class="log-box" aria-labelledby="h-log"><h2 id="h-log" data-i18n="web.log"></h2><ol id="log" class="log" aria-live="polite"></ol></section>
    </aside>
    <div id="result" class="result" hidden></div>
  </div>`;
  translateStatic(app);
  const jump = chatJump(app);
  const invites = tableInvitations(app.querySelector(".main-col"), tableId, toast);
  // the page's height below the header: the table fits the window
  const fit = () => document.documentElement.style.setProperty("--top", `${document.querySelector(".topbar").offsetHeight}px`);
  fit();
  window.addEventListener("resize", fit);
  const els = {
    waiting: app.querySelector("#waiting"), board: app.querySelector("#board"), log: app.querySelector("#log"),
    invite: app.querySelector("#invite"), result: app.querySelector("#result"),
    settings: app.querySelector("#settings"), chat: app.querySelector("#chat"),
    reactions: app.querySelector("#reactions"), chatForm: app.querySelector("#chat-form"),
    chatBox: app.querySelector("#chat-box"),
  };
  els.chatForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = els.chatForm.querySelector("#chat-text");
    const text = input.value.trim();
    if (!text) return;
    if (!conn.send({ type: "chat", text })) { toast(t("web.not_connected")); return; }
    input.value = "";
  });
  if (st.token) {
    // Is there a hint endpoint? A missing route answers FastAPI's plain 404 "Not Found".
    api("GET", `/api/tables/${tableId}/hint`, undefined, { token: st.token }).catch((e) => {
      if ((e.status === 404 && (e.detail === null || e.detail === "Not Found")) || e.status === 405) { st.hintAvailable = false; drawBoard(); }
    });
  }
  presets().then((m) => {
    st.meta = m; st.bots = botMenu(m); st.defaultBot = m.default_bot || m.bots[0];
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

  // A finished trick stays on the felt for the pause people set: what comes meanwhile waits.
  function handle(msg) {
    if (msg.type === "welcome") { st.queue = []; st.holdUntil = 0; }
    else if ((msg.type === "state" || msg.type === "table") && (st.queue.length || Date.now() < st.holdUntil)) {
      st.queue.push(msg);
      clearTimeout(st.flushTimer);
      st.flushTimer = setTimeout(flush, Math.max(0, st.holdUntil - Date.now()));
      return;
    }
    process(msg);
  }

  function flush() {
    while (st.queue.length && Date.now() >= st.holdUntil) process(st.queue.shift());
    if (st.queue.length) st.flushTimer = setTimeout(flush, Math.max(0, st.holdUntil - Date.now()));
  }

  /** Skip the pause: show what waits now. */
  function skipHold() { st.holdUntil = 0; flush(); }

  function process(msg) {
    if (msg.type === "welcome") {
      st.table = msg.table;
      st.seat = msg.seat;
      st.host = msg.host;
      st.pending = false;
      st.reactions = msg.reactions || [];
      // what was said before this page came (a late joiner, a spectator, a reconnect)
      if (Array.isArray(msg.chat)) st.chat = msg.chat.slice(-CHAT_MAX);
      // the server's bounds (protocol.Limits): the chat field is as long as the server allows
      if (msg.limits && msg.limits.chat_length) els.chatForm.querySelector("#chat-text").maxLength = msg.limits.chat_length;
      delete els.reactions.dataset.built;
      drawAll();
    } else if (msg.type === "table") {
      const before = st.table;
      st.table = msg.table;
      if (msg.table.rematch && (!before || before.rematch !== msg.table.rematch) && acceptedRematch(msg.table)) { followRematch(msg.table.rematch); return; }
      drawAll();
      drawRematch();
    } else if (msg.type === "chat") {
      st.chat.push(msg);
      if (st.chat.length > CHAT_MAX) st.chat.shift();
      if (msg.seat !== st.seat || st.seat === null || st.seat === undefined) jump.arrived();
      drawChat();
    } else if (msg.type === "state") {
      const names = msg.view.players;
      // the first state after welcome brings the game's log so far, as this receiver may see it
      if (msg.history) {
        st.events = msg.history.map((e) => ({ e, names }));
        st.skipped = msg.history_skipped || 0; // earlier events the server left out
      }
      const plays = new Set();
      let knock = null;
      let trick = st.view ? st.view.trick.slice() : [];
      let taken = null;
      let played = false;
      for (const e of msg.events) {
        st.events.push({ e, names });
        if (e.kind === "play" && e.cards.length) { plays.add(`${e.seat}${e.cards[0]}`); trick.push([e.seat, e.cards[0]]); played = true; }
        if (e.kind === "knock") knock = e.seat;
        // the trick is complete: it stays on the felt, its winner marked, until the next card
        if (e.kind === "trick") { taken = { cards: trick, winner: e.seat, say: e.say, names }; trick = []; }
      }
      if (taken) st.lastTrick = taken;
      else if (played) { st.lastTrick = null; if (st.summary && st.summary.shown) st.summary = null; }
      if (msg.summary) st.summary = { lines: msg.summary, names, shown: false };
      if (msg.standings) st.standings = { lines: msg.standings, names };
      const pause = trickPause() * 1000;
      if (taken && pause && st.view) st.holdUntil = Date.now() + (msg.summary ? 2 * pause + 2000 : pause);
      if (knock !== null) sound("knock");
      else if (taken) sound("trick");
      if (st.events.length > LOG_MAX) st.skipped += st.events.splice(0, st.events.length - LOG_MAX).length;
      saveLog(tableId, st.events);
      st.animate = { plays, knock };
      const wasMine = st.view && st.seat !== null && st.view.to_act.includes(st.seat);
      st.view = msg.view;
      st.prompt = msg.prompt ?? null;
      keepState(tableId, msg.view.seat ?? "spectator", msg);
      st.pending = false;
      st.hint = null;
      st.promptOpen = false;
      startClock();
      // "Armoede: always pass": the switch as it was when this deal came holds for the whole
      // deal (switched on or off after a look at the cards it waits for the next one), and
      // the pass goes at once, whatever the cards: its timing tells the others nothing
      if (!st.autopass || st.autopass.hand !== msg.view.hand_no) st.autopass = { hand: msg.view.hand_no, on: autopassOn() };
      const passNow = st.autopass.on && msg.view.phase === "claim" && st.seat !== null && st.seat !== undefined
        && msg.view.to_act.includes(st.seat) && msg.view.legal.includes("pass");
      if (!passNow && !wasMine && st.seat !== null && st.seat !== undefined && msg.view.to_act.includes(st.seat)) sound("turn");
      drawAll();
      if (passNow) act("pass");
    } else if (msg.type === "error") {
      st.pending = false;
      // an illegal action: the engine's refusal, in words the server chose (refusal.<code>)
      const why = msg.refusal ? say(msg.refusal.say, st.view ? st.view.players : []) : null;
      if (msg.code !== "stale") toast(why || say(msg.say, []) || msg.message || msg.code);
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
      const h = await api("GET", `/api/tables/${tableId}/hint`, undefined, { token: st.token });
      if (st.view && h.state === st.view.action_count) {
        // the suggested action and why, in the page's language, under the prompt (never over the cards)
        st.hint = h.action;
        st.hintText = { say: h.say, reason: h.reason };
        drawBoard();
      }
    } catch (e) {
      if (e.status === 404 || e.status === 405) { st.hintAvailable = false; drawBoard(); }
      else toast(e.message);
    }
  }

  // an unknown table id: said in the page's language, with the way back to the lobby
  function drawMissing() {
    // nothing of a table to show: no side panels, no connection state ("Disconnected")
    app.querySelector(".side").style.display = "none";
    els.waiting.innerHTML = "";
    setConn("");
    els.board.innerHTML = `<section class="panel notfound"><h1>${esc(t("web.no_such_table"))}</h1>` +
      `<p>${esc(t("web.no_such_table_id"))}</p><a class="button primary" id="back" href="/">${esc(t("web.back_to_lobby"))}</a></section>`;
  }

  /** Whether this page goes to the next game by itself: a spectator does, a player who
   * accepted the offer does; one who did not is asked (a bot plays their seat meanwhile). */
  function acceptedRematch(table) {
    const seated = st.seat !== null && st.seat !== undefined;
    return !seated || !table.offer || table.offer.ready.includes(st.seat);
  }

  function followRematch(newId) {
    // the same seat at the new table: the server kept this seat's token there
    if (st.token) saveSeat(newId, { token: st.token, seat: st.seat, host: st.host });
    toast(t("web.rematch_started"));
    conn.stopped = true;
    setTimeout(() => location.assign(`/?table=${encodeURIComponent(newId)}`), 400);
  }

  // the turn clock of a person: the table's idle seconds, then a bot plays for them
  function startClock() {
    const v = st.view;
    const tb = st.table;
    if (!v || v.phase === "over" || !tb || v.to_act.length !== 1) { st.clock = null; return; }
    const s = v.to_act[0];
    const seat = tb.seats[s];
    if (!seat || seat.kind !== "human" || seat.standin) { st.clock = null; return; }
    if (st.clock && st.clock.seat === s && st.clock.state === v.action_count) return;
    st.clock = { seat: s, state: v.action_count, until: Date.now() + tb.idle_seconds * 1000, total: tb.idle_seconds };
  }
  setInterval(tickClock, 250);
  function tickClock() {
    const c = st.clock;
    for (const el of document.querySelectorAll("[data-clock]")) {
      const left = c ? Math.max(0, Math.ceil((c.until - Date.now()) / 1000)) : 0;
      el.textContent = t("web.clock", { n: left });
      el.style.setProperty("--left", c ? String(Math.max(0, (c.until - Date.now()) / (c.total * 1000))) : "0");
      el.classList.toggle("low", left <= 10);
    }
  }

  function drawSettings() {
    const p = trickPause();
    const opts = PAUSES.map((n) => `<option value="${n}"${n === p ? " selected" : ""}>${esc(n ? t("web.pause_s", { n }) : t("web.pause_none"))}</option>`).join("");
    els.settings.innerHTML = `<label class="inline">${esc(t("web.pause"))} <select id="pause">${opts}</select></label>` +
      `<button class="small" id="sound" aria-pressed="${soundOn() ? "true" : "false"}">${esc(soundOn() ? t("web.sound_on") : t("web.sound_off"))}</button>` +
      `<button class="small" id="guide" aria-pressed="${st.guide ? "true" : "false"}">${esc(t("web.guide_toggle"))}</button>` +
      `<button class="small" id="autopass" aria-pressed="${autopassOn() ? "true" : "false"}" title="${esc(t("web.autopass_about"))}">${esc(t("web.autopass"))}</button>` +
      ` <a class="small" href="/?rules=1" target="_blank" rel="noopener">${esc(t("web.rules"))}</a>`;
    els.settings.querySelector("#pause").addEventListener("change", (ev) => { localStorage.setItem("toepen.pause", ev.target.value); if (!Number(ev.target.value)) skipHold(); });
    els.settings.querySelector("#sound").addEventListener("click", () => { setSoundOn(!soundOn()); drawSettings(); if (soundOn()) sound("turn"); });
    els.settings.querySelector("#autopass").addEventListener("click", () => {
      localStorage.setItem("toepen.autopass", autopassOn() ? "0" : "1");
      drawSettings();
      toast(t("web.autopass_about"));
    });
    els.settings.querySelector("#guide").addEventListener("click", () => { st.guide = !st.guide; localStorage.setItem("toepen.guide", st.guide ? "1" : "0"); drawSettings(); drawBoard(); });
  }

  function drawChat() {
    const seated = st.seat !== null && st.seat !== undefined;
    els.chatForm.hidden = !seated;
    els.reactions.hidden = !seated;
    const names = st.view ? st.view.players : [];
    els.chat.innerHTML = st.chat.map((m) => {
      const text = m.say ? say(m.say, names) : m.text; // a reaction in the page's language
      return `<li class="${m.react ? "react" : ""}" data-seat="${m.seat}"><b>${esc(m.name)}</b>: ${esc(text)}</li>`;
    }).reverse().join("");
    if (!els.reactions.dataset.built || els.reactions.dataset.lang !== document.documentElement.lang) {
      els.reactions.dataset.built = "1";
      els.reactions.dataset.lang = document.documentElement.lang;
      els.reactions.innerHTML = st.reactions.map((r) => `<button class="small react" data-react="${esc(r.name)}">${esc(say(r.say, []))}</button>`).join("");
      for (const b of els.reactions.querySelectorAll("[data-react]")) {
        b.addEventListener("click", () => { if (!conn.send({ type: "react", react: b.dataset.react })) toast(t("web.not_connected")); });
      }
    }
  }

  function drawAll() {
    if (st.missing) { drawMissing(); return; }
    drawSettings();
    drawChat();
    drawInvite();
    invites.update(st.table, st.seat !== null && st.seat !== undefined);
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
      `<button id="copy" class="small">${esc(t("web.copy"))}</button>` +
      // the table's rules, as the invite page shows them: open in the waiting room, then as the reader left it
      `<details class="rules-box" id="rules-box"${(st.rulesOpen ?? tb.status === "lobby") ? " open" : ""}>` +
      `<summary>${esc(t("web.table_rules"))}</summary>${rulesList(tb.rules)}</details>`;
    translateStatic(els.invite);
    els.invite.querySelector(".invite-row").after(qrFigure(`/api/tables/${encodeURIComponent(tableId)}/qr`, t("web.pub.qr.table"), "invite-qr"));
    const box = els.invite.querySelector("#rules-box");
    box.querySelector("summary").addEventListener("click", () => { st.rulesOpen = !box.open; });
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
      else if (s.kind === "bot") who = `${esc(s.name || s.bot)} ${botMark()} <span class="badge bot">${esc(t("web.bot"))}: ${esc(botKind(s))}</span>`;
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
      `<p>${tableLine(tb)}</p>${nameIn}<ol class="seatlist">${rows}</ol>` +
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

  let standinBar = null; // the "a bot plays for you" bar, kept across redraws

  function drawBoard() {
    if (st.missing) { drawMissing(); return; }
    if (!st.view) { els.board.innerHTML = ""; return; }
    const mine = st.seat !== null && st.seat !== undefined && st.view.to_act.includes(st.seat);
    let subline = "";
    if (st.hintText && st.hint && mine) {
      const names = st.view.players;
      subline = t("web.hint_why", { action: say(st.hintText.say, names) || st.hint, why: say(st.hintText.reason, names) || "" });
    } else if (st.guide && mine && st.view.phase !== "rebuy") { // (the rebuy offer says it itself)
      const id = `web.guide.${st.view.phase}`;
      if (has(id)) subline = t(id);
    }
    if (!st.hint) st.hintText = null;
    renderBoard(els.board, st.view, {
      me: st.seat, table: st.table, pending: st.pending, hint: st.hint, hintAvailable: st.hintAvailable && !!st.token,
      onAction: act, onHint: hint, animate: st.animate, rubbers: !!st.table && st.table.rules_full.session === "rubber", knockSeat: st.animate ? st.animate.knock : null,
      pointsLimit: pointsLimit(st.table && st.table.rules_full),
      lastTrick: st.view.trick.length ? null : st.lastTrick, clock: st.clock, subline, prompt: st.prompt,
    });
    st.animate = null;
    tickClock();
    expandable(els.board.querySelector(".prompt"));
    const felt = els.board.querySelector(".felt");
    if (st.summary && st.view.phase !== "over") {
      // between hands: the server's summary of the hand, over the felt (the hand and buttons stay free)
      st.summary.shown = true;
      const box = document.createElement("section");
      box.className = "summary";
      box.setAttribute("aria-live", "polite");
      box.innerHTML = st.summary.lines.map((m, i) => (i === 0 ? `<h2>${esc(say(m, st.summary.names))}</h2>` : `<p data-id="${esc(m.id)}">${esc(say(m, st.summary.names))}</p>`)).join("") +
        `<button class="small" id="summary-close">${esc(t("web.summary_close"))}</button>`;
      box.querySelector("#summary-close").addEventListener("click", () => { st.summary = null; skipHold(); drawBoard(); });
      felt.append(box);
    }
    const standin = st.table && st.seat !== null && st.seat !== undefined && st.table.seats[st.seat] && st.table.seats[st.seat].standin;
    if (standin) {
      // over the felt, so that the table does not move down; one bar kept across redraws
      // (while a stand-in plays the table changes several times a second, and a button
      // made anew each time could never be pressed)
      if (!standinBar) {
        standinBar = document.createElement("div");
        standinBar.className = "standin-bar";
        standinBar.innerHTML = `<span></span> <button class="big" id="back"></button>`;
        standinBar.querySelector("#back").addEventListener("click", () => conn.send({ type: "back" }));
      }
      standinBar.querySelector("span").textContent = t("web.standin_playing");
      standinBar.querySelector("#back").textContent = t("web.back");
      felt.append(standinBar);
    } else if (standinBar) {
      standinBar.remove();
      standinBar = null;
    }
  }

  /** The prompt and its second line (the hint's reason, the guide) are cut to their lines
   * on a small window: where they are, a tap shows them whole, until the next decision. */
  let promptSized = null;
  function expandable(prompt) {
    if (promptSized) promptSized.disconnect();
    if (!prompt) return;
    // (looked at again whenever its size changes: a turned phone, a resized window)
    const mark = () => {
      const cut = [...prompt.children].some((el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
      if (!cut && !st.promptOpen) {
        prompt.removeAttribute("aria-expanded"); prompt.removeAttribute("title"); prompt.removeAttribute("tabindex");
        return;
      }
      prompt.setAttribute("aria-expanded", st.promptOpen ? "true" : "false");
      prompt.tabIndex = 0;
      prompt.title = t(st.promptOpen ? "web.prompt_less" : "web.prompt_more");
    };
    mark();
    promptSized = new ResizeObserver(mark);
    for (const el of prompt.children) promptSized.observe(el);
    const toggle = () => {
      if (!prompt.hasAttribute("aria-expanded")) return;
      st.promptOpen = !st.promptOpen; drawBoard(); els.board.querySelector(".prompt")?.focus();
    };
    prompt.addEventListener("click", toggle);
    prompt.addEventListener("keydown", (ev) => {
      if ((ev.key === "Enter" || ev.key === " ") && prompt.hasAttribute("aria-expanded")) { ev.preventDefault(); ev.stopPropagation(); toggle(); }
    });
  }

  function drawLog() {
    const lines = [];
    for (const { e, names } of st.events) {
      const text = say(e.say, names); // the server's narration of the event, for this seat
      if (text) lines.push(`<li class="ev-${e.kind}">${esc(text)}</li>`);
    }
    // the log is cut (history_skipped, or more than it keeps): a line says so where the
    // earlier events would be, below the oldest line shown (the newest is on top)
    const hidden = st.skipped + Math.max(0, lines.length - LOG_LINES);
    const shown = lines.slice(-LOG_LINES).reverse();
    if (hidden > 0) shown.push(`<li class="log-skipped">${esc(t("web.log_skipped", { n: hidden }))}</li>`);
    els.log.innerHTML = shown.join("");
  }

  async function drawResult() {
    const v = st.view;
    if (!v || v.phase !== "over") { els.result.hidden = true; return; }
    if (st.resultClosed || !st.table) return;
    const points = pointsLimit(st.table.rules_full) !== null; // the sheet counts penalty points up
    if (!els.result.hidden && els.result.dataset.lang === document.documentElement.lang) return;
    els.result.dataset.lang = document.documentElement.lang;
    const winner = v.winner !== null ? v.players[v.winner] : "";
    els.result.innerHTML = `<section class="panel result-panel" role="dialog" aria-modal="false" aria-labelledby="h-result">` +
      `<h1 id="h-result">${esc(winner ? t("web.game_over_winner", { name: winner }) : t("phase.over"))}</h1>` +
      standingsHTML() +
      // pot toepen: the pot (the server's sum) and who takes it
      (v.pot && winner ? `<p class="result-pot">${esc(t("web.pot.takes", { name: winner, amount: money(v.pot, st.table.rules_full.pot_unit || "") }))}</p>` : "") +
      scoreSheetHTML(v, points) +
      rematchHTML() +
      `<p class="result-buttons"><a class="button big" href="/?replay=${esc(tableId)}">${esc(t("web.replay"))}</a> ` +
      `<a class="button big" href="/api/tables/${esc(tableId)}/record" download="toepen-${esc(tableId)}.json">${esc(t("web.download_record"))}</a> ` +
      `<a class="button big" href="/">${esc(t("web.new_table"))}</a> <button class="big" id="close-result">${esc(t("web.close"))}</button></p></section>`;
    els.result.hidden = false;
    els.result.querySelector("#close-result").addEventListener("click", () => { els.result.hidden = true; st.resultClosed = true; });
    els.result.querySelector(".result-buttons").prepend(reviewButton(tableId, v.players, st.seat), " ");
    els.result.querySelector(".result-buttons").prepend(shareButton(() => ({
      title: els.result.querySelector("#h-result").textContent,
      lines: [...els.result.querySelectorAll(".standings li")].map((li) => li.textContent.trim()),
      url: `${location.origin}/?replay=${encodeURIComponent(tableId)}`,
    }), toast), " ");
    drawRematch();
    const form = els.result.querySelector("#rematch-rules");
    if (form) {
      presets().then((m) => {
        const sel = form.querySelector("#rematch-preset");
        sel.innerHTML = m.presets.filter((p) => p.sizes.includes(v.players.length))
          .map((p) => `<option value="${esc(p.name)}"${p.name === v.rules.preset ? " selected" : ""}>${esc(t(p.label))}</option>`).join("");
        // left empty, the lives are the chosen preset's: the field shows how many
        const showLives = () => {
          const p = m.presets.find((x) => x.name === sel.value);
          form.querySelector("#rematch-lives").placeholder = p ? String(p.lives) : "";
        };
        sel.addEventListener("change", showLives);
        showLives();
      }).catch(() => {});
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const lives = form.querySelector("#rematch-lives").value;
        const msg = { type: "rematch", preset: form.querySelector("#rematch-preset").value, options: lives ? { lives: Number(lives) } : {} };
        if (!conn.send(msg)) toast(t("web.not_connected"));
      });
    }
  }

  /** The final standings as the server put them (narration.standings): only translated here. */
  function standingsHTML() {
    if (!st.standings) return "";
    const [title, ...rows] = st.standings.lines;
    return `<section class="standings"><h2>${esc(say(title, st.standings.names))}</h2><ol>` +
      rows.map((m) => `<li>${esc(say(m, st.standings.names))}</li>`).join("") + `</ol></section>`;
  }

  /** Play again: one click for a player offers it (same seats and rules), the others
   * accept; the host may change the rules. What the offer stands at is drawn by drawRematch. */
  function rematchHTML() {
    const seated = st.seat !== null && st.seat !== undefined;
    if (!seated && !st.host) return "";
    let html = `<div class="rematch-bar" id="rematch-box"></div>`;
    if (st.host) {
      html += `<details class="rematch-rules"><summary>${esc(t("web.rematch_rules"))}</summary><form id="rematch-rules" class="row">` +
        `<label>${esc(t("web.preset"))} <select id="rematch-preset"></select></label>` +
        `<label>${esc(t("option.lives"))} <input id="rematch-lives" type="number" min="1" max="99"></label>` +
        `<button class="big" id="rematch-go">${esc(t("web.rematch"))}</button></form></details>`;
    }
    return html;
  }

  /** The offer to play again as the server has it (table.offer): who offered, who is
   * still to answer; this player's button offers, accepts, or waits. */
  function drawRematch() {
    const box = els.result.querySelector("#rematch-box");
    if (!box || !st.table || !st.view) return;
    const table = st.table, offer = table.offer, players = st.view.players;
    const seated = st.seat !== null && st.seat !== undefined;
    const list = (seats) => new Intl.ListFormat(document.documentElement.lang, { type: "conjunction" })
      .format(seats.map((s) => players[s]));
    let line = "", button = "";
    if (table.rematch && !acceptedRematch(table)) {
      line = t("web.rematch_started_without");
      button = `<a class="button big primary" id="rematch-join" href="/?table=${esc(table.rematch)}">${esc(t("web.rematch_join"))}</a>`;
    } else if (!offer) {
      button = `<button class="big primary" id="rematch">${esc(t("web.rematch"))}</button>`;
    } else {
      const mine = seated && offer.ready.includes(st.seat);
      if (offer.by !== null && offer.by !== st.seat) line = t("web.rematch_offered", { name: players[offer.by] });
      const others = offer.waiting.filter((s) => s !== st.seat);  // this player is asked by the button
      if (others.length) line += (line ? " " : "") + t("web.rematch_waiting", { names: list(others) });
      button = mine || !seated
        ? `<button class="big" id="rematch" disabled>${esc(t("web.rematch_ready"))}</button>`
        : `<button class="big primary" id="rematch">${esc(t("web.rematch_accept"))}</button>`;
    }
    box.innerHTML = (line ? `<p class="rematch-offer" role="status">${esc(line)}</p>` : "") +
      `<p class="result-buttons">${button}</p>`;
    const rb = box.querySelector("button#rematch:not([disabled])");
    if (rb) rb.addEventListener("click", () => { rb.disabled = true; if (!conn.send({ type: "rematch" })) { rb.disabled = false; toast(t("web.not_connected")); } });
  }

  document.addEventListener("keydown", (ev) => {
    if (boardKey(ev, st.view, st.seat, act, st.hintAvailable && st.token ? hint : null)) ev.preventDefault();
  });

  els.invite.after(awakeToggle());  // the screen stays awake at the table (issue 39)
  keepAwake();

  return {
    relabel: () => { translateStatic(app); jump.relabel(); invites.relabel(); els.result.hidden = true; st.resultClosed = false; drawAll(); },
    state: st,
  };
}

/** On a phone (and a window up to 900 px) the chat and the log lie below the table: a button
 * in the header goes there, and counts the lines and reactions that came while the chat was
 * out of sight (others' only); the chat's "Back to the table" goes up again. */
function chatJump(app) {
  const box = app.querySelector("#chat-box");
  const btn = document.createElement("button");
  btn.type = "button";
  btn.id = "to-chat";
  btn.className = "chat-jump";
  btn.innerHTML = `<span aria-hidden="true">💬</span><span class="chat-new" id="chat-new" hidden></span>`;
  const menu = document.getElementById("menu");
  menu.parentElement.insertBefore(btn, menu);
  const count = btn.querySelector("#chat-new");
  let unread = 0;
  let inSight = false;
  const label = () => {
    count.textContent = String(unread);
    count.hidden = unread === 0;
    btn.classList.toggle("unread", unread > 0);
    btn.setAttribute("aria-label", unread ? t("web.chat_new", { n: unread }) : t("web.to_chat"));
    btn.title = btn.getAttribute("aria-label");
  };
  new IntersectionObserver((seen) => {
    inSight = seen.some((e) => e.isIntersecting);
    if (inSight && unread) { unread = 0; label(); }
  }).observe(box);
  btn.addEventListener("click", () => {
    box.scrollIntoView({ block: "start", behavior: "smooth" });
    unread = 0;
    label();
  });
  app.querySelector("#to-table").addEventListener("click", () => window.scrollTo({ top: 0, behavior: "smooth" }));
  label();
  return {
    arrived: () => {
      if (inSight) return; // (read as it comes: nothing to count)
      unread += 1;
      label();
    },
    relabel: label,
  };
}

function loadLog(tableId) {
  try { return JSON.parse(sessionStorage.getItem(`toepen.log.${tableId}`) || "[]"); } catch { return []; }
}
function saveLog(tableId, events) {
  try { sessionStorage.setItem(`toepen.log.${tableId}`, JSON.stringify(events)); } catch { /* full: keep in memory */ }
}
