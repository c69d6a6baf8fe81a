// The session's score sheet in the pub's tally style: one stroke per life lost,
// every fifth stroke across the four before it.
import { t } from "./i18n.js";
import { esc } from "./util.js";

/**
 * Where the sheet counts penalty points up (the option ``count: points_up``): the limit,
 * the lives a player starts with; null where it counts lives down or the table is not
 * known yet. ``full``: the table's rules with every option resolved by the server
 * (``table.rules_full``, as ``GET /api/presets`` gives a preset's ``rules``).
 */
export function pointsLimit(full) {
  return full && full.count === "points_up" ? full.lives : null;
}

/** Strokes as an SVG: groups of five (four upright, the fifth across). */
export function tallySVG(strokes) {
  const groups = Math.ceil(strokes / 5);
  const w = Math.max(groups * 34, 4);
  let body = "";
  for (let g = 0; g < groups; g++) {
    const inGroup = Math.min(5, strokes - g * 5);
    const x0 = g * 34 + 4;
    for (let i = 0; i < Math.min(inGroup, 4); i++) {
      const x = x0 + i * 6;
      body += `<line x1="${x}" y1="4" x2="${x + 1}" y2="24"/>`;
    }
    if (inGroup === 5) body += `<line x1="${x0 - 3}" y1="20" x2="${x0 + 22}" y2="7"/>`;
  }
  return `<svg class="tally" viewBox="0 0 ${w} 28" width="${w}" height="28" role="img" aria-label="${t("web.strokes", { n: strokes })}" ` +
    `stroke="currentColor" stroke-width="2.2" stroke-linecap="round">${body}</svg>`;
}

/** The score sheet as an HTML table, a row per seat in the server's finishing order
 * (``view.places``): lives lost in strokes, or (``points``: the rules count penalty
 * points up) the penalty points taken, as numbers. The lives each seat lost over the
 * whole session are the server's (``view.lives_lost``, the engine's). */
export function scoreSheetHTML(view, points = false) {
  const strokes = view.lives_lost;
  const showDrinks = view.drinks.some((d) => d > 0);
  const showRubbers = view.rubbers_won.some((r) => r > 0);
  // the rows in the engine's finishing order (view.places), as the standings above
  const placeOf = {};
  for (const p of view.places) for (const s of p.seats) placeOf[s] = p.place;
  const order = view.places.flatMap((p) => p.seats);
  const rows = order.map((s) => {
    const mark = view.winner === s ? ` <span class="badge winner">${esc(t("web.winner"))}</span>` : "";
    return `<tr data-seat="${s}" data-place="${placeOf[s]}"><th scope="row">${esc(view.players[s])}${mark}</th>` +
      (points ? `<td class="points"><span class="num">${strokes[s]}</span></td>`
        : `<td class="strokes"><span class="num">${strokes[s]}</span>${tallySVG(strokes[s])}</td>`) +
      (showRubbers ? `<td>${view.rubbers_won[s]}</td>` : "") +
      (showDrinks ? `<td>${view.drinks[s]}</td>` : "") + `</tr>`;
  }).join("");
  return `<table class="scoresheet" data-count="${points ? "points" : "lives"}"><caption>${esc(t("web.score_sheet"))}</caption>` +
    `<thead><tr><th scope="col">${esc(t("web.player"))}</th><th scope="col">${esc(t(points ? "web.penalty_points" : "web.lives_lost"))}</th>` +
    (showRubbers ? `<th scope="col">${esc(t("web.rubbers"))}</th>` : "") +
    (showDrinks ? `<th scope="col">${esc(t("web.drinks"))}</th>` : "") +
    `</tr></thead><tbody>${rows}</tbody></table>`;
}
