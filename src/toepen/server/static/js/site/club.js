// Clubs: the list of clubs with forms for a new club and a tournament without a club, and
// a club's page (house rules, members, tournaments, the season's standings). Every check
// is the server's; its refusals come with a catalog message (say) shown in the language.
import { t, translateStatic } from "../ui/i18n.js";
import { toast, savedName } from "../table/lobby.js";
import { esc } from "../ui/util.js";
import { api, presets } from "../net/http.js";
import { followPresetLives } from "../ui/options.js";
import { qrFigure } from "../ui/pwa.js";

/** The admin and organiser keys this browser holds, by "club:ID" / "tournament:ID". */
export function keyOf(what) {
  try { return JSON.parse(localStorage.getItem("toepen.keys") || "{}")[what] || null; } catch { return null; }
}
export function saveKey(what, key) {
  const all = JSON.parse(localStorage.getItem("toepen.keys") || "{}");
  all[what] = key;
  localStorage.setItem("toepen.keys", JSON.stringify(all));
}

/** The server's scheme of this name and these points (GET /api/presets: schemes), if any. */
function knownScheme(scheme, schemes) {
  return (schemes || []).find((s) => s.name === scheme.name && s.points.join("-") === scheme.points.join("-"));
}

/** A scheme in words: its label where it is one of the server's schemes, else its name and points. */
export function schemeName(scheme, schemes) {
  const known = knownScheme(scheme, schemes);
  return known ? t(known.label) : `${scheme.name} (${scheme.points.join("-")})`;
}

/** The standings as a table: place, player, points, wins, opponents' points, tables played. */
export function standingsHTML(rows, extra = "") {
  if (!rows.length) return `<p class="note">${esc(t("web.club.no_results"))}</p>`;
  return `<table class="standings ${extra}"><thead><tr><th>#</th><th>${esc(t("web.player"))}</th>` +
    `<th>${esc(t("web.club.points"))}</th><th>${esc(t("web.club.wins"))}</th>` +
    `<th>${esc(t("web.club.opponents"))}</th><th>${esc(t("web.club.played"))}</th></tr></thead><tbody>` +
    rows.map((r) => `<tr${r.active === false ? ' class="gone"' : ""}><td>${r.place}</td><td>${esc(r.player)}</td>` +
      `<td class="num">${r.points}</td><td class="num">${r.wins}</td><td class="num">${r.opponents}</td><td class="num">${r.played}</td></tr>`).join("") +
    "</tbody></table>";
}

function presetSelect(meta, id) {
  return `<select id="${id}">` + meta.presets.filter((p) => p.name !== "teams")
    .map((p) => `<option value="${esc(p.name)}">${esc(t(p.label))}</option>`).join("") + "</select>";
}

function schemeSelect(meta, id) {
  return `<select id="${id}">` + (meta.schemes || []).map((s) => `<option value="${esc(s.name)}">${esc(t(s.label))}</option>`).join("") + "</select>";
}

/** A house-rule set's name as this page says it: one of its own, else "house rules" in the
 * page's language (also for clubs stored with the server's former English default). */
export function houseName(name) {
  return name && name !== "house rules" ? name : t("web.club.house_rules_default");
}

/** The house-rule fields of a form as the API's {name, preset, options}. */
function houseRules(form, prefix) {
  const options = {};
  const lives = form.querySelector(`#${prefix}-lives`).value;
  if (lives !== "") options.lives = Number(lives);
  // left empty: no name of its own, each page says "house rules" in its reader's language
  return { name: form.querySelector(`#${prefix}-rules-name`).value.trim(),
    preset: form.querySelector(`#${prefix}-preset`).value, options };
}

function rulesFields(meta, prefix) {
  return `<label><span>${esc(t("web.club.house_rules_name"))}</span> <input id="${prefix}-rules-name" maxlength="60" placeholder="${esc(t("web.club.house_rules_default"))}"></label>
    <label><span>${esc(t("web.preset"))}</span> ${presetSelect(meta, `${prefix}-preset`)}</label>
    <label><span>${esc(t("web.club.lives"))}</span> <input id="${prefix}-lives" type="number" min="1" max="99"></label>
    <label><span>${esc(t("web.club.scheme"))}</span> ${schemeSelect(meta, `${prefix}-scheme`)}</label>`;
}

/** A key shown once, to keep. */
function showKey(key) {
  return `<p class="keynote" role="status">${esc(t("web.club.key_once"))} <code class="key">${esc(key)}</code></p>`;
}

/** /?clubs: every club, a new club, a tournament without a club. */
export async function showClubs(app) {
  let meta = { presets: [] };
  try { meta = await presets(); } catch (e) { toast(e.message); }
  const draw = async () => {
    let clubs = [];
    try { clubs = (await api("GET", "/api/clubs")).clubs; } catch (e) { toast(e.message); }
    app.innerHTML = `<div class="clubs">
      <section class="panel"><h1>${esc(t("web.club.clubs"))}</h1>
        <ul class="tables" id="club-list">${clubs.length ? clubs.map((c) => `<li><a href="/?club=${esc(c.id)}">${esc(c.name)}</a></li>`).join("")
          : `<li class="empty">${esc(t("web.club.no_clubs"))}</li>`}</ul></section>
      <section class="panel"><h2>${esc(t("web.club.new_tournament"))}</h2>
        <p class="note">${esc(t("web.club.evening_about"))}</p>
        <form id="tourney-form">
          <label><span>${esc(t("web.club.tournament_name"))}</span> <input id="tn-name" required maxlength="60"></label>
          ${rulesFields(meta, "tn")}
          <button class="big primary" type="submit" id="tn-create">${esc(t("web.club.create_tournament"))}</button>
        </form></section>
      <section class="panel"><h2>${esc(t("web.club.new_club"))}</h2>
        <form id="club-form">
          <label><span>${esc(t("web.club.club_name"))}</span> <input id="cl-name" required maxlength="60"></label>
          <label><span>${esc(t("web.your_name"))}</span> <input id="cl-admin" required autocomplete="nickname"></label>
          ${rulesFields(meta, "cl")}
          <button class="big" type="submit" id="cl-create">${esc(t("web.club.create_club"))}</button>
        </form></section>
    </div>`;
    followPresetLives(app, meta);
    app.querySelector("#cl-admin").value = savedName();
    app.querySelector("#club-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const form = ev.target;
      try {
        const made = await api("POST", "/api/clubs", { name: form.querySelector("#cl-name").value.trim(),
          admin: form.querySelector("#cl-admin").value.trim(), house_rules: houseRules(form, "cl"),
          scheme: form.querySelector("#cl-scheme").value });
        saveKey(`club:${made.club.id}`, made.key);
        sessionStorage.setItem("toepen.newkey", made.key);
        location.assign(`/?club=${made.club.id}`);
      } catch (e) { toast(e.message); }
    });
    app.querySelector("#tourney-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const form = ev.target;
      try {
        const made = await api("POST", "/api/tournaments", { name: form.querySelector("#tn-name").value.trim(),
          house_rules: houseRules(form, "tn"), scheme: form.querySelector("#tn-scheme").value });
        saveKey(`tournament:${made.tournament.id}`, made.key);
        sessionStorage.setItem("toepen.newkey", made.key);
        location.assign(`/?tournament=${made.tournament.id}`);
      } catch (e) { toast(e.message); }
    });
  };
  await draw();
  return { relabel: draw };
}

/** A key just made (shown on the page it leads to, once). */
export function freshKey() {
  const key = sessionStorage.getItem("toepen.newkey");
  sessionStorage.removeItem("toepen.newkey");
  return key;
}

/** /?club=ID: the club's page. */
export async function showClub(app, clubId) {
  let season = null;
  let meta = { presets: [] };
  try { meta = await presets(); } catch (e) { toast(e.message); }
  const fresh = freshKey();
  const draw = async () => {
    let club;
    try { club = await api("GET", `/api/clubs/${encodeURIComponent(clubId)}${season ? `?season=${encodeURIComponent(season)}` : ""}`); } catch (e) {
      app.innerHTML = `<section class="panel notfound"><h1>${esc(e.message)}</h1><a class="button" href="/?clubs">${esc(t("web.club.clubs"))}</a></section>`;
      return;
    }
    const key = keyOf(`club:${club.id}`);
    const manage = key || club.you_admin; // a key here, or logged in as an admin
    const preset = t(`preset.${club.house_rules.preset}`);
    const lives = typeof club.house_rules.rules === "object" && club.house_rules.rules.lives;
    app.innerHTML = `<div class="clubpage">
      <section class="panel"><h1 id="club-name">${esc(club.name)}</h1>
        ${fresh ? showKey(fresh) : ""}
        <p>${esc(t("web.club.house_rules"))}: <b>${esc(houseName(club.house_rules.name))}</b> (${esc(preset)}${lives ? `, ${esc(t("web.lives", { n: lives }))}` : ""}) · ${esc(t("web.club.scheme"))}: ${esc(schemeName(club.scheme, meta.schemes))}</p>
        <label>${esc(t("web.club.season"))} <select id="season">${club.seasons.map((s) => `<option${s === club.season ? " selected" : ""}>${esc(s)}</option>`).join("")}</select></label>
        <h2>${esc(t("web.club.season_standings", { season: club.season }))}</h2>
        ${standingsHTML(club.standings)}
        <p class="note">${esc(t("web.club.tie_breaks"))}</p>
        ${manage ? `<details id="rules-box"><summary>${esc(t("web.club.change_rules"))}</summary><form id="club-rules">${rulesFields(meta, "cr")}
          <button type="submit" id="cr-save">${esc(t("web.club.save_rules"))}</button></form></details>` : ""}</section>
      <section class="panel"><h2>${esc(t("web.club.tournaments"))}</h2>
        <ul class="tables">${club.tournaments.map((x) => `<li><a href="/?tournament=${esc(x.id)}">${esc(x.name)}</a> <span>${esc(x.season)}</span> <span class="badge">${esc(t(`web.club.status.${x.status === "over" ? "over" : "open"}`))}</span></li>`).join("") || `<li class="empty">${esc(t("web.club.no_tournaments"))}</li>`}</ul>
        ${manage ? `<form id="new-tournament" class="row"><label>${esc(t("web.club.tournament_name"))} <input id="nt-name" required maxlength="60"></label>
          <button class="primary" type="submit">${esc(t("web.club.create_tournament"))}</button></form>` : ""}</section>
      <section class="panel"><h2>${esc(t("web.club.members"))}</h2>
        <ul class="tables" id="members">${club.members.map((m) => `<li><span>${esc(m.name)}</span>${m.admin ? ` <span class="badge">${esc(t("web.club.admin"))}</span>` : ""}${m.account ? ` <span class="badge account">${esc(t("web.club.account", { name: m.account }))}</span>` : ""}` +
          (manage ? ` <button class="small" data-remove="${esc(m.id)}">${esc(t("web.remove"))}</button>` : "") + "</li>").join("")}</ul>
        ${manage ? `<form id="add-member" class="row"><label>${esc(t("web.club.member_name"))} <input id="am-name"></label>
          <label>${esc(t("web.club.member_account"))} <input id="am-account" autocomplete="off"></label>
          <label class="check"><input type="checkbox" id="am-admin"> ${esc(t("web.club.admin"))}</label>
          <button type="submit">${esc(t("web.club.add_member"))}</button></form><div id="member-key"></div>`
          : `<details><summary>${esc(t("web.club.i_am_admin"))}</summary><form id="enter-key" class="row"><input id="ek" required autocomplete="off" aria-label="${esc(t("web.club.key"))}"><button type="submit">${esc(t("web.club.use_key"))}</button></form></details>`}
      </section></div>`;
    followPresetLives(app, meta);
    app.querySelector("#season").addEventListener("change", (ev) => { season = ev.target.value; draw(); });
    const q = (s) => app.querySelector(s);
    if (q("#enter-key")) q("#enter-key").addEventListener("submit", (ev) => { ev.preventDefault(); saveKey(`club:${club.id}`, q("#ek").value.trim()); draw(); });
    if (q("#add-member")) {
      q("#add-member").addEventListener("submit", async (ev) => {
        ev.preventDefault();
        try {
          const body = { admin: q("#am-admin").checked };
          if (q("#am-name").value.trim()) body.name = q("#am-name").value.trim();
          if (q("#am-account").value.trim()) body.account = q("#am-account").value.trim();
          const out = await api("POST", `/api/clubs/${club.id}/members`, body, { token: key });
          await draw();
          if (out.key) q("#member-key").innerHTML = showKey(out.key);
        } catch (e) { toast(e.message); }
      });
    }
    for (const b of app.querySelectorAll("[data-remove]")) {
      b.addEventListener("click", async () => {
        try { await api("DELETE", `/api/clubs/${club.id}/members/${b.dataset.remove}`, undefined, { token: key }); await draw(); } catch (e) { toast(e.message); }
      });
    }
    if (q("#club-rules")) {
      const form = q("#club-rules");
      form.querySelector("#cr-rules-name").value = houseName(club.house_rules.name) === club.house_rules.name ? club.house_rules.name : "";
      form.querySelector("#cr-preset").value = club.house_rules.preset;
      form.querySelector("#cr-preset").dispatchEvent(new Event("change")); // its lives shown
      if (lives) form.querySelector("#cr-lives").value = lives;
      if (knownScheme(club.scheme, meta.schemes)) form.querySelector("#cr-scheme").value = club.scheme.name;
      const shown = form.querySelector("#cr-scheme").value; // a club's own points stay unless another is chosen
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const body = { house_rules: houseRules(form, "cr") };
        if (form.querySelector("#cr-scheme").value !== shown) body.scheme = form.querySelector("#cr-scheme").value;
        try {
          await api("PUT", `/api/clubs/${club.id}`, body, { token: key });
          await draw();
        } catch (e) { toast(e.message); }
      });
    }
    if (q("#new-tournament")) {
      q("#new-tournament").addEventListener("submit", async (ev) => {
        ev.preventDefault();
        try {
          const made = await api("POST", "/api/tournaments", { name: q("#nt-name").value.trim(), club: club.id }, { token: key });
          saveKey(`tournament:${made.tournament.id}`, made.key);
          location.assign(`/?tournament=${made.tournament.id}`);
        } catch (e) { toast(e.message); }
      });
    }
    translateStatic(app);
    // the club's page as a QR code (issue 39): a newcomer at the table scans it
    const link = `${location.origin}/?club=${encodeURIComponent(club.id)}`;
    const fig = qrFigure(`/api/clubs/${encodeURIComponent(club.id)}/qr`, t("web.pub.qr.club"), "club-qr");
    fig.querySelector("figcaption").append(" ", Object.assign(document.createElement("a"), { href: link, textContent: link, id: "club-link" }));
    q("#club-name").after(fig);
  };
  await draw();
  return { relabel: draw };
}
