"""The installable app's server side (issue 39, point 1): the shell the service worker
keeps, its version (a hash of the shell's files: a changed file is a new worker), the
worker as served, the manifest; a QR code is its link."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from toepen.server.app import STATIC, create_app
from toepen.server.config import ServerConfig
from toepen.server.http.pwa import Shell, shell_files, shell_version
from toepen.server.site.qr import qr_svg


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("pwa") / "t.db"
    cfg = ServerConfig(db=f"sqlite:///{db}", bot_workers=1, bot_pool="thread")
    with TestClient(create_app(cfg)) as c:
        yield c


def test_the_shell_is_the_client_and_nothing_else() -> None:
    shell = shell_files(STATIC)
    assert shell[0] == "/" and shell == ["/", *sorted(shell[1:])]
    for path in ("/index.html", "/offline.html", "/js/app.js", "/js/ui/pwa.js", "/css/pub.css",
                 "/i18n/nb.json", "/i18n/languages.json", "/icons/maskable-512.png",
                 "/favicon.svg"):
        assert path in shell
    assert not [p for p in shell if "web-extra" in p or p == "/sw.js" or p.startswith("/api")]
    assert all((STATIC / p[1:]).is_file() for p in shell[1:])


def test_a_changed_file_is_a_new_version(tmp_path: Path) -> None:
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    before = shell_version(copy)
    assert before == shell_version(STATIC) and len(before) == 16
    (copy / "i18n" / "web-extra.json").write_text("{}")  # not in the shell: the same
    assert shell_version(copy) == before
    with (copy / "css" / "pub.css").open("a") as f:
        f.write("\n/* a release */\n")
    changed = shell_version(copy)
    assert changed != before
    assert f'const VERSION = "{changed}";' in Shell(copy).worker
    (copy / "js" / "new.js").write_text("// a new module\n")
    assert shell_version(copy) != changed and "/js/new.js" in Shell(copy).worker


def test_the_worker_and_the_manifest_as_served(client: TestClient) -> None:
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and sw.headers["content-type"].startswith("text/javascript")
    assert sw.headers["cache-control"] == "no-cache"
    assert "__VERSION__" not in sw.text and "__SHELL__" not in sw.text
    line = next(x for x in sw.text.splitlines() if x.startswith("const SHELL = "))
    assert json.loads(line.removeprefix("const SHELL = ").rstrip(";")) == shell_files(STATIC)
    man = client.get("/manifest.webmanifest")
    assert man.headers["content-type"] == "application/manifest+json"
    doc = man.json()
    assert doc["display"] == "standalone" and doc["start_url"] == "/"
    assert "maskable" in {i["purpose"] for i in doc["icons"]}
    for icon in doc["icons"]:  # each icon is there, at its size
        got = client.get(icon["src"])
        assert got.status_code == 200
        assert "x".join(map(str, Image.open(io.BytesIO(got.content)).size)) == icon["sizes"]


def test_a_qr_code_passes_the_content_security_policy() -> None:
    """A standalone SVG whose colours are attributes: no inline style for the policy to
    refuse when the page puts it in (a tournament's seat links); tests/web/test_pub.py
    decodes each code as the phone shows it."""
    link = "https://toepen.example.org/?tournament=abcdef123456#seat=q3X_9fK2-LmN0pQrStUvWxYz"
    svg = qr_svg(link)  # a seat link with its key, as long as they come
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert "style" not in svg and "<script" not in svg and "href" not in svg
    assert 'viewBox="0 0 45 45"' in svg  # version 5 (37 modules) and a quiet zone of 4
