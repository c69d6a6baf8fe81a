// Accounts in the browser: the header's account links, the log-in / register page and the
// account page. Who is logged in (account(): the user and this browser's CSRF token, which
// every request that changes something carries) is http.js's, re-exported here.
import { t, translateStatic } from "../ui/i18n.js";
import { esc } from "../ui/util.js";
import { account, api } from "../net/http.js";

export { account };

function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 5000);
}

export function profileLink(name) { return `/?player=${encodeURIComponent(name)}`; }

/** The header's links: the leaderboard, and log in or the account. */
export async function drawNav() {
  const nav = document.getElementById("acct-nav");
  if (!nav) return;
  const { user } = await account();
  nav.innerHTML = `<a id="nav-leaderboard" href="/?page=leaderboard">${esc(t("web.acct.leaderboard"))}</a>` +
    (user
      ? ` <a id="nav-profile" href="${esc(profileLink(user.name))}" title="${esc(t("web.acct.logged_in_as", { name: user.name }))}">${esc(user.name)}</a>` +
        ` <a id="nav-account" href="/?page=account">${esc(t("web.acct.account"))}</a>`
      : ` <a id="nav-login" href="/?page=login">${esc(t("web.acct.login"))}</a>`);
}

/** Log in (mode "login") or register (mode "register"). */
export async function showLogin(app, mode) {
  const draw = () => {
    const register = mode === "register";
    app.innerHTML = `<section class="panel acct-form">
      <h1>${esc(t(register ? "web.acct.create_account" : "web.acct.login"))}</h1>
      <p class="note">${esc(t("web.acct.why"))}</p>
      <form id="acct-form">
        <label>${esc(t("web.acct.user_name"))} <input id="acct-name" name="username" required autocomplete="username" maxlength="20"></label>
        ${register ? `<p class="note">${esc(t("web.acct.name_rules"))}</p>` : ""}
        <label>${esc(t("web.acct.password"))} <input id="acct-password" name="password" type="password" required autocomplete="${register ? "new-password" : "current-password"}"></label>
        ${register ? `<p class="note">${esc(t("web.acct.password_rules"))}</p>` : ""}
        <button class="big primary" type="submit" id="acct-submit">${esc(t(register ? "web.acct.register" : "web.acct.login"))}</button>
      </form>
      <p>${esc(t(register ? "web.acct.have_account" : "web.acct.no_account"))}
        <a id="acct-switch" href="/?page=${register ? "login" : "register"}">${esc(t(register ? "web.acct.login" : "web.acct.register"))}</a></p>
    </section>`;
    app.querySelector("#acct-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const btn = app.querySelector("#acct-submit");
      btn.disabled = true;
      try {
        await account(true); // a fresh token for this browser
        await api("POST", `/api/account/${register ? "register" : "login"}`, {
          name: app.querySelector("#acct-name").value.trim(),
          password: app.querySelector("#acct-password").value,
        });
        const next = new URLSearchParams(location.search).get("next");
        location.assign(next && next.startsWith("/") && !next.startsWith("//") ? next : "/");
      } catch (e) { toast(e.message); btn.disabled = false; }
    });
  };
  draw();
  return { relabel: draw };
}

/** Seats this browser holds as a guest (localStorage), with their tables. */
async function guestSeats() {
  let all = {};
  try { all = JSON.parse(localStorage.getItem("toepen.seats") || "{}"); } catch { all = {}; }
  const out = [];
  for (const [tableId, s] of Object.entries(all)) {
    if (s.seat === null || s.seat === undefined) continue;
    try {
      const table = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`);
      const seat = table.seats[s.seat];
      if (seat && seat.kind === "human" && !seat.account) out.push({ table, seat, token: s.token });
    } catch { /* a table gone: nothing to claim */ }
  }
  return out;
}

/** The account page: change the password, claim guest seats, log out, delete. */
export async function showAccount(app) {
  const { user } = await account();
  if (!user) { location.replace("/?page=login&next=%2F%3Fpage%3Daccount"); return {}; }
  let seats = await guestSeats();
  const draw = () => {
    app.innerHTML = `<div class="acct-page">
    <section class="panel">
      <h1>${esc(t("web.acct.logged_in_as", { name: user.name }))}</h1>
      <p><a class="button" id="acct-profile" href="${esc(profileLink(user.name))}">${esc(t("web.acct.profile"))}</a>
         <button id="acct-logout">${esc(t("web.acct.logout"))}</button></p>
    </section>
    <section class="panel">
      <h2>${esc(t("web.acct.guest_seats"))}</h2>
      <ul id="acct-seats" class="tables">${seats.length ? seats.map((g, i) =>
        `<li><span>${esc(t("web.acct.seat_at", { name: g.seat.name || "", code: g.table.code }))}</span> <span>${esc(g.table.preset)} · ${g.table.size}</span> ` +
        `<button class="small" data-claim="${i}">${esc(t("web.acct.claim"))}</button></li>`).join("")
        : `<li class="empty">${esc(t("web.acct.no_guest_seats"))}</li>`}</ul>
    </section>
    <section class="panel">
      <h2>${esc(t("web.acct.change_password"))}</h2>
      <form id="pw-form">
        <label>${esc(t("web.acct.old_password"))} <input id="pw-old" type="password" required autocomplete="current-password"></label>
        <label>${esc(t("web.acct.new_password"))} <input id="pw-new" type="password" required autocomplete="new-password"></label>
        <button type="submit" id="pw-submit">${esc(t("web.acct.change_password"))}</button>
      </form>
    </section>
    <section class="panel danger">
      <h2>${esc(t("web.acct.delete"))}</h2>
      <p class="note">${esc(t("web.acct.delete_about"))}</p>
      <form id="del-form">
        <label>${esc(t("web.acct.password"))} <input id="del-password" type="password" required autocomplete="current-password"></label>
        <button type="submit" id="del-submit" class="danger">${esc(t("web.acct.delete"))}</button>
      </form>
    </section></div>`;
    app.querySelector("#acct-logout").addEventListener("click", async () => {
      try { await api("POST", "/api/account/logout", {}); location.assign("/"); } catch (e) { toast(e.message); }
    });
    for (const btn of app.querySelectorAll("[data-claim]")) {
      btn.addEventListener("click", async () => {
        const g = seats[Number(btn.dataset.claim)];
        try {
          await api("POST", "/api/account/claim", { table: g.table.id, token: g.token });
          toast(t("web.acct.claimed"));
          seats = seats.filter((x) => x !== g);
          draw();
        } catch (e) { toast(e.message); }
      });
    }
    app.querySelector("#pw-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        await api("POST", "/api/account/password", { old: app.querySelector("#pw-old").value, new: app.querySelector("#pw-new").value });
        await account(true);
        toast(t("web.acct.password_changed"));
        ev.target.reset();
      } catch (e) { toast(e.message); }
    });
    app.querySelector("#del-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const password = app.querySelector("#del-password").value;
      try {
        // the password first (a wrong one is said at once), then the question, then the deed
        await api("POST", "/api/account/delete", { password, check: true });
        if (!window.confirm(t("web.acct.delete_about"))) return;
        await api("POST", "/api/account/delete", { password });
        toast(t("web.acct.deleted"));
        location.assign("/");
      } catch (e) { toast(e.message); }
    });
  };
  draw();
  return { relabel: draw };
}
