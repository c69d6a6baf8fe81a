// The rules page (/?rules): every preset and option in the page's language, from the
// server's GET /api/presets (the page holds no rule of its own), and the first-game guide:
// what each decision asks (web.guide.<phase>, the phases as the catalogs name them).
import { t, has } from "../ui/i18n.js";
import { presets } from "../net/http.js";
import { esc } from "../ui/util.js";

/** The decisions a first game meets, in the order it meets them (display order only). */
const GUIDE = ["deal", "blind", "blind_answer", "claim", "claim_challenge", "exchange",
  "exchange_challenge", "kans", "laundry", "laundry_challenge", "play", "answer", "over"];

function valueText(o, v) {
  if (v === null || v === undefined) return t("web.default");
  if (o.type === "bool") return t(v ? "web.yes" : "web.no");
  if (o.type === "choice" && has(`${o.about}.${v}`)) return t(`${o.about}.${v}`);
  return Array.isArray(v) ? v.join(", ") : String(v);
}

export async function showRules(app) {
  const meta = await presets();
  let chosen = new URLSearchParams(location.search).get("preset") || meta.presets[0].name;
  function draw() {
    const p = meta.presets.find((x) => x.name === chosen) || meta.presets[0];
    const rows = meta.options.map((o) => `<tr data-option="${esc(o.name)}"><th scope="row">${esc(t(o.about))}</th>` +
      `<td>${esc(valueText(o, p.rules[o.name]))}</td></tr>`).join("");
    const tabs = meta.presets.map((x) => `<button class="small${x.name === p.name ? " primary" : ""}" data-preset="${esc(x.name)}" aria-pressed="${x.name === p.name}">${esc(t(x.label))}</button>`).join(" ");
    const guide = GUIDE.filter((ph) => has(`web.guide.${ph}`))
      .map((ph) => `<dt>${esc(t(`phase.${ph}`, { name: "…" }))}</dt><dd>${esc(t(`web.guide.${ph}`))}</dd>`).join("");
    app.innerHTML = `<section class="panel rules-page"><h1>${esc(t("web.rules_title"))}</h1><p>${esc(t("web.rules_intro"))}</p>` +
      `<div class="preset-tabs">${tabs}</div>` +
      `<h2>${esc(t(p.label))}</h2><p class="about">${esc(t(p.about))}</p>` +
      `<p>${esc(t("web.rules_sizes", { sizes: p.sizes.join(", "), lives: p.lives }))}</p>` +
      `<table class="options"><caption>${esc(t("web.rules_options"))} (${esc(t("web.rules_value"))})</caption>${rows}</table></section>` +
      `<section class="panel guide"><h2>${esc(t("web.guide_title"))}</h2><dl>${guide}</dl></section>`;
    for (const b of app.querySelectorAll("[data-preset]")) b.addEventListener("click", () => { chosen = b.dataset.preset; draw(); });
  }
  draw();
  return { relabel: draw };
}
