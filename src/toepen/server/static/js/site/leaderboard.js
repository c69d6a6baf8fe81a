// The leaderboard (/?page=leaderboard&preset=P&size=N): ratings of one preset and table
// size, best first (GET /api/leaderboard); people and bots alike.
import { t, lang } from "../ui/i18n.js";
import { esc } from "../ui/util.js";
import { profileLink } from "./account.js";
import { api, presets } from "../net/http.js";
import { presetName } from "../ui/tableinfo.js";

export async function showLeaderboard(app) {
  const q = new URLSearchParams(location.search);
  let meta = { presets: [], sizes: [] };
  try { meta = await presets(); } catch { /* the board still shows */ }
  const first = meta.presets[0] || { name: "", sizes: [4] };
  let preset = q.get("preset") || "";
  let size = Number(q.get("size")) || 0;
  let board = { players: [], boards: [] };
  // no board asked for: the server picks one (the board of your latest rated game, else the busiest)
  const load = async () => {
    const query = preset || size ? `?preset=${encodeURIComponent(preset || first.name)}&size=${size || 4}` : "";
    try {
      board = await api("GET", `/api/leaderboard${query}`);
      preset = board.preset; size = board.size;
    } catch (e) { board = { players: [], boards: [], error: e.message }; preset ||= first.name; size ||= 4; }
  };
  await load();
  const draw = () => {
    const chosen = meta.presets.find((p) => p.name === preset);
    const sizes = chosen ? chosen.sizes : meta.sizes;
    const fmt = (x) => Number(x).toLocaleString(lang(), { maximumFractionDigits: 2 });
    app.innerHTML = `<section class="panel acct-page leaderboard">
      <h1>${esc(t("web.acct.leaderboard"))}</h1>
      <h2 id="lb-shown">${esc(t("web.acct.board_shown", { preset: presetName(preset), n: size }))}</h2>
      <form id="lb-form" class="row">
        <label>${esc(t("web.preset"))} <select id="lb-preset">${meta.presets.map((p) => `<option value="${esc(p.name)}"${p.name === preset ? " selected" : ""}>${esc(t(p.label))}</option>`).join("")}</select></label>
        <label>${esc(t("web.size"))} <select id="lb-size">${sizes.map((n) => `<option${n === size ? " selected" : ""}>${n}</option>`).join("")}</select></label>
      </form>
      ${board.boards.length ? `<p class="note boards">${board.boards.map((b) => `<a href="/?page=leaderboard&preset=${encodeURIComponent(b.preset)}&size=${b.size}">${esc(t(`preset.${b.preset}`))} · ${esc(t("web.acct.size_n", { n: b.size }))} (${b.players})</a>`).join(" · ")}</p>` : ""}
      ${board.players.length ? `<table class="acct-table" id="board"><thead><tr><th>${esc(t("web.acct.rank"))}</th><th>${esc(t("web.acct.name"))}</th><th>${esc(t("web.acct.rating"))}</th><th>${esc(t("web.acct.games"))}</th><th>${esc(t("web.acct.wins"))}</th></tr></thead><tbody>` +
        board.players.map((p) => `<tr data-name="${esc(p.name)}"><td class="num">${p.rank}</td><td><a href="${esc(profileLink(p.name))}">${esc(p.name)}</a>${p.kind === "bot" ? ` <span class="badge">${esc(t("web.acct.bot_profile"))}</span>` : ""}</td><td class="num">${esc(fmt(p.rating))}</td><td class="num">${p.games}</td><td class="num">${p.wins}</td></tr>`).join("") +
        `</tbody></table><p class="note">${esc(t("web.acct.rating_about"))}</p>`
        : `<p class="empty">${esc(board.error || t("web.acct.empty_board"))}</p>`}
    </section>`;
    const go = () => {
      preset = app.querySelector("#lb-preset").value;
      size = Number(app.querySelector("#lb-size").value);
      const p = meta.presets.find((x) => x.name === preset);
      if (p && !p.sizes.includes(size)) size = p.sizes.includes(4) ? 4 : p.sizes[0];
      history.replaceState(null, "", `/?page=leaderboard&preset=${encodeURIComponent(preset)}&size=${size}`);
      load().then(draw);
    };
    app.querySelector("#lb-preset").addEventListener("change", go);
    app.querySelector("#lb-size").addEventListener("change", go);
  };
  draw();
  return { relabel: draw };
}
