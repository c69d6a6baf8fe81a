// What keeps a page from being read on a window (tests/web/test_every_page.py); opts:
// {phone: a phone's window (buttons at least 44 px tall, the header one row), main: the
// selector of the page's main action}. Answers a list of sentences, empty when all is well.
(opts) => {
  const out = [];
  scrollTo(0, 0);
  const W = innerWidth, H = innerHeight;
  const r = (el) => el.getBoundingClientRect();
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\s+/).join(".") : "")
    + ` "${(el.textContent || el.value || "").trim().replace(/\s+/g, " ").slice(0, 30)}"`;
  const visible = (el) => { const b = r(el); return el.getClientRects().length && b.width > 0 && b.height > 0
    && getComputedStyle(el).visibility !== "hidden"; };
  const doc = document.scrollingElement;
  if (doc.scrollWidth > W + 1) out.push(`the page scrolls sideways (${doc.scrollWidth} > ${W})`);
  // text cut off (an ellipsis, a clamp of lines) with no way to read the rest: a title
  // (on it or around it) or a tap that expands it (aria-expanded)
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("svg") || el.matches("select, input, textarea, option") || !visible(el)) continue;
    const st = getComputedStyle(el);
    const clamp = st.webkitLineClamp && st.webkitLineClamp !== "none";
    if (st.textOverflow !== "ellipsis" && !clamp) continue;
    const cut = st.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1
      || clamp && el.scrollHeight > el.clientHeight + 1;
    if (!cut || !el.textContent.trim()) continue;
    if (el.closest("[title]:not([title=''])") || el.closest("[aria-expanded]")) continue;
    out.push(`cut off, no way to read it: ${name(el)}`);
  }
  if (opts.phone) {
    for (const el of document.querySelectorAll("button, .button, [role=button]")) {
      if (!visible(el)) continue;
      const h = r(el).height;
      if (h < 43.5) out.push(`a button ${Math.round(h)} px tall: ${name(el)}`);
    }
    // the header is one row: every part of it crosses one line
    const top = document.querySelector(".topbar");
    const parts = top && visible(top) ? [...top.children].filter(visible).map(r) : [];
    if (parts.length) {
      const lo = Math.max(...parts.map((b) => b.top)), hi = Math.min(...parts.map((b) => b.bottom));
      if (lo >= hi) out.push(`the header takes more than one row (${Math.round(r(top).height)} px)`);
    }
  }
  if (opts.main) {
    const main = [...document.querySelectorAll(opts.main)].find(visible);
    if (!main) out.push(`no main action (${opts.main})`);
    else {
      const b = r(main);
      if (b.top < -1 || b.bottom > H + 1 || b.left < -1 || b.right > W + 1) {
        out.push(`the main action is not on the first screen: ${name(main)} (${Math.round(b.left)},${Math.round(b.top)} to ${Math.round(b.right)},${Math.round(b.bottom)})`);
      }
    }
  }
  return out;
}
