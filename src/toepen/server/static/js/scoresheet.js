// The session's score sheet in the pub's tally style: one stroke per life lost,
// every fifth stroke across the four before it.
import { t } from "./i18n.js";
import { esc } from "./util.js";

/**
 * The lives every player starts a session (or rubber) with: the rules' JSON (a preset's
 * name, or {preset, ...options}) read with the presets of GET /api/presets; undefined
 * where they do not say.
 */
export function startLives(rules, meta) {
  if (rules && typeof rules === "object" && typeof rules.lives === "number") return rules.lives;
  const name = typeof rules === "string" ? rules : rules && rules.preset;
  const preset = meta && meta.presets ? meta.presets.find((p) => p.name === name) : null;
  return preset ? preset.lives : undefined;
}

/** One option of the rules' JSON: its own value, else its preset's (GET /api/presets);
 * undefined where they do not say. */
export function ruleOption(rules, meta, option) {
  if (rules && typeof rules === "object" && rules[option] !== undefined) return rules[option];
  const name = typeof rules === "string" ? rules : rules && rules.preset;
  const preset = meta && meta.presets ? meta.presets.find((p) => p.name === name) : null;
  return preset ? preset.rules[option] : undefined;
}

/** The rules' session kind ("elimination" or "rubber"), read like startLives; undefined where unknown. */
export function sessionKind(rules, meta) {
  const kind = ruleOption(rules, meta, "session");
  return typeof kind === "string" ? kind : undefined;
}

/**
 * Where the sheet counts penalty points up (the option ``count: points_up``): the limit,
 * the lives a player starts with (a player's points are the start less the lives left);
 * null where it counts lives down or the rules do not say (yet).
 */
export function pointsLimit(rules, meta) {
  if (ruleOption(rules, meta, "count") !== "points_up") return null;
  return startLives(rules, meta) ?? null;
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
        : `<td class="strokes">${tallySVG(strokes[s])}<span class="num">${strokes[s]}</span></td>`) +
      (showRubbers ? `<td>${view.rubbers_won[s]}</td>` : "") +
      (showDrinks ? `<td>${view.drinks[s]}</td>` : "") + `</tr>`;
  }).join("");
  return `<table class="scoresheet" data-count="${points ? "points" : "lives"}"><caption>${esc(t("web.score_sheet"))}</caption>` +
    `<thead><tr><th scope="col">${esc(t("web.player"))}</th><th scope="col">${esc(t(points ? "web.penalty_points" : "web.lives_lost"))}</th>` +
    (showRubbers ? `<th scope="col">${esc(t("web.rubbers"))}</th>` : "") +
    (showDrinks ? `<th scope="col">${esc(t("web.drinks"))}</th>` : "") +
    `</tr></thead><tbody>${rows}</tbody></table>`;
}
