// A club tournament's organiser registers players from the club's members: a box per
// member not yet registered, ticked and registered at once (no retyping of names); a guest
// who is no member is still typed in the name field beside it.
import { t } from "../ui/i18n.js";
import { esc } from "../ui/util.js";
import { api } from "../net/http.js";

/** The names of the club's members (GET /api/clubs/ID), or none (no club, or not reached). */
export async function clubMembers(tn) {
  if (!tn.club) return [];
  try {
    const club = await api("GET", `/api/clubs/${encodeURIComponent(tn.club.id)}`);
    return club.members.map((m) => m.name);
  } catch { return []; }
}

const fold = (name) => name.normalize("NFKC").toLocaleLowerCase();

/** The pick list: the members who are not registered yet (HTML; empty when there are none). */
export function membersHTML(tn, members) {
  const registered = new Set(tn.players.map((p) => fold(p.name)));
  const left = members.filter((m) => !registered.has(fold(m)));
  if (!left.length) return "";
  return `<form id="club-members" class="members"><fieldset><legend>${esc(t("web.club.members_pick"))}</legend>` +
    left.map((m) => `<label class="check"><input type="checkbox" data-member="${esc(m)}"> ${esc(m)}</label>`).join("") +
    `</fieldset><button type="button" class="small" id="members-all">${esc(t("web.club.members_all"))}</button> ` +
    `<button type="submit" id="members-add">${esc(t("web.club.members_register"))}</button></form>`;
}

/** Wire the pick list: register each ticked member through ``send`` (one request each, in order). */
export function attachMembers(app, send) {
  const form = app.querySelector("#club-members");
  if (!form) return;
  form.querySelector("#members-all").addEventListener("click", () => {
    for (const box of form.querySelectorAll("[data-member]")) box.checked = true;
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const names = [...form.querySelectorAll("[data-member]:checked")].map((b) => b.dataset.member);
    if (!names.length) return;
    for (const name of names) if (!(await send("players", { name }))) break;
  });
}
