// Small helpers every page shares (one copy of each).

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe to put into HTML. */
export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** A function that runs `f` once and hands every caller the same promise. */
export function once(f) {
  let p = null;
  return () => (p ||= f());
}
