// The service worker (docs/web.md, "Installed on a phone"): it keeps the app shell, the
// pages, scripts, styles, catalogs and icons, in a cache named by a hash of those files
// (the server fills in VERSION and SHELL when it starts: server/pwa.py). A release changes
// the hash, so this file; the browser installs the new worker, which takes over at once and
// drops the old cache. It never keeps an API answer, a table's state or a score sheet:
// only the paths of SHELL are answered from the cache, everything else goes to the network.
const VERSION = "__VERSION__";
const SHELL = ["__SHELL__"];
const CACHE = `toepen-shell-${VERSION}`;
const KEPT = new Set(SHELL);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(SHELL.map((p) => new Request(p, { cache: "reload" }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith("toepen-shell-") && n !== CACHE)
      .map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== location.origin) return;
  if (req.mode === "navigate") {
    // a page: the network's, never an old copy (no-cache: asked again, whatever the HTTP
    // cache holds); without a network, the offline page
    event.respondWith(fetch(new Request(req, { cache: "no-cache" })).catch(async () =>
      (await caches.match("/offline.html", { cacheName: CACHE })) || Response.error()));
    return;
  }
  if (url.search || !KEPT.has(url.pathname)) return;  // an API answer, a record, a socket: the network's
  event.respondWith(caches.match(url.pathname, { cacheName: CACHE })
    .then((hit) => hit || fetch(req)));
});
