// The review of a finished game: every decision of one seat with the expected lives of each
// legal action, valued in the server's bot pool from what that seat knew (POST, then GET
// /api/tables/{id}/review?seat=N[&all=1] until it is done, the progress shown). The figures
// and reasons come from the server; this page only translates and draws them.
import { t, say, actionText, lang } from "../ui/i18n.js";
import { api } from "../net/http.js";
import { esc } from "../ui/util.js";

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

/** One decision as a card: named as players think of it ("Hand 3, trick 2"), what was
 * played and the best, the lives it cost, the reason, every action's value. */
function decisionCard(d, names, wrong) {
  const bad = wrong.has(d.index);
  const values = Object.entries(d.values).map(([a, v]) =>
    `<span class="${a === d.best ? "best" : a === d.choice ? "chosen" : ""}">${esc(actionText(a))} ${esc(num(v))}</span>`).join(" ");
  const cost = bad ? `<span class="review-cost"><span class="lbl">${esc(t("review.col.cost"))}</span> ${esc(num(d.cost))}</span>` : "";
  const best = d.best !== d.choice
    ? ` <span class="review-move"><span class="lbl">${esc(t("review.col.best"))}</span> ${esc(actionText(d.best))}</span>` : "";
  return `<li class="review-card${bad ? " mistake" : ""}" data-index="${d.index}" data-hand="${d.hand}">` +
    `<p class="review-head"><span class="review-at">${esc(say(d.at, names))}</span> ${cost}</p>` +
    `<p class="review-moves"><span class="review-move"><span class="lbl">${esc(t("review.col.choice"))}</span> ${esc(actionText(d.choice))}</span>${best}</p>` +
    (bad ? `<p class="review-why"><span class="lbl">${esc(t("review.col.reason"))}</span> ${esc(say(d.reason, names))}</p>` : "") +
    `<p class="review-values"><span class="lbl">${esc(t("review.col.values"))}</span> ${values}</p></li>`;
}

function cardsHTML(rows, names, caption, wrong) {
  return `<section class="review-list"><h2>${esc(caption)}</h2><ol class="review-cards">` +
    `${rows.map((d) => decisionCard(d, names, wrong)).join("")}</ol></section>`;
}

/** How many decisions, how many mistakes, and the lives they cost in all. */
function summaryText(r, mistakes) {
  const decisions = t("review.decisions", { n: r.decisions.length });
  if (!mistakes.length) return t("review.clean", { decisions });
  const cost = mistakes.reduce((sum, d) => sum + d.cost, 0);
  return t("review.summary", { decisions, n: mistakes.length, cost: num(cost) });
}

/** The review's summary, plot, biggest mistakes and every decision, as HTML. */
export function reviewHTML(r, names) {
  const name = names[r.seat];
  const byIndex = new Map(r.decisions.map((d) => [d.index, d]));
  const mistakes = r.mistakes.map((i) => byIndex.get(i));
  const wrong = new Set(r.mistakes);
  const mode = r.mode === "all_cards"
    ? `<p class="review-mode all-cards">${esc(t("review.mode.all_cards", { name }))}</p>`
    : `<p class="review-mode">${esc(t("review.mode.seat", { name }))}</p>`;
  const summary = `<p class="review-summary">${esc(summaryText(r, mistakes))}</p>`;
  const worst = mistakes.length ? cardsHTML(mistakes.slice(0, 10), names, t("review.mistakes"), wrong) : "";
  return mode + summary + plotSVG(r) + worst +
    `<details class="review-every"><summary>${esc(t("review.all"))}</summary>${cardsHTML(r.decisions, names, t("review.all"), wrong)}</details>`;
}

/** The seat's lives (a step per hand) and its expected lives after its choice and the best,
 * against its decisions in order (decision k at x = k), the hands marked: a line between
 * two hands and each hand's number under its decisions (as tools/review_plot.py). */
function plotSVG(r) {
  const W = 400, H = 190, L = 26, R = 8, T = 10, B = 24;
  const n = r.decisions.length;
  const at = (index) => r.decisions.filter((d) => d.index <= index).length + 0.5;
  const lives = r.lives.map((p) => ({ x: p.index === 0 ? 0.5 : at(p.index), y: p.lives }));
  const ys = [...lives.map((p) => p.y), ...r.expected.flatMap((p) => [p.choice, p.best])];
  const top = Math.ceil(Math.max(...ys, 1)), bottom = Math.floor(Math.min(...ys, 0));
  const tick = (y) => new Intl.NumberFormat(lang(), { maximumFractionDigits: 0 }).format(y);
  const X = (x) => L + (W - L - R) * x / (n + 1);
  const Y = (y) => T + (H - T - B) * (top - y) / Math.max(1, top - bottom);
  const f = (v) => v.toFixed(1);
  let step = "";
  lives.forEach((p, i) => { step += i === 0 ? `M${f(X(p.x))},${f(Y(p.y))}` : `H${f(X(p.x))}V${f(Y(p.y))}`; });
  const line = (key) => r.expected.map((p, i) => `${i ? "L" : "M"}${f(X(i + 1))},${f(Y(p[key]))}`).join("");
  // the hands: a line between two, each number under the middle of its decisions
  const spans = new Map();
  let bounds = "";
  r.decisions.forEach((d, i) => {
    if (i && d.hand !== r.decisions[i - 1].hand) bounds += `<line class="hand-bound" x1="${f(X(i + 0.5))}" y1="${T}" x2="${f(X(i + 0.5))}" y2="${H - B}"/>`;
    const s = spans.get(d.hand) || [i + 1, i + 1];
    spans.set(d.hand, [s[0], i + 1]);
  });
  let labels = "", last = -Infinity;
  for (const [hand, [a, b]] of spans) {
    const x = X((a + b) / 2);
    if (x - last < 16) continue; // too close to the last number shown: skipped
    labels += `<text class="hand-no" x="${f(x)}" y="${H - B + 13}">${esc(tick(hand))}</text>`;
    last = x;
  }
  return `<figure class="review-plot"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("review.plot.y"))}">` +
    bounds +
    `<line class="axis" x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}"/><line class="axis" x1="${L}" y1="${T}" x2="${L}" y2="${H - B}"/>` +
    `<text class="tick" x="${L - 4}" y="${f(Y(top) + 4)}">${esc(tick(top))}</text><text class="tick" x="${L - 4}" y="${f(Y(bottom))}">${esc(tick(bottom))}</text>` +
    labels +
    `<path class="actual" d="${step}"/><path class="best" d="${line("best")}"/><path class="expected" d="${line("choice")}"/></svg>` +
    `<figcaption><span class="key actual">${esc(t("review.plot.actual"))}</span> <span class="key expected">${esc(t("review.plot.expected"))}</span> ` +
    `<span class="key best">${esc(t("review.plot.best"))}</span> <span class="key-x">(${esc(t("review.plot.x"))})</span></figcaption></figure>`;
}
