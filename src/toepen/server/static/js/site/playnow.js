// Play now (issue 26): a queue per preset and table size. POST /api/playnow gives a
// ticket, asked about every second (GET /api/playnow, the ticket as bearer token); once
// seated the ticket is the seat's token and the table page opens. Leaving the queue:
// the button, or the tab closing (a beacon); a second tab of this browser replaces the
// first (the browser's own id, localStorage "toepen.client").
import { t, translateStatic } from "../ui/i18n.js";
import { esc } from "../ui/util.js";
import { saveSeat } from "../net/socket.js";
import { api, errorText } from "../net/http.js";
import { presetName } from "../ui/tableinfo.js";

const WAITS = [["0", "web.playnow.wait_0"], ["15", "web.playnow.wait_15"],
  ["60", "web.playnow.wait_60"], ["", "web.playnow.wait_none"]];

/** This browser's own random id (one ticket, one guest mark, however many tabs). */
export function clientId() {
  let id = localStorage.getItem("toepen.client");
  if (!id) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("toepen.client", id);
  }
  return id;
}

/** The bots people pick by level (GET /api/presets' levels: Beginner..Expert), the
 * strongest installed chosen; a server without levels offers its bots by name. */
function levelOptions(meta) {
  const levels = meta.levels || [];
  if (!levels.length) {
    return meta.bots.map((b) => `<option${b === meta.default_bot ? " selected" : ""}>${esc(b)}</option>`).join("");
  }
  const chosen = (levels.find((lv) => lv.bot === meta.default_bot) || levels[levels.length - 1]).name;
  return levels.map((lv) => `<option value="${esc(lv.name)}"${lv.name === chosen ? " selected" : ""} data-i18n="level.${esc(lv.name)}"></option>`).join("");
}

/** The play-now panel at the top of ``lobby``; ``meta``: GET /api/presets; ``me``: the account;
 * ``nameOf()``: the name the guest typed in the lobby; ``setName(name)``: a name typed here
 * (a guest types it beside Play now, the same field as New table's). */
export function showPlayNow(lobby, meta, me, nameOf, toast, setName = () => {}) {
  const box = document.createElement("section");
  box.className = "panel playnow";
  box.setAttribute("aria-labelledby", "h-playnow");
  box.innerHTML = `
    <h2 id="h-playnow" data-i18n="web.playnow.title"></h2>
    <p class="note" data-i18n="web.playnow.about"></p>
    <div class="playnow-pick">
      ${me.user ? "" : `<label class="pn-name"><span data-i18n="web.your_name"></span> <input id="pn-name" autocomplete="nickname" maxlength="40" aria-describedby="pn-status"></label>`}
      <label><span data-i18n="web.preset"></span> <select id="pn-preset">${meta.presets.map((p) =>
        `<option value="${esc(p.name)}" data-i18n="${esc(p.label)}"></option>`).join("")}</select></label>
      <label><span data-i18n="web.size"></span> <select id="pn-size"></select></label>
      <label><span data-i18n="web.playnow.wait"></span> <select id="pn-wait">${WAITS.map(([v, id]) =>
        `<option value="${v}" data-i18n="${id}"></option>`).join("")}</select></label>
      <label><span data-i18n="web.playnow.bot"></span> <select id="pn-bot">${levelOptions(meta)}</select></label>
    </div>
    <button class="big primary" type="button" id="pn-go"></button>
    <p id="pn-status" class="pn-status" role="status" aria-live="polite"></p>
    <button class="big" type="button" id="pn-leave" hidden data-i18n="web.playnow.leave"></button>
    <ul id="pn-counts" class="pn-counts"></ul>`;
  lobby.prepend(box);
  translateStatic(box);
  const preset = box.querySelector("#pn-preset");
  const size = box.querySelector("#pn-size");
  const go = box.querySelector("#pn-go");
  const leaveBtn = box.querySelector("#pn-leave");
  const statusEl = box.querySelector("#pn-status");
  const nameIn = box.querySelector("#pn-name");
  if (nameIn) {
    nameIn.value = nameOf();
    nameIn.addEventListener("input", () => { setName(nameIn.value); nameIn.removeAttribute("aria-invalid"); });
  }
  /** What went wrong, beside the button (on a phone the toast is far from it): the name
   * field marked and focused where a name is missing. */
  const fail = (text, nameMissing) => {
    statusEl.textContent = text;
    statusEl.classList.add("error");
    const at = nameMissing && nameIn ? nameIn : statusEl;
    if (nameMissing && nameIn) { nameIn.setAttribute("aria-invalid", "true"); nameIn.focus({ preventScroll: true }); }
    at.scrollIntoView({ block: "center", behavior: "instant" });
  };
  box.querySelector("#pn-wait").value = "15";
  const label = () => { go.textContent = t("web.playnow.go", { preset: presetName(preset.value), n: size.value }); };
  const drawSizes = () => {
    const chosen = meta.presets.find((p) => p.name === preset.value);
    const sizes = chosen ? chosen.sizes : [4];
    size.innerHTML = sizes.map((n) => `<option>${n}</option>`).join("");
    size.value = String(sizes.includes(4) ? 4 : sizes[0]);
    label();
  };
  preset.addEventListener("change", drawSizes);
  size.addEventListener("change", label);
  drawSizes();

  let ticket = null;
  let timer = null;
  const stop = (text) => {
    ticket = null;
    clearInterval(timer);
    go.disabled = false;
    leaveBtn.hidden = true;
    statusEl.textContent = text || "";
    statusEl.classList.remove("error");
  };
  const ask = async () => {
    if (!ticket) return;
    const mine = ticket;
    let data;
    try {
      data = await api("GET", "/api/playnow", undefined, { token: mine, cache: "no-store" });
    } catch (e) {
      if (e.kind === "network" || mine !== ticket) return; // offline for a moment: ask again
      stop(e.message);
      return;
    }
    if (mine !== ticket) return;
    if (data.status === "waiting") {
      statusEl.textContent = t("web.playnow.waiting", { waited: Math.round(data.waited || 0) });
    } else if (data.status === "seated") {
      clearInterval(timer);
      saveSeat(data.table, { token: mine, seat: data.seat, host: false });
      ticket = null;
      location.assign(`/?table=${data.table}`);
    } else if (data.status === "replaced") {
      stop(t("web.playnow.replaced"));
    } else if (data.status === "failed") {
      stop(errorText(data, 409));
    } else {
      stop(t("web.playnow.gone"));
    }
  };
  go.addEventListener("click", async () => {
    if (go.disabled) return;
    if (!me.user && !nameOf()) { fail(t("playnow.error.name"), true); return; }
    go.disabled = true;
    statusEl.classList.remove("error");
    const wait = box.querySelector("#pn-wait").value;
    try {
      const made = await api("POST", "/api/playnow", {
        preset: preset.value, size: Number(size.value), wait: wait === "" ? null : Number(wait),
        bot: box.querySelector("#pn-bot").value, name: me.user ? null : (nameOf() || null),
        client: clientId(),
      });
      ticket = made.ticket;
      leaveBtn.hidden = false;
      statusEl.textContent = t("web.playnow.waiting", { waited: 0 });
      timer = setInterval(ask, 700);
      ask();
    } catch (e) { fail(e.message, !me.user && e.status === 400); /* (a guest's one typed field: the name) */ go.disabled = false; }
  });
  leaveBtn.addEventListener("click", async () => {
    const mine = ticket;
    if (!mine) return;
    ticket = null;
    try {
      await api("DELETE", "/api/playnow", undefined, { token: mine });
    } catch { /* the ticket expires by itself */ }
    stop(t("web.playnow.gone"));
  });
  window.addEventListener("pagehide", () => {
    if (ticket) navigator.sendBeacon("/api/playnow/leave", new Blob([JSON.stringify({ ticket })], { type: "application/json" }));
  });
  // how many wait and play, per preset and size; a row's button joins that queue
  const countsEl = box.querySelector("#pn-counts");
  const drawCounts = async () => {
    let data;
    try { data = await api("GET", "/api/playnow/counts", undefined, { cache: "no-store" }); } catch { return; }
    countsEl.innerHTML = Object.entries(data.counts || {}).map(([key, c]) => {
      const [p, n] = key.split("/");
      return `<li data-key="${esc(key)}"><span class="pn-what">${esc(presetName(p))}, ${esc(n)}</span> ` +
        `<span class="pn-n">${esc(t("web.playnow.counts", c))}</span> ` +
        `<button class="small pn-pick" type="button" data-preset="${esc(p)}" data-size="${esc(n)}">${esc(t("web.playnow.title"))}</button></li>`;
    }).join("");
  };
  countsEl.addEventListener("click", (ev) => {
    const b = ev.target.closest(".pn-pick");
    if (!b || ticket) return;
    preset.value = b.dataset.preset;
    drawSizes();
    size.value = b.dataset.size;
    label();
    go.click();
  });
  drawCounts();
  setInterval(drawCounts, 3000);
  return {
    relabel: () => { translateStatic(box); label(); drawCounts(); },
    /** The name typed in New table, shown here too. */
    name: (v) => { if (nameIn) nameIn.value = v; },
  };
}
