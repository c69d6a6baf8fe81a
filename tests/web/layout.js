// What is wrong with a page as laid out now (tests/web/layout.py: problems()); kind is
// table, result, waiting or tally. Answers a list of sentences, empty when all is well.
(kind) => {
  const out = [];
  scrollTo(0, 0);
  const W = innerWidth, H = innerHeight;
  const r = (el) => el.getBoundingClientRect();
  const name = (el) => (el.id ? "#" + el.id : "") + "." + String(el.className.baseVal ?? el.className).trim().split(/\s+/).join(".")
    + (el.dataset && el.dataset.seat !== undefined ? `[seat ${el.dataset.seat}]` : "")
    + ` "${(el.textContent || "").trim().slice(0, 30)}"`;
  const visible = (el) => { const b = r(el); return el.getClientRects().length && b.width > 0 && b.height > 0
    && getComputedStyle(el).visibility !== "hidden"; };
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const all = (sel, root = document) => [...root.querySelectorAll(sel)].filter(visible);
  const win = { left: 0, top: 0, right: W, bottom: H };
  const doc = document.scrollingElement;
  if (doc.scrollWidth > W + 1) out.push(`the page scrolls sideways (${doc.scrollWidth} > ${W})`);
  // the header is one row: every part of it crosses one line
  const top = document.querySelector(".topbar");
  const parts = [...top.children].filter(visible).map(r);
  if (parts.length && kind !== "tally") {
    const lo = Math.max(...parts.map((b) => b.top)), hi = Math.min(...parts.map((b) => b.bottom));
    if (lo >= hi) out.push(`the header takes more than one row (${Math.round(r(top).height)} px)`);
  }
  for (const el of [top, ...top.children].filter(visible)) {
    if (r(el).left < -1 || r(el).right > W + 1) out.push(`outside the window: ${name(el)}`);
  }
  // no text runs out of its box, nothing is cut
  const textBoxes = "button, .button, .badge, .seat, .seat-name, .seat-lives, .centre, .prompt, .summary, h1, h2, "
    + ".scoresheet, .standings, .result-panel, .invite, .settings, .chat-box, .tally-seat, .tally-tools, .tally-follow, "
    + ".waiting, .seatlist li, select, .navlink, .acct-nav a";
  for (const el of all(textBoxes)) {
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "auto") out.push(`text runs out of ${name(el)} (${el.scrollWidth} > ${el.clientWidth})`);
  }
  // a label on a seat, a badge or a link's words: never broken over two lines (the boxes
  // of one line share a band of height; a box wholly below the others starts a new line)
  const lines = (rects) => {
    let n = 0, bottom = -Infinity;
    for (const b of rects.filter((b) => b.width > 0).sort((a, b) => a.top - b.top)) {
      if (b.top >= bottom - 2) { n++; bottom = b.bottom; } else bottom = Math.max(bottom, b.bottom);
    }
    return n;
  };
  const oneLine = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return lines([...range.getClientRects()]) <= 1;
  };
  for (const el of all(".seat-name, .seat .lives, .seat .clock, .stake, .handno, .actions button")) {
    if (!oneLine(el)) out.push(`wraps: ${name(el)}`);
  }
  for (const el of all(".tally-follow, .tally-tools a, .tally-tools button, .badge")) {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (n.parentElement.closest("a[href^='http']")) continue; // a link's address may break anywhere
      for (const m of n.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(n, m.index); range.setEnd(n, m.index + m[0].length);
        if (lines([...range.getClientRects()]) > 1) out.push(`a word broken over two lines: "${m[0]}"`);
      }
    }
  }
  // the standings are numbered once: the server's lines hold the place
  for (const li of all(".standings li")) {
    if (getComputedStyle(li).display === "list-item" && getComputedStyle(li).listStyleType !== "none") out.push(`numbered twice: ${name(li)}`);
  }
  if (kind === "table") {
    const felt = document.querySelector(".felt");
    const f = r(felt);
    const boxes = [...all(".felt .seat"), ...all(".felt .centre"), ...all(".felt .trick-card"),
      ...all(".main-col .prompt"), ...all(".main-col .actions"), ...all(".main-col .hand")];
    for (const el of [felt, ...boxes, ...all(".hand .card"), ...all(".actions button"), ...all(".felt .summary")]) {
      if (!inside(r(el), win)) out.push(`outside the window: ${name(el)}`);
    }
    for (const el of [...all(".felt .seat"), ...all(".felt .centre"), ...all(".felt .trick-card"), ...all(".felt .summary")]) {
      if (!inside(r(el), f)) out.push(`outside the felt: ${name(el)}`);
    }
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i], b = boxes[j];
        if (a.classList.contains("trick-card") && b.classList.contains("trick-card")) continue; // the trick is a pile
        if (meets(r(a), r(b))) out.push(`overlap: ${name(a)} and ${name(b)}`);
      }
    }
    for (const el of all(".felt .trick-card")) {
      if (r(el).width < 30) out.push(`a card too small to read (${Math.round(r(el).width)} px): ${name(el)}`);
    }
    for (const el of all(".felt .summary")) {
      for (const b of all(".main-col .prompt, .main-col .actions, .main-col .hand")) {
        if (meets(r(el), r(b))) out.push(`overlap: ${name(el)} and ${name(b)}`);
      }
    }
  }
  if (kind === "result") {
    const panel = document.querySelector(".result-panel");
    if (!panel || !visible(panel)) out.push("no result dialog");
    else {
      const p = r(panel);
      if (p.left < -1 || p.right > W + 1) out.push(`the result dialog is wider than the window`);
      if (panel.scrollWidth > panel.clientWidth + 1) out.push(`the result dialog scrolls sideways (${panel.scrollWidth} > ${panel.clientWidth})`);
      for (const el of all(".result-panel th, .result-panel td, .result-panel li, .result-panel button, .result-panel .button")) {
        if (r(el).right > p.right + 1 || r(el).left < p.left - 1) out.push(`cut by the dialog: ${name(el)}`);
      }
      const cells = all(".result-panel th, .result-panel td");
      for (let i = 0; i < cells.length; i++) for (let j = i + 1; j < cells.length; j++) {
        if (meets(r(cells[i]), r(cells[j]))) out.push(`overlap: ${name(cells[i])} and ${name(cells[j])}`);
      }
    }
  }
  if (kind === "waiting" || kind === "tally") {
    const root = document.querySelector(kind === "waiting" ? ".tablepage" : "main");
    for (const el of all("button, .button, a, input, select, li, th, td, h1, h2, p", root)) {
      if (el.closest(".tally-scroll") && !el.closest(".tally-scroll").matches(".fits")) continue;
      const b = r(el);
      if (b.left < -1 || b.right > W + 1) out.push(`outside the window: ${name(el)}`);
    }
    const buttons = all("button, .button", root);
    for (let i = 0; i < buttons.length; i++) for (let j = i + 1; j < buttons.length; j++) {
      if (meets(r(buttons[i]), r(buttons[j]))) out.push(`overlap: ${name(buttons[i])} and ${name(buttons[j])}`);
    }
  }
  if (kind === "tally") {
    // the sheet itself: every player's column readable, or the sheet scrolls inside its own box
    for (const box of all(".tally-scroll")) {
      const table = box.querySelector(".tally-table");
      const players = table.querySelectorAll("thead th").length - 3; // #, dealer, stake
      if (table.scrollWidth > box.clientWidth + 1 && players <= 4) out.push(`the sheet of ${players} players does not fit (${table.scrollWidth} > ${box.clientWidth})`);
      if (r(box).right > W + 1) out.push("the sheet's box is wider than the window");
      for (const th of table.querySelectorAll("thead th")) {
        if (th.scrollWidth > th.clientWidth + 1) out.push(`a name is cut: ${name(th)}`);
      }
    }
  }
  return out;
}
