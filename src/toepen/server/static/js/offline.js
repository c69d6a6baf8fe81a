// The offline page (offline.html, the service worker's answer when a page cannot be
// reached; the address is still the page asked for): in the reader's language from the
// kept catalogs, and that page again as soon as the connection is back.
import { initialLang, setLang } from "./ui/i18n.js";

const again = () => location.reload();
window.addEventListener("online", again);
// "online" may come before the network answers (the reload then lands here again, and no
// second "online" follows): ask the server itself every few seconds, and reload once it answers
setInterval(() => {
  fetch("/api/health", { cache: "no-store" }).then((r) => { if (r.ok) again(); }, () => {});
}, 3000);
document.getElementById("retry").addEventListener("click", again);
initialLang().then(setLang).catch(() => {});
