// A table in one line, as the invite page, the waiting room and the lobby show it: the
// preset's name in the page's language (never its id), the table size and the free seats.
import { t, has } from "./i18n.js";
import { esc } from "./util.js";

/** A preset's name in the page's language (its id only for a preset the catalogs lack). */
export function presetName(preset) {
  return has(`preset.${preset}`) ? t(`preset.${preset}`) : String(preset || "");
}

/** How many seats of a table (the protocol's Table) are open. */
export function freeSeats(tb) {
  return tb.seats.filter((s) => s.kind === "open").length;
}

/** "Pub house rules · 4 players · Free seats: 1 of 4" (HTML, escaped). */
export function tableLine(tb) {
  const free = freeSeats(tb);
  const seats = tb.status !== "lobby" ? t("web.invite.started")
    : free ? t("web.invite.seats_free", { n: free, size: tb.size }) : t("web.invite.full");
  return `<span class="preset-name">${esc(presetName(tb.preset))}</span> · ` +
    `${esc(t("web.players_n", { n: tb.size }))} · <span class="free-seats" data-free="${free}">${esc(seats)}</span>`;
}

/** The mark beside a bot's name (a person may carry any name a bot might: the mark tells them apart). */
export function botMark() {
  const word = esc(t("web.bot_mark"));
  return `<span class="botmark" role="img" title="${word}" aria-label="${word}">\u{1F916}</span>`;
}
