// Pot toepen in the browser (docs/rules.md, "Pot toepen"): amounts in cents as the reader
// writes them (pot.amount: 2.50 in English, 2,50 in Dutch), the pot at a table, and an
// evening settled: each player's balance and who pays whom. The server works every figure
// out (the pot, the balances, the transfers); this file only writes them down.
import { t } from "./i18n.js";
import { esc } from "./util.js";

/** An amount in cents with its currency sign (``unit`` may be empty): "€ 2,50". */
export function money(cents, unit = "") {
  const abs = Math.abs(Math.round(cents));
  const amount = t("pot.amount", { whole: Math.floor(abs / 100), frac: String(abs % 100).padStart(2, "0") });
  return unit ? `${unit} ${amount}` : amount;
}

/** The pot as the table shows it: "Pot: € 7,50" (screen.pot). */
export function potText(cents, unit = "") {
  const abs = Math.abs(Math.round(cents));
  return t("screen.pot", { unit, amount: t("pot.amount", { whole: Math.floor(abs / 100), frac: String(abs % 100).padStart(2, "0") }) }).replace(/\s+/g, " ");
}

/** A balance with its sign: "+€ 5,00", "−€ 2,50", "€ 0,00". */
export function signed(cents, unit = "") {
  const sign = cents > 0 ? "+" : cents < 0 ? "\u2212" : "";
  return `${sign}${money(cents, unit)}`;
}

/**
 * The settlement of an evening as HTML: each player's balance (what the pot gave them less
 * what they put in) and the transfers, who pays whom. ``balances``: [[name, cents], ...];
 * ``transfers``: [{payer, payee, cents}] with the names already put in; ``unit``: the
 * currency sign. ``id``: the section's id.
 */
export function settlementHTML(balances, transfers, unit, id) {
  const rows = balances.map(([name, cents]) => `<tr data-cents="${esc(String(cents))}"><th scope="row">${esc(name)}</th>` +
    `<td class="${cents > 0 ? "plus" : cents < 0 ? "minus" : ""}">${esc(signed(cents, unit))}</td></tr>`).join("");
  const pays = transfers.length
    ? `<ul class="pot-transfers">${transfers.map((x) => `<li>${esc(t("web.pot.pays", { payer: x.payer, payee: x.payee, amount: money(x.cents, unit) }))}</li>`).join("")}</ul>`
    : `<p class="pot-transfers none">${esc(t("web.pot.square"))}</p>`;
  return `<section class="pot-settlement" id="${esc(id)}" aria-labelledby="${esc(id)}-h"><h2 id="${esc(id)}-h">${esc(t("web.pot.settlement"))}</h2>` +
    `<table class="pot-balances"><caption>${esc(t("web.pot.balances"))}</caption><tbody>${rows}</tbody></table>` +
    `<h3>${esc(t("web.pot.who_pays"))}</h3>${pays}</section>`;
}
