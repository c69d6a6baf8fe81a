// Who is here (issue 26): the lobby says it is here every 10 s (POST /api/here) and shows
// who else is, the tables being played (to watch) and, logged in, friends (follow,
// online, at a table, invite to my table) and invitations (accept: seated; decline).
// A guest is counted, named only if it ticks "show my name", and then marked as a guest; a
// name that is an account's, or one guest too many from this address, unticks it (said once).
import { t, translateStatic } from "../ui/i18n.js";
import { esc } from "../ui/util.js";
import { saveSeat, seatOf } from "../net/socket.js";
import { api } from "../net/http.js";
import { presetName } from "../ui/tableinfo.js";
import { clientId } from "./playnow.js";

const BEAT_MS = 10000;

export function showHere(lobby, me, nameOf, toast, onData = () => {}) {
  const box = document.createElement("section");
  box.className = "panel here";
  box.setAttribute("aria-labelledby", "h-here");
  lobby.append(box);
  let last = null;
  let visible = localStorage.getItem("toepen.visible") === "1";
  const draw = () => {
    const d = last;
    if (!d) return;
    const online = [...d.online.map((o) => o.name),
      ...d.guests.map((g) => t("web.here.guest_name", { name: g.name }))];
    // the guests counted but not named, this page's own guest not among them (it is counted
    // too, unless it is a named one, listed, or logged in): "Nobody else yet." when alone
    const unnamed = Math.max(0, d.counts.guests - d.guests.length - (me.user || visible ? 0 : 1));
    const friendState = (f) => f.table ? t("web.here.at_table") : f.online ? t("web.here.is_online") : t("web.here.is_offline");
    const mine = d.my_tables || [];
    const typing = box.querySelector("#here-follow-name");
    const kept = typing ? [typing.value, document.activeElement === typing] : ["", false];
    box.innerHTML = `
      <h2 id="h-here" data-i18n="web.here.title"></h2>
      <h3 data-i18n="web.here.online"></h3>
      <p id="here-online">${online.length ? online.map(esc).join(", ") + (unnamed ? " " + esc(t("web.here.guests", { n: unnamed })) : "")
        : esc(t(unnamed ? "web.here.only_guests" : "web.here.nobody", { n: unnamed }))}</p>
      ${me.user ? "" : `<label class="check"><input type="checkbox" id="here-visible"${visible ? " checked" : ""}> <span data-i18n="web.here.show_me"></span></label>`}
      <h3 data-i18n="web.here.tables"></h3>
      <ul class="here-list" id="here-tables">${d.tables.map((tb) => `<li><span>${esc(presetName(tb.preset))}: ${esc(tb.players.join(", "))}</span>
        <a class="small" href="/?table=${esc(tb.id)}" data-i18n="${seatOf(tb.id) ? "web.back_to_seat" : "web.here.watch"}"></a></li>`).join("")}</ul>
      ${me.user ? `
      <h3 data-i18n="web.here.friends"></h3>
      <form id="here-follow" class="row"><input id="here-follow-name" maxlength="40" required data-i18n-placeholder="web.here.follow_name" aria-label="name">
        <button class="small" type="submit" data-i18n="web.here.follow"></button></form>
      <ul class="here-list" id="here-friends">${d.friends.map((f) => `<li data-name="${esc(f.name)}"><span class="pn-what">${esc(f.name)}</span>
        <span class="here-state">${esc(friendState(f))}</span>
        ${f.table ? `<a class="small" href="/?table=${esc(f.table)}" data-i18n="web.here.watch"></a>` : ""}
        ${mine.length ? `<button class="small here-invite" type="button" data-i18n="web.here.invite"></button>` : ""}
        <button class="small here-unfollow" type="button" data-i18n="web.here.unfollow"></button></li>`).join("")}</ul>
      <ul class="here-list" id="here-invitations">${d.invitations.filter((i) => i.status === "open").map((i) => `<li data-id="${i.id}">
        <span>${esc(t("web.here.invited_you", { name: i.from }))}</span>
        <button class="small primary here-accept" type="button" data-i18n="web.here.accept"></button>
        <button class="small here-decline" type="button" data-i18n="web.here.decline"></button></li>`).join("")}</ul>
      <ul class="here-list" id="here-sent">${d.sent.slice(0, 10).map((i) => `<li>${esc(t(`web.here.sent_${i.status}`, { name: i.to }))}</li>`).join("")}</ul>` : ""}`;
    translateStatic(box);
    const input = box.querySelector("#here-follow-name");
    if (input) { input.value = kept[0]; if (kept[1]) input.focus(); }
  };
  const beat = async () => {
    const body = { client: clientId() };
    if (!me.user && visible && nameOf()) { body.visible = true; body.name = nameOf(); }
    try { last = await api("POST", "/api/here", body); draw(); onData(last); } catch (e) {
      const refused = e.say && ["here.error.name_taken", "here.error.guests"].includes(e.say.id);
      if (body.visible && refused) {  // shown once; the page stays here, unnamed
        visible = false;
        localStorage.setItem("toepen.visible", "0");
        toast(e.message);
        beat();
      } else if (e.status !== 429) toast(e.message);
    }
  };
  const act = async (method, path, body) => {
    try { const out = await api(method, path, body); await beat(); return out; } catch (e) { toast(e.message); return null; }
  };
  box.addEventListener("change", (ev) => {
    if (ev.target.id === "here-visible") {
      visible = ev.target.checked;
      localStorage.setItem("toepen.visible", visible ? "1" : "0");
      beat();
    }
  });
  box.addEventListener("submit", (ev) => {
    if (ev.target.id !== "here-follow") return;
    ev.preventDefault();
    act("POST", "/api/follows", { name: box.querySelector("#here-follow-name").value.trim() });
  });
  box.addEventListener("click", async (ev) => {
    const li = ev.target.closest("li");
    if (!li) return;
    if (ev.target.closest(".here-unfollow")) act("POST", "/api/follows/remove", { name: li.dataset.name });
    else if (ev.target.closest(".here-invite") && last && last.my_tables.length) {
      if (await act("POST", "/api/invitations", { to: li.dataset.name, table: last.my_tables[0].id })) toast(t("web.here.invited"));
    } else if (ev.target.closest(".here-decline")) act("POST", `/api/invitations/${li.dataset.id}/decline`, {});
    else if (ev.target.closest(".here-accept")) {
      const joined = await act("POST", `/api/invitations/${li.dataset.id}/accept`, {});
      if (joined) { saveSeat(joined.table.id, joined); location.assign(`/?table=${joined.table.id}`); }
    }
  });
  beat();
  setInterval(beat, BEAT_MS);
  return { relabel: draw, beat };
}
