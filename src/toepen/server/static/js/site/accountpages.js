// The accounts' pages by address: /?page=login|register|account|leaderboard, /?player=NAME.
import { showLogin, showAccount } from "./account.js";
import { showProfile } from "./profile.js";
import { showLeaderboard } from "./leaderboard.js";

const PAGES = ["login", "register", "account", "leaderboard"];

/** The accounts' page an address asks for ("profile", "login"...), or null. */
export function accountPage(q) {
  if (q.get("player")) return "profile";
  return PAGES.includes(q.get("page")) ? q.get("page") : null;
}

export async function showAccountPage(app, q) {
  const which = accountPage(q);
  if (which === "profile") return showProfile(app, q.get("player"));
  if (which === "account") return showAccount(app);
  if (which === "leaderboard") return showLeaderboard(app);
  return showLogin(app, which);
}
