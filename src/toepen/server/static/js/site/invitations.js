// Invitations where a player is (issue 38): at the table, a logged-in player who sits at a
// table waiting for players invites the players they follow from there (POST
// /api/invitations); an invitation to you shows at the top of the lobby and of a waiting
// table, with accept and decline, as soon as the page hears of it (POST /api/here, the
// lobby's beat of who is here). Nothing of a game is in it.
import { t } from "../ui/i18n.js";
import { esc } from "../ui/util.js";
import { saveSeat } from "../net/socket.js";
import { account } from "./account.js";
import { api } from "../net/http.js";
import { clientId } from "./playnow.js";

const BEAT_MS = 10000;

/** The invitations to you as a bar at the top of ``root`` (the lobby, the waiting room):
 * ``show(data)`` with the answer of POST /api/here; accept seats you at the table. */
export function invitationBar(root, toast, after = () => {}) {
  const bar = document.createElement("section");
  bar.className = "invite-bar";
  bar.setAttribute("role", "status");
  bar.setAttribute("aria-live", "polite");
  let last = null;
  // (in the page only while it holds an invitation)
  const place = (on) => { if (on && !bar.isConnected) root.prepend(bar); else if (!on) bar.remove(); };
  const show = (data) => {
    last = data;
    const open = (data && data.invitations ? data.invitations : []).filter((i) => i.status === "open");
    place(open.length > 0);
    bar.innerHTML = open.map((i) => `<p class="invite-line" data-id="${esc(String(i.id))}"><span>✉️ ${esc(t("web.here.invited_you", { name: i.from }))}</span>
      <button class="small primary inv-accept" type="button">${esc(t("web.here.accept"))}</button>
      <button class="small inv-decline" type="button">${esc(t("web.here.decline"))}</button></p>`).join("");
  };
  bar.addEventListener("click", async (ev) => {
    const line = ev.target.closest("[data-id]");
    if (!line) return;
    const id = line.dataset.id;
    try {
      if (ev.target.closest(".inv-accept")) {
        const joined = await api("POST", `/api/invitations/${id}/accept`, {});
        saveSeat(joined.table.id, joined);
        location.assign(`/?table=${joined.table.id}`);
      } else if (ev.target.closest(".inv-decline")) {
        await api("POST", `/api/invitations/${id}/decline`, {});
        line.remove();
        place(!!bar.querySelector("[data-id]"));
        after();
      }
    } catch (e) { toast(e.message); }
  });
  return { show, relabel: () => show(last) };
}

/** At a table: the players you follow, each with "Invite to my table" while this table
 * waits for players and you sit at it (logged in); the invitations to you above them.
 * ``update(table, seated)`` on every change of the table. */
export function tableInvitations(root, tableId, toast) {
  const box = document.createElement("section");
  box.className = "panel friends-invite";
  box.hidden = true;
  root.append(box);
  const bar = invitationBar(root, toast);
  let data = null;
  let waiting = false;
  let timer = null;
  let user = null;
  const draw = () => {
    const mine = waiting && data && (data.my_tables || []).some((x) => x.id === tableId);
    box.hidden = !mine;
    if (!mine) { box.innerHTML = ""; return; }
    const state = (f) => t(f.table ? "web.here.at_table" : f.online ? "web.here.is_online" : "web.here.is_offline");
    box.innerHTML = `<h2>${esc(t("web.here.invite"))}</h2>` + (data.friends.length
      ? `<ul class="here-list">${data.friends.map((f) => `<li data-name="${esc(f.name)}"><span class="pn-what">${esc(f.name)}</span>
          <span class="here-state">${esc(state(f))}</span>
          <button class="small here-invite" type="button">${esc(t("web.here.invite"))}</button></li>`).join("")}</ul>`
      : `<p class="note">${esc(t("web.invite_follow_first"))}</p>`);
  };
  const beat = async () => {
    if (!user) return;
    try {
      data = await api("POST", "/api/here", { client: clientId() });
      bar.show(data);
      draw();
    } catch { /* asked again at the next beat */ }
  };
  box.addEventListener("click", async (ev) => {
    const li = ev.target.closest("li[data-name]");
    if (!li || !ev.target.closest(".here-invite")) return;
    ev.target.disabled = true;
    try {
      await api("POST", "/api/invitations", { to: li.dataset.name, table: tableId });
      toast(t("web.here.invited"));
    } catch (e) { toast(e.message); ev.target.disabled = false; }
  });
  account().then((me) => { user = me.user; beat(); }).catch(() => {});
  document.addEventListener("visibilitychange", () => { if (!document.hidden) beat(); });
  return {
    update(table, seated) {
      const now = !!table && table.status === "lobby" && seated;
      if (now !== waiting) {
        waiting = now;
        clearInterval(timer);
        if (waiting) { timer = setInterval(beat, BEAT_MS); beat(); }
        draw();
      }
    },
    relabel: () => { draw(); bar.relabel(); },
  };
}
