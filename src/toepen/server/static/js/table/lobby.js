// The lobby: create a table, list the open ones, join by code (the invite page: invite.js).
import { t, translateStatic } from "../ui/i18n.js";
import { saveSeat, seatOf } from "../net/socket.js";
import { esc } from "../ui/util.js";
import { attachRuleSets, formOptions, ruleSetControls } from "../ui/rulesets.js";
import { account } from "../site/account.js";
import { api, presets } from "../net/http.js";
import { presetName } from "../ui/tableinfo.js";
import { optionField, showPresetValues } from "../ui/options.js";
import { showPlayNow } from "../site/playnow.js";
import { showHere } from "../site/here.js";
import { invitationBar } from "../site/invitations.js";
import { botKind, botLabel, botMenu, playsAs } from "../ui/levels.js";

export function savedName() { return localStorage.getItem("toepen.name") || ""; }
export function rememberName(name) { if (name) localStorage.setItem("toepen.name", name); }

export function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 5000);
}

/** A bot's entry in a seat menu: the strongest bot (the server's default_bot) is chosen and says so. */
export function botOption(bot, defaultBot) {
  const chosen = playsAs(bot, defaultBot);
  const label = botLabel(bot) + (chosen ? ` (${t("web.bot_strongest")})` : "");
  return `<option value="${esc(bot)}"${chosen ? " selected" : ""}>${esc(label)}</option>`;
}

function seatRows(size, bots, defaultBot) {
  let html = "";
  for (let s = 1; s < size; s++) {
    const opts = [`<option value="">${esc(t("web.seat_open"))}</option>`]
      .concat(bots.map((b) => botOption(b, defaultBot)));
    html += `<label class="seat-row">${esc(t("web.seat_n", { n: s + 1 }))} <select name="seat${s}" data-seat="${s}">${opts.join("")}</select></label>`;
  }
  return html;
}

/** Who sits at a taken seat, for the lists: a bot's name with its kind beside it. */
export function seatWho(s) {
  if (s.kind === "bot") return `${esc(s.name || s.bot || "")} (${esc(t("web.bot"))}: ${esc(botKind(s))})`;
  return esc(s.name || "");
}

/** The lobby page. */
export async function showLobby(app) {
  let meta = { presets: [], options: [], sizes: [], bots: [], default_bot: "" };
  try { meta = await presets(); } catch (e) { toast(e.message); }
  const bots = botMenu(meta); // levels, not kinds; "default" is not offered: the strongest is chosen and marked
  const me = await account(); // logged in: the host sits under the account's name, rated tables allowed
  const presetOptions = meta.presets.map((p) => `<option value="${esc(p.name)}" data-i18n="${esc(p.label)}"></option>`).join("");
  app.innerHTML = `
  <div class="lobby">
    <section class="panel create" aria-labelledby="h-create">
      <h1 id="h-create" data-i18n="web.create_table"></h1>
      <form id="create-form">
        <label><span data-i18n="web.your_name"></span> <input name="name" id="name" required autocomplete="nickname"></label>
        <div class="mode" role="radiogroup">
          <label><input type="radio" name="mode" value="casual" id="casual" checked> <span data-i18n="web.acct.casual"></span></label>
          <label><input type="radio" name="mode" value="rated" id="rated"${me.user ? "" : " disabled"}> <span data-i18n="web.acct.rated"></span></label>
          <p class="note" id="mode-about" data-i18n="${me.user ? "web.acct.rated_about" : "web.acct.rated_login"}"></p>
        </div>
        <label><span data-i18n="web.preset"></span> <select name="preset" id="preset">${presetOptions}</select></label>
        <p class="note" id="preset-about"></p>
        <label><span data-i18n="web.size"></span> <select name="size" id="size"></select></label>
        <fieldset class="seats"><legend data-i18n="web.seats"></legend><div id="seat-rows"></div></fieldset>
        <details class="options"><summary data-i18n="web.options"></summary>
          ${ruleSetControls()}
          ${meta.options.map(optionField).join("")}
          <label><span data-i18n="web.idle_seconds"></span> <input type="number" min="1" max="3600" step="1" name="idle" id="idle" value="60"></label>
          <label class="check"><input type="checkbox" name="autostart" id="autostart"> <span data-i18n="web.autostart"></span></label>
        </details>
        <button class="big primary" type="submit" id="create" data-i18n="web.create"></button>
        <button class="big" type="button" id="challenge"></button>
      </form>
    </section>
    <section class="panel join" aria-labelledby="h-join">
      <h2 id="h-join" data-i18n="web.join_by_code"></h2>
      <form id="code-form" class="row">
        <input name="code" id="code" maxlength="6" required autocomplete="off" autocapitalize="characters" data-i18n-placeholder="web.code" aria-label="code">
        <button class="big" type="submit" data-i18n="web.join"></button>
      </form>
      <h2 data-i18n="web.open_tables"></h2>
      <button id="refresh" class="small" data-i18n="web.refresh"></button>
      <ul id="tables" class="tables" aria-live="polite"></ul>
    </section>
  </div>`;
  translateStatic(app);
  const form = app.querySelector("#create-form");
  const playNow = showPlayNow(app.querySelector(".lobby"), meta, me, () => form.name.value.trim(), toast,
    (v) => { form.name.value = v; });
  // an invitation to you: at the top of the page, as soon as the lobby hears of it
  const invited = invitationBar(app, toast, () => here.beat());
  const here = showHere(app.querySelector(".lobby"), me, () => form.name.value.trim(), toast, invited.show);
  // back to the tab: who is here (and an invitation that came meanwhile) at once
  document.addEventListener("visibilitychange", () => { if (!document.hidden) here.beat(); });
  form.name.value = me.user ? me.user.name : savedName();
  // one name for Play now and New table: typed in either, it is in both
  playNow.name(form.name.value);
  form.name.addEventListener("input", () => playNow.name(form.name.value));
  form.name.readOnly = !!me.user;
  const size = form.querySelector("#size");
  const rows = app.querySelector("#seat-rows");
  const drawRows = () => { rows.innerHTML = seatRows(Number(size.value), bots, meta.default_bot); };
  size.addEventListener("change", drawRows);
  const preset = form.querySelector("#preset");
  const about = app.querySelector("#preset-about");
  const drawSizes = () => {
    const chosen = meta.presets.find((p) => p.name === preset.value);
    about.textContent = chosen ? t(chosen.about) : "";
    showPresetValues(form, chosen, meta.options);
    const sizes = chosen ? chosen.sizes : meta.sizes;
    const keep = Number(size.value || 4);
    size.innerHTML = sizes.map((n) => `<option>${n}</option>`).join("");
    size.value = String(sizes.includes(keep) ? keep : sizes.includes(4) ? 4 : sizes[0]);
    drawRows();
  };
  preset.addEventListener("change", drawSizes);
  drawSizes();
  attachRuleSets(form, drawSizes, toast);
  const createBtn = form.querySelector("#create");
  const newId = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
  let createId = newId();
  // back from the table page (the page restored as it was): a new table may be made
  window.addEventListener("pageshow", (ev) => { if (ev.persisted) createBtn.disabled = false; });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (createBtn.disabled) return; // one table per click: a double click makes one
    createBtn.disabled = true;
    const name = form.name.value.trim();
    const botMap = {};
    for (const sel of rows.querySelectorAll("select")) if (sel.value) botMap[sel.dataset.seat] = sel.value;
    const options = formOptions(form);
    const body = {
      request: createId, // the same id again gets the same table (a retry, a double submit)
      preset: form.preset.value, size: Number(size.value), bots: botMap, name: name || null, options,
      idle_seconds: Number(form.idle.value) || 60, autostart: form.autostart.checked,
      rated: !!me.user && form.querySelector("#rated").checked,
    };
    try {
      const joined = await api("POST", "/api/tables", body);
      rememberName(name);
      saveSeat(joined.table.id, joined);
      createId = newId(); // the next table is another
      location.assign(`/?table=${joined.table.id}`);
    } catch (e) { toast(e.message); createBtn.disabled = false; }
  });
  // "challenge the strongest bot": a rated table against it, at the preset's smallest size
  const challenge = form.querySelector("#challenge");
  const labelChallenge = () => { challenge.textContent = t("web.acct.challenge", { bot: meta.default_bot }); };
  labelChallenge();
  challenge.hidden = !meta.default_bot;
  challenge.addEventListener("click", async () => {
    if (!me.user) { location.assign("/?page=login&next=%2F"); return; }
    const chosen = meta.presets.find((p) => p.name === preset.value);
    const n = chosen ? Math.min(...chosen.sizes) : 2;
    const botMap = {};
    for (let s = 1; s < n; s++) botMap[s] = meta.default_bot;
    challenge.disabled = true;
    try {
      const joined = await api("POST", "/api/tables", {
        request: newId(), preset: preset.value, size: n, bots: botMap, name: me.user.name,
        options: {}, autostart: true, rated: true,
      });
      saveSeat(joined.table.id, joined);
      location.assign(`/?table=${joined.table.id}`);
    } catch (e) { toast(e.message); challenge.disabled = false; }
  });
  app.querySelector("#code-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const code = app.querySelector("#code").value.trim().toUpperCase();
    if (code) location.assign(`/?join=${encodeURIComponent(code)}`);
  });
  const list = app.querySelector("#tables");
  const refresh = async () => {
    try {
      const { tables } = await api("GET", "/api/tables?status=lobby");
      list.innerHTML = tables.length ? tables.map((tb) => {
        const free = tb.seats.filter((s) => s.kind === "open").length;
        const who = tb.seats.filter((s) => s.kind !== "open").map(seatWho).join(", ");
        return `<li><span class="code">${esc(tb.code)}</span> <span>${esc(tb.preset)} · ${tb.size}</span> <span class="who">${who}</span> ` +
          `<span class="free">${esc(t(free ? "web.free_seats" : "web.table_full", { n: free }))}</span> ` +
          (free ? `<a class="button join" href="/?join=${esc(tb.code)}">${esc(t("web.join"))}</a> ` : "") +
          // a table where this browser holds a seat: the link seats you again, and says so
          (seatOf(tb.id) ? `<a class="button back-to-seat primary" href="/?table=${esc(tb.id)}">${esc(t("web.back_to_seat"))}</a></li>`
            : `<a class="button watch" href="/?table=${esc(tb.id)}">${esc(t("web.watch"))}</a></li>`);
      }).join("") : `<li class="empty">${esc(t("web.no_tables"))}</li>`;
    } catch (e) { list.innerHTML = `<li class="empty">${esc(e.message)}</li>`; }
  };
  app.querySelector("#refresh").addEventListener("click", refresh);
  await refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, 5000);
  return { relabel: () => { translateStatic(app); drawSizes(); labelChallenge(); refresh(); playNow.relabel(); here.relabel(); invited.relabel(); } };
}
