// The pub evening (issue 39, docs/pub.md): the service worker that makes the site an
// installable app, the screen kept awake at a table or a sheet, QR codes of the site's
// links, the result shared, the standings said aloud. Each is a small piece a page adds.
import { t, lang } from "./i18n.js";
import { esc } from "./util.js";

/** Register the service worker (/sw.js). A newer worker takes over at once (a release):
 * the page is loaded again so that it runs the new shell, never a stale one. */
export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  const had = Boolean(navigator.serviceWorker.controller);
  let reloaded = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!had || reloaded) return; // the first install: the page is already the newest
    reloaded = true;
    location.reload();
  });
  navigator.serviceWorker.register("/sw.js").then((reg) => reg.update()).catch(() => {});
}

// --- the screen kept awake (Screen Wake Lock API) --------------------------------------
const AWAKE = "toepen.awake";
let wanted = false;
let sentinel = null;
let asking = false;

/** Whether the reader wants the screen kept awake (on unless they turned it off). */
export function awakeWanted() { return localStorage.getItem(AWAKE) !== "0"; }

async function takeLock() {
  if (!wanted || !awakeWanted() || sentinel || asking || document.visibilityState !== "visible") return;
  if (!navigator.wakeLock) return;
  asking = true;
  try {
    const lock = await navigator.wakeLock.request("screen");
    if (!wanted || !awakeWanted() || document.visibilityState !== "visible") { await lock.release(); return; }
    sentinel = lock;
    lock.addEventListener("release", () => { if (sentinel === lock) sentinel = null; });
  } catch { sentinel = null; } finally { asking = false; }
}

async function releaseLock() {
  const lock = sentinel;
  sentinel = null;
  if (lock) { try { await lock.release(); } catch { /* released already */ } }
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") takeLock(); else releaseLock();
});

/** Keep the screen awake on this page (a table, a score sheet) while it is shown. */
export function keepAwake() { wanted = true; takeLock(); }

/** The toggle of the screen kept awake (an element to put in the page). */
export function awakeToggle() {
  const label = document.createElement("label");
  label.className = "check pub-toggle no-print";
  label.innerHTML = `<input type="checkbox" id="awake"${awakeWanted() ? " checked" : ""}> <span data-i18n="web.pub.awake">${esc(t("web.pub.awake"))}</span>`;
  const box = label.querySelector("input");
  box.addEventListener("change", () => {
    localStorage.setItem(AWAKE, box.checked ? "1" : "0");
    if (box.checked) takeLock(); else releaseLock();
  });
  return label;
}

// --- QR codes ----------------------------------------------------------------------------
/** A QR code (``src``: the server's SVG of one of its own links) beside its link. */
export function qrFigure(src, label, id) {
  const fig = document.createElement("figure");
  fig.className = "qr-figure no-print";
  fig.innerHTML = `<img class="qr" id="${esc(id)}" src="${esc(src)}" alt="${esc(label)}" width="240" height="240">` +
    `<figcaption>${esc(label)}</figcaption>`;
  fig.querySelector("img").addEventListener("error", () => fig.remove());  // no code for this link (403, 404)
  return fig;
}

// --- the result shared -----------------------------------------------------------------
/** Share ``title``, ``lines`` and ``url`` (Web Share API), or copy them where the browser
 * cannot share; ``done`` says it was copied. */
export async function shareResult(title, lines, url, done) {
  const text = [title, ...lines].join("\n");
  if (navigator.share) {
    try { await navigator.share({ title, text, url }); } catch { /* the reader closed it */ }
    return;
  }
  try { await navigator.clipboard.writeText(`${text}\n${url}`); done(t("web.pub.copied")); } catch {
    window.prompt(title, `${text}\n${url}`);
  }
}

/** The button that shares (its label: share where the browser can, else copy). */
export function shareButton(get, done) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "big pub-share";
  b.id = "share-result";
  b.textContent = t(navigator.share ? "web.pub.share" : "web.pub.copy_result");
  b.addEventListener("click", () => { const { title, lines, url } = get(); shareResult(title, lines, url, done); });
  return b;
}

// --- the standings said aloud (speechSynthesis) ---------------------------------------------
const SPEAK = "toepen.speak";

/** Whether the reader asked for the standings aloud (off unless turned on). */
export function speakWanted() { return localStorage.getItem(SPEAK) === "1"; }

/** The toggle of the standings said aloud (none where the browser cannot speak). */
export function speakToggle() {
  const label = document.createElement("label");
  label.className = "check pub-toggle no-print";
  if (!window.speechSynthesis) return label;
  label.innerHTML = `<input type="checkbox" id="speak"${speakWanted() ? " checked" : ""}> <span data-i18n="web.pub.speak">${esc(t("web.pub.speak"))}</span>`;
  const box = label.querySelector("input");
  box.addEventListener("change", () => {
    localStorage.setItem(SPEAK, box.checked ? "1" : "0");
    if (!box.checked) window.speechSynthesis.cancel();
  });
  return label;
}

/** Say ``text`` in the page's language, if the reader asked for it. */
export function speak(text) {
  if (!speakWanted() || !window.speechSynthesis || !text) return;
  const u = new SpeechSynthesisUtterance(text);
  u.lang = lang();
  window.speechSynthesis.speak(u);
}
