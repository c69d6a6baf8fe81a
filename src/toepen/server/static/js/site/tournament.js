// A tournament: the organiser's page (register players, draw a round, enter each table's
// finishing order, drop-outs and late arrivals, standings) and the projector view (live
// standings and the tables of the round to play). The draw, the points and the order of
// the standings are the server's (toepen.tourney); this page only shows and sends.
import { t } from "../ui/i18n.js";
import { saveSeat } from "../net/socket.js";
import { toast } from "../table/lobby.js";
import { api, presets } from "../net/http.js";
import { keyOf, saveKey, freshKey, schemeName, standingsHTML, houseName } from "./club.js";
import { clubMembers, membersHTML, attachMembers } from "./members.js";
import { account } from "./account.js";
import { esc } from "../ui/util.js";
import { money, settlementHTML } from "../ui/pot.js";

const POLL_MS = 3000;

async function load(id) {
  return api("GET", `/api/tournaments/${encodeURIComponent(id)}`);
}

function notFound(app, message) {
  app.innerHTML = `<section class="panel notfound"><h1>${esc(message)}</h1><a class="button" href="/?clubs">${esc(t("web.club.clubs"))}</a></section>`;
}

/** The round to play: the last one drawn while a table of it has no result. */
function openRound(tn) {
  const last = tn.rounds[tn.rounds.length - 1];
  return last && !last.complete ? last : null;
}

/** Pot toepen over the evening (the server's ``pot``): each player's balance over the tables
 * played so far and who pays whom; nothing without a pot or before a table has a result. */
function potHTML(tn) {
  const pot = tn.pot;
  if (!pot) return "";
  const balances = Object.entries(pot.balances || {});
  const stake = `<p class="note pot-stake">${esc(t("web.pot.stake", { amount: money(pot.stake, pot.unit || "") }))}</p>`;
  if (!balances.length) return `<section class="panel pot-evening"><h2>${esc(t("web.pot.title"))}</h2>${stake}</section>`;
  return `<section class="panel pot-evening"><h2>${esc(t("web.pot.title"))}</h2>${stake}` +
    settlementHTML(balances, pot.settlement || [], pot.unit || "", "tourney-settlement") + "</section>";
}

function rulesLine(tn, schemes) {
  const lives = typeof tn.rules === "object" && tn.rules.lives;
  return `${esc(houseName(tn.house_rules))} (${esc(t(`preset.${tn.preset}`))}${lives ? `, ${esc(t("web.lives", { n: lives }))}` : ""}) · ${esc(t("web.club.scheme"))}: ${esc(schemeName(tn.scheme, schemes))}`;
}

function resultLine(table) {
  return table.result.map((p, i) => `${i + 1}. ${esc(p)}`).join(" · ");
}

/** What an online seat offers: the organiser, its link to hand the player (the key
 * after "#"); the player logged in as the account they are registered with, a button. */
function seatOffer(tn, round, table, p, links, me) {
  if (table.mode !== "online" || table.result) return "";
  const link = links[`${round.no}:${table.no}:${p}`];
  if (link) {
    return ` <a class="seat-link" href="${esc(link)}">${esc(t("web.club.seat_link"))}</a>` +
      ` <button class="small" data-copy="${esc(link)}" data-name="${esc(p)}">${esc(t("web.club.copy_link"))}</button>` +
      // its QR code (the server's SVG of its own link, issue 39): the player scans it across the table
      (SEAT_QR.has(link) ? `<details class="seat-qr no-print"><summary>${esc(t("web.pub.qr.show"))}</summary>` +
        `<figure class="qr-figure" data-link="${esc(link)}" aria-label="${esc(t("web.pub.qr.seat", { name: p }))}">${SEAT_QR.get(link)}</figure></details>` : "");
  }
  const player = tn.players.find((x) => x.name === p);
  if (me && player && player.account && player.account.toLowerCase() === me.toLowerCase()) {
    return ` <button class="small" data-seat="${esc(p)}" data-round="${round.no}" data-table="${table.no}">${esc(t("web.club.take_seat"))}</button>`;
  }
  return "";
}

/** One table of a round: its seats; the result, or (for the organiser) places to enter. */
function tableHTML(tn, round, table, organiser, links = {}, me = null) {
  const seats = table.seats.map((p, i) => `<li data-player="${esc(p)}"><span class="seatno">${i + 1}</span> ${esc(p)}` +
    seatOffer(tn, round, table, p, links, me) + "</li>").join("");
  let body = "";
  if (table.sheet && !table.result) {
    const keeper = organiser && keyOf(`sheet:${table.sheet}`);
    body += `<p class="sheet-links"><a class="button" href="/?sheet=${esc(table.sheet)}">${esc(t("web.club.follow_sheet"))}</a>` +
      (keeper ? ` <a class="button primary" href="/?sheet=${esc(table.sheet)}#key=${esc(keeper)}">${esc(t("web.club.keep_sheet"))}</a>` : "") + "</p>";
  }
  if (table.result) {
    body = `<p class="result-line">${resultLine(table)}${table.by === "game" ? ` <span class="badge">${esc(t("web.club.by_game"))}</span>` : table.by === "sheet" ? ` <span class="badge">${esc(t("web.club.by_sheet"))}</span>` : ""}</p>`;
  }
  if (organiser && !tn.finished && !table.result && table.mode === "cards" && round.no === tn.rounds.length) {
    body += `<p class="switch"><button class="small" data-switch="sheet" data-round="${round.no}" data-table="${table.no}">${esc(t("web.club.to_sheet"))}</button> ` +
      `<button class="small" data-switch="online" data-round="${round.no}" data-table="${table.no}">${esc(t("web.club.to_online"))}</button></p>`;
  }
  if (organiser && !tn.finished && (!table.result || round.no === tn.rounds.length)) {
    // a result to correct starts as it was; a new one starts empty: each place is chosen
    // (never the seat order by accident)
    const order = table.result || table.seats.map(() => "");
    const places = order.map((p, i) => `<label class="place">${esc(t("web.club.place_n", { n: i + 1 }))} <select data-place="${i}" required>` +
      `<option value=""${p ? "" : " selected"}>${esc(t("web.club.place_choose"))}</option>` +
      table.seats.map((s) => `<option value="${esc(s)}"${s === p ? " selected" : ""}>${esc(s)}</option>`).join("") + "</select></label>").join("");
    body += `<form class="enter" data-round="${round.no}" data-table="${table.no}"><div class="places">${places}</div>` +
      `<button type="submit" class="${table.result ? "small" : "primary"}">${esc(t(table.result ? "web.club.correct_result" : "web.club.save_result"))}</button></form>`;
  }
  return `<article class="ttable" data-no="${table.no}"><h3>${esc(t("web.club.table_n", { n: table.no }))}` +
    `</h3><ol class="seatlist">${seats}</ol>${body}</article>`;
}

/** /?tournament=ID: the organiser's page (and everyone's view of the tournament). */
/** A seat's link (/?tournament=ID#seat=KEY): take the seat and go to the table; the
 * key leaves the address at once. False (and the reason said) if it takes no seat. */
async function takeSeatByLink(id) {
  const m = /^#seat=([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
  if (!m) return false;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    const joined = await api("POST", `/api/tournaments/${encodeURIComponent(id)}/seat`, { key: m[1] });
    saveSeat(joined.table.id, joined);
    location.assign(`/?table=${encodeURIComponent(joined.table.id)}`);
    return true;
  } catch (e) { toast(e.message); return false; }
}

/** Each seat link's QR code (SVG drawn by the server), by link. */
const SEAT_QR = new Map();

/** Each online seat's link, by "round:table:name", for the organiser or a club admin
 * (GET /api/tournaments/ID/seats); none for anyone else. */
async function seatLinks(tn, key, loggedIn) {
  const pending = tn.rounds.some((r) => r.tables.some((x) => x.mode === "online" && !x.result));
  if (!pending || (!key && !(tn.club && loggedIn))) return {};
  try {
    const got = await api("GET", `/api/tournaments/${encodeURIComponent(tn.id)}/seats`, undefined, { token: key });
    const links = {};
    for (const x of got.tables) {
      for (const s of x.seats) {
        links[`${x.round}:${x.table}:${s.name}`] = s.link;
        if (s.qr) SEAT_QR.set(s.link, s.qr);
      }
    }
    return links;
  } catch { return {}; }
}

export async function showTournament(app, id) {
  if (await takeSeatByLink(id)) return null;
  const fresh = freshKey();
  const me = (await account()).user;
  const schemes = (await presets().catch(() => ({}))).schemes; // the server's scoring schemes
  let last = "";
  const draw = async (tn) => {
    const key = keyOf(`tournament:${tn.id}`) || (tn.club && keyOf(`club:${tn.club.id}`));
    const organiser = !!key;
    const links = await seatLinks(tn, key, !!me);
    const members = organiser && !tn.finished ? await clubMembers(tn) : [];
    const myName = me ? me.name : null;
    const current = openRound(tn);
    const earlier = tn.rounds.filter((r) => r !== current).reverse();
    app.innerHTML = `<div class="tourney">
      <section class="panel"><h1 id="t-name">${esc(tn.name)}</h1>
        ${fresh ? `<p class="keynote" role="status">${esc(t("web.club.key_once"))} <code class="key">${esc(fresh)}</code></p>` : ""}
        <p>${tn.club ? `<a href="/?club=${esc(tn.club.id)}">${esc(tn.club.name)}</a> · ` : ""}${esc(tn.season)} · ${rulesLine(tn, schemes)}</p>
        <p><span class="badge" id="t-status">${esc(t(`web.club.status.${tn.finished ? "over" : "open"}`))}</span>
          <a class="button" id="projector-link" href="/?projector=${esc(tn.id)}">${esc(t("web.club.projector"))}</a></p></section>
      ${current ? `<section class="panel" id="current"><h2>${esc(t("web.club.round_n", { round: current.no }))} · ${esc(t(`web.club.mode.${current.mode}`))}</h2>
        ${Object.keys(links).length ? `<p class="note" id="seat-links-note">${esc(t("web.club.seat_links_note"))}</p>` : ""}
        <div class="ttables">${current.tables.map((x) => tableHTML(tn, current, x, organiser, links, myName)).join("")}</div></section>` : ""}
      ${organiser && !tn.finished ? `<section class="panel"><h2>${esc(t("web.club.organise"))}</h2>
        <form id="register" class="row"><label>${esc(t("web.club.player_name"))} <input id="p-name" required autocomplete="off"></label>
          <button type="submit" id="p-add">${esc(t("web.club.register"))}</button></form>
        ${membersHTML(tn, members)}
        ${current ? `<p class="note">${esc(t("web.club.round_open", { round: current.no }))}</p>` : `<form id="draw" class="row">
          <label>${esc(t("web.club.mode"))} <select id="mode"><option value="cards">${esc(t("web.club.mode.cards"))}</option><option value="sheet">${esc(t("web.club.mode.sheet"))}</option><option value="online">${esc(t("web.club.mode.online"))}</option></select></label>
          <button class="big primary" type="submit" id="draw-btn">${esc(t("web.club.draw_round", { round: tn.rounds.length + 1 }))}</button></form>
          ${tn.next_sizes.length ? `<p class="note">${esc(t("web.club.next_sizes", { sizes: tn.next_sizes.join(", ") }))}</p>` : ""}
          ${tn.rounds.length ? `<button id="finish">${esc(t("web.club.finish"))}</button>` : ""}`}
      </section>` : ""}
      <section class="panel"><h2>${esc(t("web.club.standings"))}</h2><div id="standings">${standingsHTML(tn.standings)}</div>
        <p class="note">${esc(t("web.club.tie_breaks"))}</p>
        ${tn.rounds.length ? `<p class="note" id="spread">${esc(t("web.club.spread", { distinct: tn.spread.distinct, best: tn.spread.best }))}</p>` : ""}</section>
      ${potHTML(tn)}
      <section class="panel"><h2>${esc(t("web.club.players_n", { n: tn.players.filter((p) => p.active).length }))}</h2>
        <ul class="tables" id="players">${tn.players.map((p) => `<li><span>${esc(p.name)}</span>` +
          (p.from_round > 1 ? ` <span class="badge">${esc(t("web.club.from_round", { round: p.from_round }))}</span>` : "") +
          (!p.active ? ` <span class="badge out">${esc(t("web.club.left_after", { round: p.dropped }))}</span>` : "") +
          (organiser && !tn.finished ? (p.active ? ` <button class="small" data-drop="${esc(p.name)}">${esc(t("web.club.drop"))}</button>`
            : ` <button class="small" data-back="${esc(p.name)}">${esc(t("web.club.comes_back"))}</button>`) : "") + "</li>").join("")}</ul></section>
      ${earlier.map((r) => `<section class="panel"><details><summary>${esc(t("web.club.round_n", { round: r.no }))}</summary>` +
        r.tables.map((x) => tableHTML(tn, r, x, organiser, links, myName)).join("") + "</details></section>").join("")}
    </div>`;
    const q = (s) => app.querySelector(s);
    const send = async (path, body) => {
      try {
        const next = await api("POST", `/api/tournaments/${tn.id}/${path}`, body, { token: key });
        // each score sheet's keeper key comes once, with the draw: this browser keeps it
        for (const [no, sheetKey] of Object.entries(next.sheet_keys || {})) {
          saveKey(`sheet:${next.rounds[next.rounds.length - 1].tables[Number(no) - 1].sheet}`, sheetKey);
        }
        delete next.sheet_keys;
        last = JSON.stringify(next);
        await draw(next);
        return true;
      } catch (e) { toast(e.message); return false; }
    };
    if (q("#register")) {
      q("#register").addEventListener("submit", async (ev) => {
        ev.preventDefault();
        if (await send("players", { name: q("#p-name").value.trim() })) q("#p-name").focus();
      });
    }
    attachMembers(app, send);
    if (q("#draw")) q("#draw").addEventListener("submit", (ev) => { ev.preventDefault(); send("rounds", { mode: q("#mode").value }); });
    if (q("#finish")) q("#finish").addEventListener("click", () => send("finish", {}));
    for (const b of app.querySelectorAll("[data-drop]")) b.addEventListener("click", () => send("drop", { name: b.dataset.drop }));
    for (const b of app.querySelectorAll("[data-back]")) b.addEventListener("click", () => send("players", { name: b.dataset.back }));
    for (const f of app.querySelectorAll("form.enter")) {
      f.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const order = [...f.querySelectorAll("select[data-place]")].map((s) => s.value);
        send("results", { round: Number(f.dataset.round), table: Number(f.dataset.table), order });
      });
    }
    for (const b of app.querySelectorAll("[data-switch]")) {
      b.addEventListener("click", () => send("tables", { round: Number(b.dataset.round), table: Number(b.dataset.table), mode: b.dataset.switch }));
    }
    for (const b of app.querySelectorAll("[data-copy]")) {
      b.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(b.dataset.copy); toast(t("web.club.link_copied", { name: b.dataset.name })); } catch { window.prompt(b.dataset.name, b.dataset.copy); }
      });
    }
    for (const b of app.querySelectorAll("[data-seat]")) {
      b.addEventListener("click", async () => {
        try {
          const joined = await api("POST", `/api/tournaments/${tn.id}/seat`, { round: Number(b.dataset.round), table: Number(b.dataset.table), name: b.dataset.seat });
          saveSeat(joined.table.id, joined);
          location.assign(`/?table=${joined.table.id}`);
        } catch (e) { toast(e.message); }
      });
    }
  };
  let tn;
  try { tn = await load(id); } catch (e) { notFound(app, e.message); return null; }
  last = JSON.stringify(tn);
  await draw(tn);
  // online tables report their results by themselves: follow them (a form being filled is left alone)
  setInterval(async () => {
    if (document.hidden || app.contains(document.activeElement) && document.activeElement.matches("input, select")) return;
    try {
      const next = await load(id);
      const text = JSON.stringify(next);
      if (text !== last) { last = text; tn = next; await draw(next); }
    } catch { /* the next poll tries again */ }
  }, POLL_MS * 2);
  return { relabel: async () => draw(JSON.parse(last)) };
}

/** /?projector=ID: big, read-only, refreshed by itself. */
export async function showProjector(app, id) {
  document.body.classList.add("projector");
  let last = null;
  const draw = (tn) => {
    const current = openRound(tn);
    const shown = tn.standings.slice(0, 24);
    const tables = current ? `<h2>${esc(t("web.club.round_n", { round: current.no }))}</h2><div class="ttables">` +
      current.tables.map((x) => `<article class="ttable${x.result ? " done" : ""}"><h3>${esc(t("web.club.table_n", { n: x.no }))}</h3>` +
        (x.result ? `<p class="result-line">${resultLine(x)}</p>` : `<ul class="seats">${x.seats.map((p) => `<li>${esc(p)}</li>`).join("")}</ul>`) + "</article>").join("") + "</div>"
      : `<h2>${esc(t(tn.finished ? "web.club.final" : "web.club.round_n", { round: tn.rounds.length + 1 }))}</h2><p class="note">${esc(t(tn.finished ? "web.club.thanks" : "web.club.not_drawn"))}</p>`;
    app.innerHTML = `<div class="projector-view"><h1>${esc(tn.name)}</h1>
      <section class="proj-standings"><h2>${esc(t("web.club.standings"))}</h2>${standingsHTML(shown, "big")}</section>
      <section class="proj-tables" id="proj-tables">${tables}</section>${potHTML(tn)}</div>`;
  };
  const tick = async () => {
    try { last = await load(id); draw(last); } catch (e) { if (!last) notFound(app, e.message); }
  };
  await tick();
  setInterval(() => { if (!document.hidden) tick(); }, POLL_MS);
  return { relabel: () => last && draw(last) };
}
