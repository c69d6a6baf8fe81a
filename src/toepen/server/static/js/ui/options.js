// The lobby's "More options": one field per rule option (from GET /api/presets), each left
// empty to keep the chosen preset's value, which the field shows (a number as the field's
// placeholder, a choice as the menu's first entry: "4 (preset)"), so that the form says
// what the table will play without anyone looking the preset up.
import { t } from "./i18n.js";
import { esc } from "./util.js";

/** One rule option as a form field: a whole number, a decimal (pot toepen's stake, ``number``
 * with its ``step``), a short text (the pot's currency sign, ``text``), or a choice (yes/no
 * for a switch); empty means "as the preset says" ({@link showPresetValues} writes the
 * preset's value in). */
export function optionField(o) {
  const id = `opt_${o.name}`;
  const label = `<span data-i18n="${esc(o.about)}"></span>`;
  if (o.type === "int" || o.type === "int_or_null") {
    // a value the lobby suggests (the pub's stake cap of 4) is offered beside the field
    const list = o.suggested != null ? ` list="${id}_suggested"` : "";
    const sugg = o.suggested != null ? `<datalist id="${id}_suggested"><option value="${esc(String(o.suggested))}"></option></datalist>` : "";
    return `<label>${label} <input type="number" min="${esc(String(o.min))}" max="${esc(String(o.max))}" name="${id}" id="${id}" data-option="${esc(o.name)}" data-type="int"${list}>${sugg}</label>`;
  }
  if (o.type === "number") {
    const step = o.step != null ? String(o.step) : "any";
    return `<label>${label} <input type="number" inputmode="decimal" min="${esc(String(o.min))}" max="${esc(String(o.max))}" step="${esc(step)}" name="${id}" id="${id}" data-option="${esc(o.name)}" data-type="number"></label>`;
  }
  if (o.type === "text") {
    const max = o.max_length != null ? ` maxlength="${esc(String(o.max_length))}"` : "";
    return `<label>${label} <input type="text"${max} autocomplete="off" name="${id}" id="${id}" data-option="${esc(o.name)}" data-type="text"></label>`;
  }
  if ((o.type === "choice" || o.type === "bool") && Array.isArray(o.choices)) {
    const opts = o.choices.map((c) => `<option value="${esc(JSON.stringify(c))}" data-i18n="${esc(choiceWords(o, c))}"></option>`).join("");
    return `<label>${label} <select name="${id}" id="${id}" data-option="${esc(o.name)}" data-type="json"><option value="" data-preset-value></option>${opts}</select></label>`;
  }
  return ""; // table sizes: the size menu above
}

function choiceWords(o, c) { return o.type === "bool" ? (c ? "web.yes" : "web.no") : `${o.about}.${c}`; }

/** An option's value in words: yes/no, the choice's words, a number, a text, or "none" (no cap). */
function valueText(o, v) {
  if (o.type === "text") return String(v ?? "");
  if (v === null || v === undefined) return t("web.option.none");
  if (o.type === "bool" || o.type === "choice") return t(choiceWords(o, v));
  return String(v);
}

/** Write the preset's value into every empty field of ``form``: the number fields'
 * placeholders and the first entry of each menu. ``chosen``: the preset of GET /api/presets. */
export function showPresetValues(form, chosen, options) {
  const rules = (chosen && chosen.rules) || {};
  for (const o of options) {
    const el = form.querySelector(`[data-option="${o.name}"]`);
    if (!el || !(o.name in rules)) continue;
    const words = valueText(o, rules[o.name]);
    if (el.tagName === "INPUT") {
      el.placeholder = words;
      el.title = t("web.option.preset_value", { value: words });
    } else {
      el.querySelector("option[data-preset-value]").textContent = t("web.option.preset_value", { value: words });
    }
  }
}

/** Each lives field beside a preset menu (``#X-preset`` and ``#X-lives``), left empty, takes
 * the chosen preset's lives: the field shows how many (``meta``: GET /api/presets). */
export function followPresetLives(root, meta) {
  for (const sel of root.querySelectorAll("select[id$='-preset']")) {
    const field = root.querySelector(`#${sel.id.slice(0, -"-preset".length)}-lives`);
    if (!field) continue;
    const show = () => {
      const p = (meta.presets || []).find((x) => x.name === sel.value);
      field.placeholder = p ? String(p.lives) : "";
    };
    sel.addEventListener("change", show);
    show();
  }
}

/** A field's value as the request sends it (``data-type``: int and number as numbers, text
 * as typed, a menu's entry as its JSON). */
export function fieldValue(el) {
  const type = el.dataset.type;
  if (type === "int" || type === "number") return Number(el.value);
  if (type === "text") return el.value;
  return JSON.parse(el.value);
}

/** A value as a field of ``data-type`` shows it (the inverse of {@link fieldValue}). */
export function fieldText(el, v) {
  if (v === undefined) return "";
  const type = el.dataset.type;
  if (type === "int" || type === "number" || type === "text") return String(v);
  return JSON.stringify(v);
}
