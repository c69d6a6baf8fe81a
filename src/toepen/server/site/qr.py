"""QR codes of this site's own links, drawn as SVG by ``segno`` (issue 39, point 2).

The server encodes only links it makes itself (a table's invite, a sheet's follow link,
a club's page, a tournament's seat links): never a text a client sends, so a QR code of
this site never points elsewhere. :func:`site_base` is the one base of those links (the
operator's ``--public-url``, else the address the request came to).
"""

from __future__ import annotations

import io

import segno
from fastapi import Request
from fastapi.responses import Response

QR_ERROR = "m"
"""Error correction level M (15% of the code may be lost): readable on a phone's screen
across a table, and small enough for a tournament's seat link with its key."""


def site_base(request: Request) -> str:
    """The scheme, host and port of this site's links (no slash at the end)."""
    return request.app.state.config.public_url or str(request.base_url).rstrip("/")


def qr_svg(link: str) -> str:
    """``link`` as a QR code: a standalone SVG document, black on white with the quiet
    zone of four modules, sized by its ``viewBox`` only (the page sets its size)."""
    out = io.BytesIO()
    segno.make_qr(link, error=QR_ERROR).save(out, kind="svg", xmldecl=False, svgns=True,
                                             omitsize=True, border=4, light="#fff",
                                             dark="#000", svgclass="qr", lineclass=None)
    return out.getvalue().decode()


def svg_response(link: str) -> Response:
    """The QR code of ``link`` as an ``image/svg+xml`` answer (cached a day: the same
    object always has the same link)."""
    return Response(qr_svg(link), media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=86400"})
