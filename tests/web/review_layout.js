// What is wrong with the open review dialog as laid out now (tests/web/test_review_phone.py):
// a list of sentences, empty if all is well. Rows are the review's cards (or a table's rows).
() => {
  const out = [];
  const W = innerWidth;
  const doc = document.scrollingElement;
  if (doc.scrollWidth > W) out.push(`the page scrolls sideways (${doc.scrollWidth} > ${W})`);
  const panel = document.querySelector(".review-panel");
  if (panel.scrollWidth > panel.clientWidth + 1) out.push(`the review scrolls sideways (${panel.scrollWidth} > ${panel.clientWidth})`);
  const shown = (el) => el.getClientRects().length > 0;
  const rows = [...document.querySelectorAll("#review-body .review-card, #review-body tr")].filter(shown);
  if (!rows.length) out.push("no decision shown");
  const name = (el) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent || "").trim().slice(0, 40)}"`;
  for (const row of rows) {
    for (const el of [row, ...row.querySelectorAll("*")].filter(shown)) {
      const b = el.getBoundingClientRect();
      if (b.left < -1 || b.right > W + 1) out.push(`outside the window: ${name(el)}`);
      if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) out.push(`cut: ${name(el)}`);
    }
  }
  // no word broken over two lines: each word's boxes lie on one line
  const texts = "#review-body .review-why, #review-body .review-at, #review-body .review-moves, "
    + "#review-body .review-values, #review-body figcaption, #review-body .review-summary, "
    + "#review-body td, #review-body th";
  for (const el of [...document.querySelectorAll(texts)].filter(shown)) {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (const m of n.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(n, m.index); range.setEnd(n, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) out.push(`a word broken over two lines: "${m[0]}" in ${name(el)}`);
      }
    }
  }
  return out;

}
