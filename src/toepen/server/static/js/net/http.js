// JSON over HTTP: the one helper every page asks the server through, and the one wording of
// what went wrong (docs/web.md, "When a request fails"). The server's refusal is shown as its
// catalog message (say); without one, what failed picks the message: no network, an answer
// that is not JSON, a refusal, the server's own fault. The server's English detail is for
// programs and logs, never shown.
import { t, say, has } from "../ui/i18n.js";
import { once } from "../ui/util.js";

let me = null;

/** {user: {name, kind, since} | null, csrf}: asked of the server once per page (fresh: again,
 * after logging in or out). The session cookie is HTTP-only: the page sees only the CSRF
 * token that GET /api/account hands out (docs/accounts.md). */
export async function account(fresh = false) {
  if (!me || fresh) {
    try { me = await api("GET", "/api/account", undefined, { cache: "no-store" }); } catch { me = null; }
    if (!me || typeof me !== "object") me = { user: null, csrf: "" };
  }
  return me;
}

/** A request that failed. kind: "network" (no answer), "unreadable" (an answer that is not
 * JSON), "refused" (4xx), "server" (5xx); status (0 without an answer), code and say (the
 * server's error id and catalog message, if it sent them), detail (its English words). */
export class RequestError extends Error {
  constructor(message, kind, status = 0, data = null) {
    super(message);
    this.name = "RequestError";
    this.kind = kind;
    this.status = status;
    this.code = data && typeof data.code === "string" ? data.code : null;
    this.say = data && data.say && typeof data.say.id === "string" ? data.say : null;
    this.detail = data ? data.detail ?? null : null;
  }
}

/** The words of an error answer (its body data, its HTTP status) in the page's language:
 * the server's catalog message; else the catalog message of its error code (error.<code>);
 * else by status. names: the players' names, for a message that names seats. */
export function errorText(data, status, names = []) {
  if (data && data.say && typeof data.say.id === "string" && has(data.say.id)) return say(data.say, names);
  if (data && typeof data.code === "string" && has(`error.${data.code}`)) return t(`error.${data.code}`);
  if (status >= 500) return t("error.server_error");
  if (status === 404) return t("web.error.not_found");
  if (status === 422) return t("error.bad_message");
  if (status === 429) return t("error.rate_limited");
  return t("error.bad_command");
}

/**
 * method path -> the answer's JSON (null for an empty answer); throws a RequestError whose
 * message is the one wording above. opts: token (Authorization: Bearer: a seat's, a ticket,
 * a key), cache (fetch's), names (for errorText). A request that changes something carries
 * this browser's CSRF token (GET /api/account), which accounts' and clubs' endpoints need.
 */
export async function api(method, path, body, { token, cache, names } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method !== "GET" && method !== "HEAD") headers["X-CSRF-Token"] = (await account()).csrf || "";
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  if (cache) init.cache = cache;
  let r, text;
  try {
    r = await fetch(path, init);
    text = await r.text();
  } catch {
    throw new RequestError(t("web.error.network"), "network");
  }
  let data = null;
  let readable = true;
  if (text !== "") {
    try { data = JSON.parse(text); } catch { readable = false; }
  }
  if (r.ok && readable) return data;
  if (r.ok) throw new RequestError(t("web.error.unreadable"), "unreadable", r.status);
  throw new RequestError(errorText(data, r.status, names), r.status >= 500 ? "server" : "refused", r.status, data);
}

/** GET /api/presets, once: {presets: [{name, label, about, sizes, lives, rules}], options:
 * [{name, type, choices, default, about}], sizes, bots, default_bot}. The rules' facts. */
export const presets = once(() => api("GET", "/api/presets"));
