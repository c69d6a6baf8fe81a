// Events in words: the same message ids as the terminal client (toepen/tui/narrate.py).
import { t, cardText, sortCards } from "./i18n.js";

const PASS = { claim: "log.pass.claim", exchange: "log.pass.exchange", challenge: "log.pass.challenge" };
const CLAIM_RESULT = { genuine: "log.claim.genuine", false: "log.claim.false", unchallenged: "log.claim.unchallenged" };
const EXCHANGE_RESULT = { caught: "log.exchange.caught", clean: "log.exchange.clean", unchallenged: "log.exchange.unchallenged" };
const HAND_RESULT = { loses: "log.hand_result.loses", wins: "log.hand_result.wins", folded: "log.hand_result.folded" };
const LIVES = { stake: "log.lives.stake", armoede: "log.lives.armoede", exchange: "log.lives.exchange" };

const cardsText = (cards) => sortCards(cards).map(cardText).join(" ");

/** One (redacted) event in words, or null for events not worth a line. */
export function narrate(e, names, me) {
  const who = e.seat >= 0 && e.seat < names.length ? names[e.seat] : "";
  switch (e.kind) {
    case "deal": return t("log.deal", { hand: e.value, name: who });
    case "redeal": return t("log.redeal", { name: who });
    case "hand": return e.seat === me && e.cards.length ? t("log.hand", { cards: cardsText(e.cards) }) : null;
    case "draw": return e.seat === me && e.cards.length ? t("log.draw", { cards: cardsText(e.cards) }) : null;
    case "tell": return t(e.value === 3 ? "log.tell.whistle" : "log.tell.stand",
      { name: who, rank: t(e.detail === "jacks" ? "rank.jacks" : "rank.tens") });
    case "claim": return t("log.claim", { name: who });
    case "exchange": return t("log.exchange", { name: who, n: e.value });
    case "challenge": return t("log.challenge", { name: who, target: names[e.value] ?? "" });
    case "pass": return t(PASS[e.detail] || PASS.claim, { name: who });
    case "reveal": return t("log.reveal", { name: who, cards: cardsText(e.cards) });
    case "claim_result": return t(CLAIM_RESULT[e.detail] || CLAIM_RESULT.false, { name: who });
    case "exchange_result": return t(EXCHANGE_RESULT[e.detail] || EXCHANGE_RESULT.clean, { name: who });
    case "pelt": return t("log.pelt", { name: who, stake: e.value });
    case "knock": return t("log.knock", { name: who, stake: e.value });
    case "stay": return t("log.stay", { name: who, stake: e.value });
    case "fold": return t("log.fold", { name: who, n: e.value });
    case "play": return e.cards.length ? t("log.play", { name: who, card: cardText(e.cards[0]) }) : null;
    case "trick": return t("log.trick", { name: who, n: e.value });
    case "lives": return e.detail === "fold" ? null : t(LIVES[e.detail] || LIVES.stake, { name: who, n: e.value });
    case "eliminated": return t("log.eliminated", { name: who });
    case "hand_result": return t(HAND_RESULT[e.detail] || HAND_RESULT.loses, { name: who, stake: e.value });
    case "rubber": return e.seat < 0 ? t("log.rubber_shared", { n: e.value }) : t("log.rubber", { n: e.value, name: who });
    case "drinks": return t("log.drinks", { name: who, n: e.value });
    case "toepkoning": return t("log.toepkoning", { name: who });
    case "sudden_death": return t("log.sudden_death", { names: names.filter((_, s) => (e.value >> s) & 1).join(", ") });
    case "session_result": return t("log.session_result", { name: who });
    default: return null;
  }
}

/** Who the current decision is about (the knocker, claimer or exchanger), for phase texts. */
export function targetName(view) {
  let seat = -1;
  if (view.phase === "answer") seat = view.last_knocker;
  else if (view.phase === "claim_challenge" || view.phase === "exchange_challenge") {
    const verb = view.phase === "claim_challenge" ? "claim" : "exchange";
    for (let i = view.hand_actions.length - 1; i >= 0; i--) {
      const [s, a] = view.hand_actions[i].split(" ");
      if (a === verb) { seat = Number(s); break; }
    }
  }
  return seat >= 0 ? view.players[seat] : "";
}

/** What the seat to act must decide, in words. */
export function phaseText(view) {
  return t(`phase.${view.phase}`, { name: targetName(view) });
}
