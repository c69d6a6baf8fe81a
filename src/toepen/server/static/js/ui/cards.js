// SVG card art, drawn in code: pips for 7-10, a large pip for the ace, framed court cards.
import { parseCard, rankText, suitSymbol, cardName } from "./i18n.js";
import { esc } from "./util.js";

const COLOURS = ["#1d1d1f", "#c0262d", "#c0262d", "#1d1d1f"];
const PIPS = {
  0: [[35, 30], [65, 30], [50, 46], [35, 58], [65, 58], [35, 82], [65, 82], [50, 94], [35, 110], [65, 110]],
  1: [[35, 30], [65, 30], [35, 57], [65, 57], [50, 70], [35, 83], [65, 83], [35, 110], [65, 110]],
  2: [[35, 30], [65, 30], [50, 50], [35, 70], [65, 70], [50, 90], [35, 110], [65, 110]],
  3: [[35, 30], [65, 30], [50, 50], [35, 70], [65, 70], [35, 110], [65, 110]],
};

/** The face of a card ("Th") as an SVG string. */
export function cardSVG(card) {
  const { suit, rank } = parseCard(card);
  const sym = suitSymbol(card);
  const col = COLOURS[suit];
  const r = esc(rankText(card));
  const small = r.length > 1 ? 17 : 20;
  let body = "";
  if (rank in PIPS) {
    for (const [x, y] of PIPS[rank]) {
      body += `<text x="${x}" y="${y + 6}" font-size="22" text-anchor="middle">${sym}</text>`;
    }
  } else if (rank === 4) {
    body = `<text x="50" y="88" font-size="54" text-anchor="middle">${sym}</text>`;
  } else {
    body = `<rect x="22" y="26" width="56" height="88" rx="5" fill="#fbf3dc" stroke="${col}" stroke-width="1.5"/>` +
      `<path d="M36 46 l5 -10 l5 8 l4 -10 l4 10 l5 -8 l5 10 z" fill="#d9a520" stroke="#8a6a10" stroke-width="1"/>` +
      `<text x="50" y="84" font-size="34" font-weight="700" text-anchor="middle" font-family="Georgia, serif">${r}</text>` +
      `<text x="50" y="106" font-size="18" text-anchor="middle">${sym}</text>`;
  }
  return `<svg class="card-svg" viewBox="0 0 100 140" role="img" aria-label="${esc(cardName(card))}" fill="${col}" font-family="system-ui, sans-serif">` +
    `<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#fff" stroke="#9a9a9a" stroke-width="1.5"/>` +
    `<g><text x="11" y="24" font-size="${small}" font-weight="700" text-anchor="middle">${r}</text>` +
    `<text x="11" y="42" font-size="17" text-anchor="middle">${sym}</text></g>` +
    `<g transform="rotate(180 50 70)"><text x="11" y="24" font-size="${small}" font-weight="700" text-anchor="middle">${r}</text>` +
    `<text x="11" y="42" font-size="17" text-anchor="middle">${sym}</text></g>` +
    body + `</svg>`;
}

/** The back of a card. */
export function backSVG(label = "") {
  return `<svg class="card-svg" viewBox="0 0 100 140" role="img" aria-label="${esc(label)}">` +
    `<defs><pattern id="bk" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="10" height="10" fill="#1f4e8c"/><rect width="5" height="10" fill="#2a62ab"/></pattern></defs>` +
    `<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#fff" stroke="#9a9a9a" stroke-width="1.5"/>` +
    `<rect x="8" y="8" width="84" height="124" rx="5" fill="url(#bk)"/></svg>`;
}
