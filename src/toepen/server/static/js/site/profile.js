// A player's profile (/?player=NAME): ratings, figures, favourite rules, the rating
// graph (an SVG drawn here from GET /api/players/NAME) and the history of games with
// their replays and records (GET /api/players/NAME/history).
import { t, lang } from "../ui/i18n.js";
import { esc } from "../ui/util.js";
import { profileLink } from "./account.js";
import { api } from "../net/http.js";

const COLOURS = ["#1f6f43", "#b5442c", "#2b5d9b", "#8a6d0b"];

function date(iso) {
  try { return new Date(iso).toLocaleDateString(lang(), { year: "numeric", month: "short", day: "numeric" }); } catch { return iso; }
}

function presetName(preset) { return t(`preset.${preset}`); }

function family(r) { return `${presetName(r.preset)} · ${t("web.acct.size_n", { n: r.size })}`; }

function num(x, digits = 2) {
  return x === null || x === undefined ? "–" : Number(x).toLocaleString(lang(), { maximumFractionDigits: digits });
}

/** A share (0..1) as the page's language writes a percentage (CLDR, as Babel's format_percent:
 * "49 %" in German, "49%" in English), never a sign of its own. */
export function percent(x, language = lang()) {
  return Number(x).toLocaleString(language, { style: "percent", maximumFractionDigits: 0 });
}

/** The rating graph: one line per preset and table size, rating after each rated game. */
export function ratingGraph(name, points) {
  const W = 640, H = 260, L = 48, R = 16, T = 16, B = 36;
  const series = new Map();
  for (const p of points) {
    const key = `${p.preset}|${p.size}`;
    if (!series.has(key)) series.set(key, { preset: p.preset, size: p.size, pts: [] });
    series.get(key).pts.push(p);
  }
  const all = points.flatMap((p) => [p.rating, p.before]);
  let lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  const pad = (hi - lo) * 0.08 || 1;
  lo -= pad; hi += pad;
  const most = Math.max(1, ...[...series.values()].map((s) => s.pts.length));
  const x = (i) => L + (i * (W - L - R)) / most; // 0: before the first game
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const ticks = [];
  for (let k = 0; k <= 4; k++) {
    const v = lo + ((hi - lo) * k) / 4;
    ticks.push(`<line class="grid" x1="${L}" x2="${W - R}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/>` +
      `<text class="tick" x="${L - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${esc(num(v, 1))}</text>`);
  }
  const xt = [];
  const step = Math.max(1, Math.ceil(most / 8));
  for (let i = 0; i <= most; i += step) xt.push(`<text class="tick" x="${x(i).toFixed(1)}" y="${H - B + 16}" text-anchor="middle">${i}</text>`);
  let lines = "", legend = "", s = 0;
  for (const ser of series.values()) {
    const c = COLOURS[s % COLOURS.length];
    const pts = [[0, ser.pts[0].before], ...ser.pts.map((p, i) => [i + 1, p.rating])];
    lines += `<polyline class="series" fill="none" stroke="${c}" stroke-width="2.5" points="${pts.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ")}"/>`;
    lines += ser.pts.map((p, i) => `<circle class="point" cx="${x(i + 1).toFixed(1)}" cy="${y(p.rating).toFixed(1)}" r="4" fill="${c}"><title>${esc(t("web.acct.game_n", { n: i + 1 }))}: ${esc(num(p.rating))} (${esc(date(p.at))})</title></circle>`).join("");
    legend += `<g transform="translate(${L + 8 + s * 200},${T + 4})"><rect width="12" height="12" fill="${c}"/><text x="18" y="11">${esc(family(ser))}</text></g>`;
    s += 1;
  }
  return `<svg class="rating-graph" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("web.acct.graph_label", { name }))}" xmlns="http://www.w3.org/2000/svg">
    <title>${esc(t("web.acct.graph_label", { name }))}</title>
    ${ticks.join("")}${xt.join("")}
    <line class="axis" x1="${L}" x2="${L}" y1="${T}" y2="${H - B}"/><line class="axis" x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}"/>
    <text class="axis-label" x="${(L + W - R) / 2}" y="${H - 4}" text-anchor="middle">${esc(t("web.acct.games"))}</text>
    ${lines}${legend}</svg>`;
}

/** The profile page. */
export async function showProfile(app, name) {
  let p, games;
  try {
    [p, { games }] = await Promise.all([
      api("GET", `/api/players/${encodeURIComponent(name)}`),
      api("GET", `/api/players/${encodeURIComponent(name)}/history?limit=50`),
    ]);
  } catch (e) {
    const draw = () => {
      app.innerHTML = `<section class="panel notfound"><h1>${esc(e.message)}</h1><a class="button primary" href="/">${esc(t("web.back_to_lobby"))}</a></section>`;
    };
    draw();
    return { relabel: draw };
  }
  const draw = () => {
    const st = p.stats;
    const bluffs = st.knocks ? `${num(st.bluffs, 0)} / ${num(st.knocks, 0)} (${percent(st.bluff_rate)})` : "–";
    const fig = [
      ["web.acct.sessions", num(st.sessions, 0)], ["web.acct.won", num(st.won, 0)],
      ["web.acct.hands", num(st.hands, 0)], ["web.acct.hands_won", num(st.hands_won, 0)],
      ["web.acct.lives_per_hand", num(st.lives_lost_per_hand)], ["web.acct.knocks_per_hand", num(st.knocks_per_hand)],
      ["web.acct.bluffs", bluffs],
      ["web.acct.favourite", p.favourite ? `${family(p.favourite)} (${num(p.favourite.games, 0)})` : "–"],
    ];
    const ratings = p.ratings.length
      ? `<table class="acct-table" id="ratings"><thead><tr><th>${esc(t("web.acct.rules"))}</th><th>${esc(t("web.acct.rating"))}</th><th>${esc(t("web.acct.games"))}</th><th>${esc(t("web.acct.wins"))}</th></tr></thead><tbody>` +
        p.ratings.map((r) => `<tr><td><a href="/?page=leaderboard&preset=${encodeURIComponent(r.preset)}&size=${r.size}">${esc(family(r))}</a></td><td class="num">${esc(num(r.rating))}</td><td class="num">${r.games}</td><td class="num">${r.wins}</td></tr>`).join("") +
        `</tbody></table><p class="note">${esc(t("web.acct.rating_about"))}</p>`
      : `<p class="empty">${esc(t("web.acct.no_ratings"))}</p>`;
    const history = games.length
      ? `<table class="acct-table" id="history"><thead><tr><th>${esc(t("web.acct.when"))}</th><th>${esc(t("web.acct.rules"))}</th><th>${esc(t("web.acct.players"))}</th><th>${esc(t("web.acct.place"))}</th><th>${esc(t("web.acct.change"))}</th><th></th></tr></thead><tbody>` +
        games.map((g) => `<tr data-table="${esc(g.table)}"><td>${esc(date(g.at))}</td><td>${esc(family(g))} · ${esc(t(g.rated ? "web.acct.rated" : "web.acct.casual"))}</td>` +
          `<td>${g.players.map((n, i) => (i === g.seat ? `<strong>${esc(n)}</strong>` : esc(n))).join(", ")}</td>` +
          `<td class="num">${g.place}${g.won ? " ★" : ""}</td><td class="num">${g.rating_change === null ? "" : esc((g.rating_change > 0 ? "+" : "") + num(g.rating_change))}</td>` +
          `<td><a class="button small replay" href="${esc(g.replay)}">${esc(t("web.acct.replay"))}</a> <a class="button small record" href="${esc(g.record)}" download>${esc(t("web.acct.record"))}</a></td></tr>`).join("") +
        `</tbody></table>`
      : `<p class="empty">${esc(t("web.acct.no_games"))}</p>`;
    app.innerHTML = `<div class="acct-page profile" data-player="${esc(p.name)}">
      <section class="panel"><h1>${esc(p.name)}${p.kind === "bot" ? ` <span class="badge">${esc(t("web.acct.bot_profile"))}</span>` : ""}</h1>
        <p class="note">${esc(t("web.acct.since", { date: date(p.since) }))}</p>
        ${p.against_people ? `<p id="vs-people">${esc(t("web.acct.vs_people", { won: p.against_people.won, sessions: p.against_people.sessions }))}</p>` : ""}
      </section>
      <section class="panel"><h2>${esc(t("web.acct.graph"))}</h2>${p.graph.length ? ratingGraph(p.name, p.graph) : `<p class="empty">${esc(t("web.acct.no_ratings"))}</p>`}</section>
      <section class="panel"><h2>${esc(t("web.acct.ratings"))}</h2>${ratings}</section>
      <section class="panel"><h2>${esc(t("web.acct.figures"))}</h2><dl class="figures" id="figures">${fig.map(([k, v]) => `<dt>${esc(t(k))}</dt><dd>${esc(v)}</dd>`).join("")}</dl></section>
      <section class="panel wide"><h2>${esc(t("web.acct.history"))}</h2>${history}</section>
    </div>`;
  };
  draw();
  return { relabel: draw };
}

export { profileLink };
