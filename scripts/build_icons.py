"""Draw the installed app's icons (``src/toepen/server/static/icons/*.png``) with Pillow.

The picture is the favicon's (a white card with a red heart) on the table's felt green:
``icon-192.png`` and ``icon-512.png`` (purpose ``any``), ``maskable-512.png`` (the card
inside the maskable safe zone, the central circle of 80%, the felt to every edge) and
``apple-touch-icon.png`` (180 x 180, no transparency: iOS fills it black). Run after
changing the picture, and commit the output::

    uv run python scripts/build_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "src" / "toepen" / "server" / "static" / "icons"
FELT = (30, 107, 60, 255)
INK = (51, 51, 51, 255)
RED = (192, 38, 45, 255)
SCALE = 4  # drawn large, then scaled down: smooth edges


def draw(size: int, card: float, rounded: bool) -> Image.Image:
    """The icon at ``size`` pixels; the card ``card`` of the height."""
    big = size * SCALE
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 6 if rounded else 0, fill=FELT)
    h = big * card
    w = h * 24 / 28
    x0, y0 = (big - w) / 2, (big - h) / 2
    d.rounded_rectangle((x0, y0, x0 + w, y0 + h), radius=h * 3 / 28, fill=(255, 255, 255, 255),
                        outline=INK, width=max(1, round(h * 2 / 28)))
    # the heart: two circles and a triangle
    cx, cy, r = big / 2, big / 2 - h * 0.06, w * 0.16
    d.ellipse((cx - 2 * r, cy - r, cx, cy + r), fill=RED)
    d.ellipse((cx, cy - r, cx + 2 * r, cy + r), fill=RED)
    d.polygon([(cx - 1.93 * r, cy + 0.35 * r), (cx + 1.93 * r, cy + 0.35 * r), (cx, cy + 2.6 * r)],
              fill=RED)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    draw(192, 0.8, True).save(OUT / "icon-192.png", optimize=True)
    draw(512, 0.8, True).save(OUT / "icon-512.png", optimize=True)
    draw(512, 0.62, False).save(OUT / "maskable-512.png", optimize=True)
    draw(180, 0.72, False).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)


if __name__ == "__main__":
    main()
