// A table's own rule sets: the lobby's preset and options saved under a name in this
// browser, and offered again (a group keeps its house rules). The rules themselves stay
// the server's: a saved set is only what the form sends, and the server validates it.
import { t } from "./i18n.js";
import { esc } from "./util.js";
import { fieldValue, fieldText } from "./options.js";

const KEY = "toepen.rulesets";

/** The saved rule sets: name -> {preset, options}. */
export function savedRuleSets() {
  try {
    const sets = JSON.parse(localStorage.getItem(KEY) || "{}");
    return sets && typeof sets === "object" && !Array.isArray(sets) ? sets : {};
  } catch { return {}; }
}

/** The form's rule options as the table request sends them (empty fields: as the preset says). */
export function formOptions(form) {
  const options = {};
  for (const el of form.querySelectorAll("[data-option]")) {
    if (el.value === "") continue;
    options[el.dataset.option] = fieldValue(el);
  }
  return options;
}

/** The controls: a menu of the saved sets, a name and a save button. */
export function ruleSetControls() {
  return `<fieldset class="rulesets"><legend data-i18n="web.house.rulesets"></legend>
    <label><span data-i18n="web.house.use"></span> <select id="ruleset"></select></label>
    <label><span data-i18n="web.house.name"></span> <input id="ruleset-name" maxlength="40" autocomplete="off"></label>
    <button type="button" class="small" id="ruleset-save" data-i18n="web.house.save"></button>
  </fieldset>`;
}

/** Wire the controls of ``form``: choosing a set fills the preset and the options; saving
 * stores the form's. ``onPreset`` redraws what depends on the preset (sizes, seats). */
export function attachRuleSets(form, onPreset, notify) {
  const menu = form.querySelector("#ruleset");
  const draw = () => {
    const names = Object.keys(savedRuleSets()).sort();
    menu.innerHTML = `<option value="">${esc(t("web.house.none"))}</option>`
      + names.map((n) => `<option value="${esc(n)}">${esc(n)}</option>`).join("");
  };
  draw();
  menu.addEventListener("change", () => {
    const set = savedRuleSets()[menu.value];
    if (!set) return;
    if ([...form.preset.options].some((o) => o.value === set.preset)) {
      form.preset.value = set.preset;
      onPreset();
    }
    for (const el of form.querySelectorAll("[data-option]")) {
      const v = (set.options || {})[el.dataset.option];
      el.value = fieldText(el, v);
    }
    form.querySelector("#ruleset-name").value = menu.value;
  });
  form.querySelector("#ruleset-save").addEventListener("click", () => {
    const name = form.querySelector("#ruleset-name").value.trim();
    if (!name) { notify(t("web.house.need_name")); return; }
    const sets = savedRuleSets();
    sets[name] = { preset: form.preset.value, options: formOptions(form) };
    localStorage.setItem(KEY, JSON.stringify(sets));
    draw();
    menu.value = name;
    notify(t("web.house.saved", { name }));
  });
}

/** A table's rules (a record's ``rules``: a preset name, or the preset and the options
 * that differ from it) as a list a joiner reads before sitting down: the preset, then each
 * option changed, by its localised line and value. */
export function rulesList(rules) {
  const data = typeof rules === "string" ? { preset: rules } : (rules || {});
  const item = (label, value) => `<li><span data-i18n="${esc(label)}"></span>${value}</li>`;
  const items = [item(`preset.${data.preset}`, "")];
  for (const [name, v] of Object.entries(data)) {
    if (name === "preset") continue;
    let value;
    if (typeof v === "boolean") value = `<span data-i18n="${v ? "web.yes" : "web.no"}"></span>`;
    else if (typeof v === "string") value = `<span data-i18n="${esc(`option.${name}.${v}`)}"></span>`;
    else value = esc(Array.isArray(v) ? v.join(", ") : v === null ? "-" : String(v));
    items.push(item(`option.${name}`, `: ${value}`));
  }
  return `<ul class="table-rules" id="table-rules">${items.join("")}</ul>`;
}
