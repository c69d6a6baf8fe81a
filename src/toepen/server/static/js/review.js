// The review of a finished game: every decision of one seat with the expected lives of each
// legal action, valued in the server's bot pool from what that seat knew (POST, then GET
// /api/tables/{id}/review?seat=N[&all=1] until it is done, the progress shown). The figures
// and reasons come from the server; this page only translates and draws them.
import { t, say, actionText, lang } from "./i18n.js";
import { api } from "./net.js";
import { esc } from "./util.js";

const POLL_MS = 400;

function num(x) {
  return new Intl.NumberFormat(lang(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(x + 0);
}

/** A "Review" button that opens the review dialog of `tableId` (seats named `names`). */
export function reviewButton(tableId, names, seat) {
  const b = document.createElement("button");
  b.className = "big review-open";
  b.id = "review-open";
  b.dataset.i18n = "review.button"; // relabelled with the page (translateStatic)
  b.textContent = t("review.button");
  b.addEventListener("click", () => openReview(tableId, names, typeof seat === "function" ? seat() : seat));
  return b;
}

/** The review dialog: choose the seat and the mode, watch the progress, read the review. */
export function openReview(tableId, names, seat) {
  document.querySelector("#review-dialog")?.remove();
  const box = document.createElement("div");
  box.id = "review-dialog";
  box.className = "review-overlay";
  const me = Number.isInteger(seat) && seat >= 0 ? seat : 0;
  box.innerHTML = `<section class="panel review-panel" role="dialog" aria-modal="true" aria-labelledby="review-h">
    <h1 id="review-h"></h1>
    <p class="review-controls"><select id="review-seat" aria-label="seat">${names.map((n, s) =>
      `<option value="${s}"${s === me ? " selected" : ""}>${esc(n)}</option>`).join("")}</select>
    <label><input type="checkbox" id="review-all"> <span>${esc(t("review.button.all_cards"))}</span></label>
    <button id="review-go" class="primary">${esc(t("review.button"))}</button>
    <button id="review-close">${esc(t("review.close"))}</button></p>
    <div id="review-body" aria-live="polite"></div></section>`;
  document.body.appendChild(box);
  const seatSel = box.querySelector("#review-seat");
  const allBox = box.querySelector("#review-all");
  const body = box.querySelector("#review-body");
  let run = 0;
  const title = () => { box.querySelector("#review-h").textContent = t("review.title", { name: names[Number(seatSel.value)] }); };
  async function go() {
    const mine = ++run;
    title();
    const q = `?seat=${Number(seatSel.value)}${allBox.checked ? "&all=1" : ""}`;
    body.innerHTML = `<p><progress id="review-progress" max="1" value="0"></progress> <span id="review-count"></span></p>`;
    try {
      let st = await api("POST", `/api/tables/${tableId}/review${q}`);
      while (st.state === "running" && mine === run) {
        const bar = body.querySelector("#review-progress");
        if (bar) { bar.max = Math.max(1, st.total); bar.value = st.done; }
        const count = body.querySelector("#review-count");
        if (count) count.textContent = t("review.progress", { done: st.done, total: st.total });
        await new Promise((r) => setTimeout(r, POLL_MS));
        st = await api("GET", `/api/tables/${tableId}/review${q}`);
      }
      if (mine !== run) return;
      if (st.state === "failed") { body.innerHTML = `<p class="error">${esc(say(st.say, names))}</p>`; return; }
      body.innerHTML = reviewHTML(st.review, names);
    } catch (e) {
      if (mine === run) body.innerHTML = `<p class="error">${esc(t("review.failed", { error: e.message }))}</p>`;
    }
  }
  box.querySelector("#review-go").addEventListener("click", go);
  box.querySelector("#review-close").addEventListener("click", () => { run++; box.remove(); });
  seatSel.addEventListener("change", title);
  title();
  go();
}

function decisionRow(d, names) {
  const values = Object.entries(d.values).map(([a, v]) =>
    `<span class="${a === d.best ? "best" : a === d.choice ? "chosen" : ""}">${esc(actionText(a))} ${esc(num(v))}</span>`).join(" ");
  return `<tr class="${d.cost > 0 ? "mistake" : ""}"><td>${d.index}</td><td>${d.hand}</td>` +
    `<td>${esc(actionText(d.choice))}</td><td>${esc(actionText(d.best))}</td>` +
    `<td class="num">${esc(num(d.cost))}</td><td class="values">${values}</td>` +
    `<td>${d.cost > 0 ? esc(say(d.reason, names)) : ""}</td></tr>`;
}

function tableHTML(rows, names, caption) {
  return `<table class="review-table"><caption>${esc(caption)}</caption><thead><tr>` +
    ["review.col.index", "review.col.hand", "review.col.choice", "review.col.best", "review.col.cost",
      "review.col.values", "review.col.reason"].map((k) => `<th>${esc(t(k))}</th>`).join("") +
    `</tr></thead><tbody>${rows.map((d) => decisionRow(d, names)).join("")}</tbody></table>`;
}

/** The review's summary, plot, biggest mistakes and every decision, as HTML. */
export function reviewHTML(r, names) {
  const name = names[r.seat];
  const byIndex = new Map(r.decisions.map((d) => [d.index, d]));
  const mistakes = r.mistakes.map((i) => byIndex.get(i));
  const mode = r.mode === "all_cards"
    ? `<p class="review-mode all-cards">${esc(t("review.mode.all_cards", { name }))}</p>`
    : `<p class="review-mode">${esc(t("review.mode.seat", { name }))}</p>`;
  const summary = `<p class="review-summary">${esc(t("review.summary", {
    decisions: t("review.decisions", { n: r.decisions.length }), n: mistakes.length, cost: num(r.total_cost) }))}</p>`;
  const worst = mistakes.length
    ? tableHTML(mistakes.slice(0, 10), names, t("review.mistakes"))
    : `<p>${esc(t("review.none"))}</p>`;
  return mode + summary + plotSVG(r) + worst +
    `<details><summary>${esc(t("review.all"))}</summary>${tableHTML(r.decisions, names, t("review.all"))}</details>`;
}

/** The seat's lives (a step per hand) and its expected lives after its choice and the best. */
function plotSVG(r) {
  const W = 600, H = 200, P = 28;
  const xs = [...r.lives.map((p) => p.index), ...r.expected.map((p) => p.index)];
  const ys = [...r.lives.map((p) => p.lives), ...r.expected.flatMap((p) => [p.choice, p.best])];
  const x0 = Math.min(...xs, 0), x1 = Math.max(...xs, 1);
  const y0 = Math.min(...ys, 0), y1 = Math.max(...ys, 1);
  const top = Math.ceil(y1), bottom = Math.floor(y0);
  const tick = (y) => new Intl.NumberFormat(lang(), { maximumFractionDigits: 0 }).format(y);
  const X = (x) => P + (W - 2 * P) * (x - x0) / Math.max(1, x1 - x0);
  const Y = (y) => H - P - (H - 2 * P) * (y - bottom) / Math.max(1, top - bottom);
  let step = "";
  r.lives.forEach((p, i) => {
    step += i === 0 ? `M${X(p.index)},${Y(p.lives)}` : `H${X(p.index)}V${Y(p.lives)}`;
  });
  const line = (key) => r.expected.map((p, i) => `${i ? "L" : "M"}${X(p.index).toFixed(1)},${Y(p[key]).toFixed(1)}`).join("");
  return `<figure class="review-plot"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("review.plot.y"))}">` +
    `<line class="axis" x1="${P}" y1="${H - P}" x2="${W - P}" y2="${H - P}"/><line class="axis" x1="${P}" y1="${P}" x2="${P}" y2="${H - P}"/>` +
    `<text class="tick" x="${P - 4}" y="${Y(top) + 4}">${esc(tick(top))}</text><text class="tick" x="${P - 4}" y="${Y(bottom)}">${esc(tick(bottom))}</text>` +
    `<path class="actual" d="${step}"/><path class="best" d="${line("best")}"/><path class="expected" d="${line("choice")}"/></svg>` +
    `<figcaption><span class="key actual">${esc(t("review.plot.actual"))}</span> <span class="key expected">${esc(t("review.plot.expected"))}</span> ` +
    `<span class="key best">${esc(t("review.plot.best"))}</span> (${esc(t("review.plot.x"))})</figcaption></figure>`;
}
