// Bot levels: what the seat menus offer (a level's name and its one line, from the catalogs'
// level.<name> and level.<name>.about) and what a bot seat's kind is called. The levels and
// their bots are the server's (GET /api/presets: levels, external); nothing is decided here.
import { t } from "./i18n.js";

let levels = [];

/** The values a seat menu offers: the levels (weakest first), then by name the bots that
 * play at no level (the operator's programs, the old random bot). */
export function botMenu(meta) {
  levels = Array.isArray(meta.levels) ? meta.levels : [];
  const others = (meta.bots || []).filter((b) => !levels.some((lv) => lv.bot === b));
  return [...levels.map((lv) => lv.name), ...others];
}

/** A menu value's label: a level's name and its line, else the program's name. */
export function botLabel(value) {
  const lv = levels.find((l) => l.name === value);
  return lv ? `${t(`level.${lv.name}`)} – ${t(`level.${lv.name}.about`)}` : `${t("web.bot")}: ${value}`;
}

/** Whether a menu value plays as bot (a level by its bot, anything else by its name). */
export function playsAs(value, bot) {
  const lv = levels.find((l) => l.name === value);
  return lv ? lv.bot === bot : value === bot;
}

/** What a bot seat's kind is called: its level's name where it has one, else the bot's name. */
export function botKind(seat) {
  return seat.level ? t(`level.${seat.level}`) : seat.bot || "";
}
