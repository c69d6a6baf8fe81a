// The invite page (/?join=CODE): the table in words (its preset's name, how many seats are
// free), its rules, then a name and Join; a full or started table says so and offers
// watching it or the lobby instead.
import { t, translateStatic } from "../ui/i18n.js";
import { saveSeat } from "../net/socket.js";
import { esc } from "../ui/util.js";
import { rulesList } from "../ui/rulesets.js";
import { account } from "../site/account.js";
import { api } from "../net/http.js";
import { toast, savedName, rememberName, seatWho } from "./lobby.js";
import { freeSeats, tableLine } from "../ui/tableinfo.js";

export async function showJoin(app, code) {
  let table;
  try { table = await api("GET", `/api/codes/${encodeURIComponent(code)}`); } catch (e) {
    // a mistyped or expired invite: said in the page's language, with the way back
    const draw = () => {
      app.innerHTML = `<section class="panel notfound"><h1>${esc(t("web.no_such_table"))}</h1>` +
        `<p>${esc(t("web.no_such_code", { code }))}</p><a class="button primary" id="back" href="/">${esc(t("web.back_to_lobby"))}</a></section>`;
    };
    draw();
    return { relabel: draw };
  }
  const me = await account();
  let typed = me.user ? me.user.name : savedName();
  const draw = () => {
    const open = table.status === "lobby" && freeSeats(table) > 0;
    const who = table.seats.filter((s) => s.kind !== "open").map(seatWho).join(", ");
    // a table nobody can join now: why, and what one can do instead
    const closed = `<p class="join-closed" id="join-closed">${esc(t(table.status === "lobby" ? "web.invite.full_next" : "web.invite.started_next"))}</p>` +
      `<p class="row"><a class="button big primary" id="watch-btn" href="/?table=${esc(table.id)}">${esc(t("web.watch"))}</a> ` +
      `<a class="button big" id="back" href="/">${esc(t("web.back_to_lobby"))}</a></p>`;
    const form = `<form id="join-form" class="row"><label><span data-i18n="web.your_name"></span> <input id="jname" required autocomplete="nickname"></label>
      <button class="big primary" type="submit" id="join-btn" data-i18n="web.join"></button></form>
      <p><a class="button" id="watch-btn" href="/?table=${esc(table.id)}" data-i18n="web.watch"></a></p>`;
    app.innerHTML = `<section class="panel joinpage"><h1><span data-i18n="web.join_table"></span> <span class="code">${esc(table.code)}</span></h1>
      <p class="table-line">${tableLine(table)}</p>${who ? `<p class="who">${who}</p>` : ""}
      ${rulesList(table.rules)}
      ${open ? form : closed}</section>`;
    translateStatic(app);
    if (!open) return;
    const input = app.querySelector("#jname");
    input.value = typed;
    input.readOnly = !!me.user;
    input.addEventListener("input", () => { typed = input.value; });
    app.querySelector("#join-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const joined = await api("POST", "/api/join", { code: table.code, name: input.value.trim() });
        rememberName(input.value.trim());
        saveSeat(joined.table.id, joined);
        location.assign(`/?table=${joined.table.id}`);
      } catch (e) {
        toast(e.message);
        // the table filled meanwhile (or started): show it as it is now
        if (e.status === 409) {
          try { table = await api("GET", `/api/codes/${encodeURIComponent(code)}`); draw(); } catch { /* as it was */ }
        }
      }
    });
  };
  draw();
  return { relabel: draw };
}
