"""The installable app (issue 39, point 1) and the QR codes of the site's objects (point 2).

``GET /manifest.webmanifest``: the web app manifest (names, icons 192/512 and maskable,
theme, ``display: standalone``, start URL). ``GET /sw.js``: the service worker, with the
app shell it keeps (:func:`shell_files`: the pages, scripts, styles, catalogs and icons of
``static/``) and the cache's name, ``toepen-shell-<version>``, where the version is a hash
of those files' contents taken when the app is made (:func:`shell_version`): a release
that changes any of them changes the worker, which the browser installs and activates at
once, dropping the old cache (no stale shell). The worker never keeps an API answer or the
game's state (``static/sw.js``, docs/web.md).

``GET /api/tables/{id}/qr``, ``/api/sheets/{id}/qr``, ``/api/clubs/{id}/qr``: the QR code of
the table's invite link, the sheet's follow link and the club's page; a tournament's seat
links carry theirs in ``GET /api/tournaments/{id}/seats`` (:mod:`~toepen.server.site.qr`).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ...narration import Message
from ..protocol import Refused
from ..site.clubs.routes import club_or_404, clubs_of
from ..site.qr import site_base, svg_response
from ..site.scoresheets import sheets_of
from ..tables.lobby import handed_out
from .routes import lobby_of

router = APIRouter()

SHELL_DIRS = ("js", "css", "i18n", "icons")
"""The folders of ``static/`` the worker keeps, beside the pages at its top."""


def shell_files(static: Path) -> list[str]:
    """The app shell's paths, as the browser asks for them (``/js/app.js``): every file of
    ``static/``'s top and of :data:`SHELL_DIRS`, but the catalogs' sources
    (``i18n/web-extra*.json``, which the pages never load)."""
    found = [p for p in static.iterdir() if p.is_file()]
    for d in SHELL_DIRS:
        if (static / d).is_dir():
            found += [p for p in (static / d).rglob("*") if p.is_file()]
    paths = sorted("/" + p.relative_to(static).as_posix() for p in found
                   if not p.name.startswith("web-extra") and p.name != "sw.js")
    return ["/", *paths]


def shell_version(static: Path) -> str:
    """A hash of the shell's names and contents (16 hex digits)."""
    h = hashlib.sha256()
    for path in shell_files(static)[1:]:
        h.update(path.encode() + b"\0")
        h.update((static / path[1:]).read_bytes() + b"\0")
    return h.hexdigest()[:16]


def manifest() -> dict[str, Any]:
    """The web app manifest (English names: a manifest has one language)."""
    return {
        "name": "Toepen",
        "short_name": "Toepen",
        "description": "The Dutch card game Toepen: online tables and score sheets for real cards.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#f1ede3",
        "theme_color": "#134a29",
        "icons": [
            {"src": "/icons/icon-192.png", "sizes": "192x192", "type": "image/png",
             "purpose": "any"},
            {"src": "/icons/icon-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "any"},
            {"src": "/icons/maskable-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }


class Shell:
    """The worker's text for one app: ``static/sw.js`` with the cache's version and the
    shell's paths filled in, worked out once."""

    def __init__(self, static: Path) -> None:
        self.version = shell_version(static)
        source = (static / "sw.js").read_text(encoding="utf-8")
        self.worker = (source.replace('"__VERSION__"', json.dumps(self.version))
                       .replace('["__SHELL__"]', json.dumps(shell_files(static))))


@router.get("/manifest.webmanifest", include_in_schema=False)
async def get_manifest() -> Response:
    return Response(json.dumps(manifest()), media_type="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The worker, never cached by HTTP (the browser compares it at each visit)."""
    shell: Shell | None = getattr(request.app.state, "shell", None)
    if shell is None:  # a server without its browser client
        return Response(status_code=404)
    return Response(shell.worker, media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})


@router.get("/api/tables/{table_id}/qr")
async def table_qr(table_id: str, request: Request) -> Response:
    """The QR code of the table's invite link (``/join/CODE``); a tournament's table,
    whose seats its organiser hands out, has none (403, as joining it by code)."""
    table = await lobby_of(request).find(table_id)
    if handed_out(table):
        raise Refused("forbidden", "this is a tournament's table: its seats are taken with "
                      "the link the organiser gives each player, not by an invite", 403,
                      say=Message("error.seat_handed_out"))
    return svg_response(f"{site_base(request)}/join/{table.row.code}")


@router.get("/api/sheets/{sheet_id}/qr")
async def sheet_qr(sheet_id: str, request: Request) -> Response:
    """The QR code of the sheet's follow link (``/?sheet=ID``: to follow, never to keep)."""
    await sheets_of(request).get(sheet_id)  # 404 for no sheet
    return svg_response(f"{site_base(request)}/?sheet={sheet_id}")


@router.get("/api/clubs/{club_id}/qr")
async def club_qr(club_id: str, request: Request) -> Response:
    """The QR code of the club's page (``/?club=ID``), where a newcomer finds the club."""
    club = await club_or_404(clubs_of(request), club_id)
    return svg_response(f"{site_base(request)}/?club={club.id}")
