// The table drawn from a view: seats around the felt, the trick, your hand, the buttons.
import { t, has, say, actionText, cardText, sortCards, suitSymbol, verbKey, verbKeys } from "../ui/i18n.js";
import { potText } from "../ui/pot.js";
import { cardSVG, backSVG } from "../ui/cards.js";
import { esc } from "../ui/util.js";
import { botMark } from "../ui/tableinfo.js";
import { botKind } from "../ui/levels.js";

/** Direction of a seat from the centre (cos, sin): the viewer at the bottom, clockwise.
 * The stylesheet turns it into a place (its radii differ between desktop and phone).
 * Written as data attributes that {@link placeSeats} makes the custom properties --c and
 * --s: the Content-Security-Policy allows no style attribute in markup. */
function dir(seat, me, n) {
  const rel = (seat - (me ?? 0) + n) % n;
  const a = Math.PI / 2 + (rel * 2 * Math.PI) / n;
  // (the felt's grid cell: rows and columns 1 to 3, from the direction; css/table.css)
  const cell = (x) => (x < -0.35 ? 1 : x > 0.35 ? 3 : 2);
  return `data-c="${Math.cos(a).toFixed(4)}" data-s="${Math.sin(a).toFixed(4)}" data-row="${cell(Math.sin(a))}" data-col="${cell(Math.cos(a))}"`;
}

/** The directions of {@link dir} as custom properties (through the CSSOM, which the CSP allows). */
function placeSeats(root) {
  for (const el of root.querySelectorAll("[data-c]")) {
    el.style.setProperty("--c", el.dataset.c);
    el.style.setProperty("--s", el.dataset.s);
  }
}

function knockedThisHand(view, seat) {
  return view.hand_actions.some((m) => m === `${seat} knock`);
}

function seatBox(view, table, s, me, opts) {
  const n = view.players.length;
  const info = table && table.seats ? table.seats[s] : null;
  const out = !view.in_session[s];
  const over = view.phase === "over";
  const folded = !out && !view.active[s] && !over;
  const toAct = view.to_act.includes(s);
  const badges = [];
  if (opts.lastTrick && opts.lastTrick.winner === s) badges.push(`<span class="badge took">${esc(t("web.took_trick"))}</span>`);
  if (view.dealer === s) badges.push(`<span class="badge dealer" title="${esc(t("web.dealer"))}">${esc(t("web.dealer_mark"))}</span>`);
  if (knockedThisHand(view, s)) badges.push(`<span class="badge knocked">${esc(t("web.knocked"))}</span>`);
  if (folded) badges.push(`<span class="badge folded">${esc(t("web.folded"))}</span>`);
  if (out) badges.push(`<span class="badge out">${esc(t("web.out"))}</span>`);
  if (view.winner === s) badges.push(`<span class="badge winner">${esc(t("web.winner"))}</span>`);
  if (view.teams && view.teams.length) badges.push(`<span class="badge team team-${view.teams[s]}">${esc(t("web.team", { n: view.teams[s] + 1 }))}</span>`);
  if (info && info.kind === "bot") badges.push(`<span class="badge bot">${esc(t("web.bot"))}: ${esc(botKind(info))}</span>`);
  if (info && info.standin) badges.push(`<span class="badge standin">${esc(t("web.standin"))}</span>`);
  if (info && info.fallback) badges.push(`<span class="badge standin" title="${esc(info.incident || "")}">${esc(t("web.fallback", { bot: info.fallback }))}</span>`);
  if (info && info.kind === "human" && !info.connected) badges.push(`<span class="badge away">${esc(t("web.away"))}</span>`);
  // the score of a rubber session, always on the table: rubbers won and rounds owed
  if (opts.rubbers) badges.push(`<span class="badge rubbers">${esc(t("web.rubbers_won_n", { n: view.rubbers_won[s] }))}</span>`);
  // pot toepen: how often this player bought back in (the standings say it as well)
  if (view.rebuys && view.rebuys[s]) badges.push(`<span class="badge rebuys">${esc(t("web.pot.bought_in", { n: view.rebuys[s] }))}</span>`);
  if (view.drinks && (view.drinks[s] || opts.rubbers)) badges.push(`<span class="badge drinks">${esc(t("web.drinks_n", { n: view.drinks[s] }))}</span>`);
  // (the trick just taken, still on the felt, is not shown twice)
  const onFelt = view.trick.length || !opts.lastTrick ? view.trick : opts.lastTrick.cards;
  const inTrick = new Set(onFelt.map(([ts, c]) => `${ts}${c}`));
  const played = view.played.filter(([ps, c]) => ps === s && !inTrick.has(`${ps}${c}`)).map(([, c]) => c);
  let cards = "";
  const shown = opts.hands && opts.hands[s];
  if (s !== me || opts.hands) {
    if (shown) {
      cards = sortCards(shown).map((c) => `<span class="mini face">${cardSVG(c)}</span>`).join("");
    } else {
      // a hand shown by a challenged armoede claim is public while its owner still holds it
      const playedBy = new Set(view.played.filter(([ps]) => ps === s).map(([, c]) => c));
      const known = view.revealed.filter((r) => r.seat === s && r.reason === "armoede")
        .flatMap((r) => r.cards).filter((c) => !playedBy.has(c)).slice(0, view.hand_sizes[s] || 0);
      const k = (view.hand_sizes[s] || 0) - known.length;
      cards = sortCards(known).map((c) => `<span class="mini face shown">${cardSVG(c)}</span>`).join("") +
        Array.from({ length: k }, () => `<span class="mini back">${backSVG("")}</span>`).join("");
    }
  }
  const playedHtml = played.map((c) => `<span class="mini face played">${cardSVG(c)}</span>`).join("");
  const name = `<span class="seatnum" aria-hidden="true">${s + 1}</span> ` + esc(view.players[s]) + (info && info.kind === "bot" ? ` ${botMark()}` : "") + (s === me ? ` <span class="you">(${esc(t("web.you"))})</span>` : "");
  // the lives left in hearts, or (count: points_up) the penalty points taken towards the limit
  const limit = opts.pointsLimit;
  const lives = out ? "" : limit
    ? `<span class="lives points"><span class="num">${esc(t("web.points_of", { n: Math.max(0, limit - view.lives[s]), limit }))}</span></span>`
    : `<span class="lives"><span class="hearts" aria-hidden="true">${"\u2665".repeat(Math.min(Math.max(view.lives[s], 0), 10))}</span><span class="num"> ${esc(t("web.lives", { n: view.lives[s] }))}</span></span>`;
  // a person's turn clock: the seconds before a bot plays for them (tablepage ticks it)
  const clock = opts.clock && opts.clock.seat === s
    ? `<span class="clock" data-clock="${s}" title="${esc(t("web.clock_title"))}"></span>` : "";
  const cls = ["seat", toAct ? "to-act" : "", folded ? "folded" : "", out ? "out" : "", s === me ? "me" : "", opts.knockSeat === s ? "knock-anim" : ""].join(" ");
  return `<div class="${cls}" data-seat="${s}" ${dir(s, me, n)} ${toAct ? 'aria-current="true"' : ""}>` +
    `<div class="seat-name" title="${esc(view.players[s])}">${name}</div><div class="seat-lives">${lives}${clock}</div>` +
    `<div class="badges">${badges.join("")}</div>` +
    `<div class="seat-cards" aria-label="${esc(t("web.cards_n", { n: view.hand_sizes[s] || 0 }))}">${cards}</div>` +
    (playedHtml ? `<div class="seat-played" aria-label="${esc(t("web.played"))}">${playedHtml}</div>` : "") +
    `</div>`;
}

/** The pot's currency sign, from the table's rules (``rules_full.pot_unit``). */
function potUnit(table) {
  return (table && table.rules_full && table.rules_full.pot_unit) || "";
}

/**
 * Draw the board.
 * opts: {me: seat|null, table, hands (all hands, replay only), pending, hint, onAction, animate: {plays:Set, knock:seat},
 *   prompt: the server's words for this seat's decision (the state message's prompt, {id, params}),
 *   rubbers: the rules play rubbers (the rubber number and rubbers won are shown),
 *   pointsLimit: the rules count penalty points up to this limit (scoresheet.pointsLimit)}
 */
export function renderBoard(root, view, opts) {
  const me = opts.me;
  const n = view.players.length;
  const seats = view.players.map((_, s) => seatBox(view, opts.table, s, me, opts)).join("");
  let trick = view.trick.map(([s, c]) => {
    const anim = opts.animate && opts.animate.plays.has(`${s}${c}`) ? " enter" : "";
    return `<div class="trick-card${anim}" data-card="${c}" ${dir(s, me, n)}>${cardSVG(c)}</div>`;
  }).join("");
  if (!trick && opts.lastTrick) {
    // the trick just taken stays until the next card: who played what, the winner's card marked
    const lt = opts.lastTrick;
    trick = lt.cards.map(([s, c]) => `<div class="trick-card taken${s === lt.winner ? " winning" : ""}" data-card="${c}" data-seat="${s}" ${dir(s, me, n)}>${cardSVG(c)}</div>`).join("") +
      "";
  }
  const centre = `<div class="centre"><div class="stake" aria-label="${esc(t("web.stake", { n: view.stake }))}">${esc(t("web.stake", { n: view.stake }))}</div>` +
    `<div class="handno">${esc(t("web.hand_no", { n: view.hand_no }))}</div>` +
    // pot toepen: the pot on the table (the server's sum of the stakes and the buy-ins)
    (view.pot ? `<div class="pot" data-cents="${esc(String(view.pot))}">${esc(potText(view.pot, potUnit(opts.table)))}</div>` : "") +
    (opts.rubbers ? `<div class="rubberno">${esc(t("web.rubber_no", { n: view.rubber_no }))}</div>` : "") +
    // the suit led binds even when the card that led it left the table (its player folded)
    (view.led_suit ? `<div class="led-suit" data-suit="${esc(view.led_suit)}">${esc(t("screen.led_suit", { suit: `${t(`suit.${view.led_suit}`)} ${suitSymbol(`7${view.led_suit}`)}` }))}</div>` : "") +
    (!view.trick.length && opts.lastTrick ? `<div class="trick-taken" role="status">${esc(say(opts.lastTrick.say, opts.lastTrick.names) || "")}</div>` : "") +
    `</div>`;
  const myTurn = me !== null && me !== undefined && view.to_act.includes(me) && !opts.readonly;
  const legal = myTurn ? view.legal : [];
  const legalPlays = new Set(legal.filter((a) => a.startsWith("play ")).map((a) => a.slice(5)));
  let prompt;
  if (view.phase === "over") {
    prompt = view.winner !== null ? t("web.game_over_winner", { name: view.players[view.winner] }) : t("phase.over");
  } else if (myTurn) {
    // what the server says this seat must decide (narration.turn_prompt: only its legal moves)
    prompt = `${t("web.your_turn")} ${say(opts.prompt, view.players) || ""}`.trim();
  } else {
    const names = view.to_act.map((s) => view.players[s]).join(", ");
    prompt = names ? t("web.waiting_for", { names }) : "";
  }
  const verbs = legal.filter((a) => !a.startsWith("play "));
  const buttons = verbs.map((a) => {
    const hinted = opts.hint === a ? " hinted" : "";
    // a verb that means something else in this phase (rebuy: stay buys back in, pass stays out)
    const label = has(`act.${view.phase}.${a}`) ? t(`act.${view.phase}.${a}`) : actionText(a);
    return `<button class="big act act-${a}${hinted}" data-action="${a}" ${opts.pending ? "disabled" : ""} aria-keyshortcuts="${verbKey(a)}">` +
      `${esc(label)} <kbd>${verbKey(a).toUpperCase()}</kbd></button>`;
  }).join("");
  // the rebuy round, to the player who is out: what buying in means, the lives it brings back
  // and the pot it plays for (the buttons are the view's legal actions, as everywhere)
  const offer = myTurn && view.phase === "rebuy"
    ? `<div class="rebuy-offer" role="note"><p class="rebuy-guide">${esc(t("web.guide.rebuy"))}</p>` +
      `<p class="rebuy-lives">${esc(t("web.pot.rebuy_lives", { n: view.rebuy_lives }))}` +
      (view.pot ? ` <span class="rebuy-pot">${esc(potText(view.pot, potUnit(opts.table)))}</span>` : "") + `</p></div>`
    : "";
  const hand = me !== null && me !== undefined ? view.hand : [];
  const handHtml = hand.map((c, i) => {
    const ok = legalPlays.has(c);
    const hinted = opts.hint === `play ${c}` ? " hinted" : "";
    const label = ok ? actionText(`play ${c}`) : cardText(c);
    return `<button class="card${ok ? " playable" : ""}${hinted}" data-action="play ${c}" data-card="${c}" ${ok && !opts.pending ? "" : "disabled"} aria-label="${esc(label)}" aria-keyshortcuts="${i + 1}">` +
      `${cardSVG(c)}${ok ? `<kbd>${i + 1}</kbd>` : ""}</button>`;
  }).join("");
  const hintBtn = myTurn && opts.hintAvailable ? `<button class="hint" data-hint="1" aria-keyshortcuts="h">${esc(t("web.hint"))} <kbd>H</kbd></button>` : "";
  root.innerHTML =
    `<div class="felt" role="region" aria-label="${esc(t("web.table"))}">${seats}<div class="trick">${trick}</div>${centre}</div>` +
    `<div class="prompt${myTurn ? " mine" : ""}" role="status" aria-live="polite"><span class="prompt-text">${esc(prompt)}</span>` +
    `<span class="subline">${esc(opts.subline || "")}</span></div>` +
    offer + `<div class="actions">${buttons}${hintBtn}</div>` +
    // always there for a player (empty when you hold no cards), so that nothing moves between clicks
    (me !== null && me !== undefined ? `<div class="hand" role="group" aria-label="${esc(t("web.your_hand"))}">${handHtml}</div>` : "");
  placeSeats(root);
  for (const b of root.querySelectorAll("[data-action]")) {
    b.addEventListener("click", () => { if (!b.disabled && opts.onAction) opts.onAction(b.dataset.action); });
  }
  const hb = root.querySelector("[data-hint]");
  if (hb && opts.onHint) hb.addEventListener("click", () => opts.onHint());
}

/** Keyboard shortcuts for the board: 1..n plays the n-th card, letters the verbs, H a hint. */
export function boardKey(ev, view, me, onAction, onHint) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
  const tag = (ev.target && ev.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return false;
  if (!view || me === null || me === undefined || !view.to_act.includes(me)) return false;
  const k = ev.key.toLowerCase();
  if (/^[1-9]$/.test(k)) {
    const card = view.hand[Number(k) - 1];
    if (card && view.legal.includes(`play ${card}`)) { onAction(`play ${card}`); return true; }
    return false;
  }
  for (const [verb, key] of verbKeys()) {
    if (k === key && view.legal.includes(verb)) { onAction(verb); return true; }
  }
  if (k === "h" && onHint) { onHint(); return true; }
  return false;
}
