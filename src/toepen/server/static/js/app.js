// Entry point: pick the page from the URL, load the language, keep the header up to date.
import { initialLang, languages, setLang, onLangChange, t } from "./ui/i18n.js";
import { esc } from "./ui/util.js";
import { showLobby } from "./table/lobby.js";
import { showJoin } from "./table/invite.js";
import { showTable } from "./table/tablepage.js";
import { showReplay } from "./table/replay.js";
import { drawNav } from "./site/account.js";
import { accountPage, showAccountPage } from "./site/accountpages.js";
import { showClubs, showClub } from "./site/club.js";
import { showTournament, showProjector } from "./site/tournament.js";
import { showSheet } from "./site/tally.js";
import { showRules } from "./site/rules.js";
import { registerWorker } from "./ui/pwa.js";

const app = document.getElementById("app");
const connEl = document.getElementById("conn");
let connState = "";

function setConn(state) {
  connState = state;
  connEl.dataset.state = state;
  connEl.textContent = state ? t(`web.conn.${state}`) : "";
  connEl.title = connEl.textContent; // cut on a narrow phone: the whole word on a long press
}

/** The header's links behind one button on a phone and a small window (css: .menu-btn):
 * the header stays one row; the links open below it. */
function attachMenu() {
  const top = document.querySelector(".topbar");
  const btn = document.getElementById("menu");
  const open = (on) => { top.classList.toggle("open", on); btn.setAttribute("aria-expanded", on ? "true" : "false"); };
  btn.addEventListener("click", () => open(!top.classList.contains("open")));
  document.addEventListener("click", (ev) => { if (!top.contains(ev.target)) open(false); });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && top.classList.contains("open")) { open(false); btn.focus(); } });
}

async function main() {
  attachMenu();
  registerWorker();
  const langSel = document.getElementById("lang");
  langSel.innerHTML = (await languages()).languages
    .map((l) => `<option value="${esc(l.code)}" lang="${esc(l.code)}">${esc(l.name)}</option>`).join("");
  const lang = await initialLang();
  langSel.value = lang;
  await setLang(lang);
  const q = new URLSearchParams(location.search);
  let page;
  if (q.get("table")) page = await showTable(app, q.get("table"), setConn);
  else if (q.get("join")) page = await showJoin(app, q.get("join").toUpperCase());
  else if (q.get("replay")) page = await showReplay(app, q.get("replay"));
  else if (accountPage(q)) page = await showAccountPage(app, q);
  else if (q.get("tournament")) page = await showTournament(app, q.get("tournament"));
  else if (q.get("projector")) page = await showProjector(app, q.get("projector"));
  else if (q.get("club")) page = await showClub(app, q.get("club"));
  else if (q.has("clubs")) page = await showClubs(app);
  else if (q.has("sheet")) page = await showSheet(app, q.get("sheet"));
  else if (q.has("rules")) page = await showRules(app);
  else page = await showLobby(app);
  const pages = ["table", "join", "replay", "tournament", "projector", "club", "clubs", "sheet", "rules"];
  document.body.dataset.page = pages.find((p) => q.has(p)) || "lobby";
  if (accountPage(q)) document.body.dataset.page = accountPage(q);
  langSel.addEventListener("change", () => setLang(langSel.value));
  await drawNav();
  onLangChange(() => drawNav());
  onLangChange(() => { setConn(connState); if (page && page.relabel) page.relabel(); });
  document.body.dataset.ready = "1";
}

main().catch((e) => {
  app.innerHTML = `<p class="panel error">${esc(e.message || e)}</p>`;
});
