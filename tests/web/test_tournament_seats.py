"""A tournament's online round in Chromium: the organiser's page shows each player's seat
link (and no code); a player opens their link on a phone of their own and sits at their
drawn seat; a link that takes no seat is refused in words (issue 23, point 4)."""

from __future__ import annotations

import json

import httpx
from playwright.sync_api import Browser, expect

from .conftest import Server
from .helpers import wait_ready

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "locale": "en-GB"}


def test_players_take_their_seats_by_the_organisers_links(browser: Browser,
                                                           server: Server) -> None:
    made = httpx.post(f"{server.url}/api/tournaments", json={"name": "Linkavond"}, timeout=10)
    assert made.status_code == 201, made.text
    tid, key = made.json()["tournament"]["id"], made.json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    for name in ("Ann", "Bas", "Cor"):
        assert httpx.post(f"{server.url}/api/tournaments/{tid}/players", json={"name": name},
                          headers=auth, timeout=10).status_code == 200
    state = httpx.post(f"{server.url}/api/tournaments/{tid}/rounds", json={"mode": "online"},
                       headers=auth, timeout=10).json()
    table = state["rounds"][0]["tables"][0]

    organiser = browser.new_context(**PHONE)
    keys = json.dumps({f"tournament:{tid}": key})
    organiser.add_init_script(f"localStorage.setItem('toepen.keys', {json.dumps(keys)})")
    page = organiser.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/?tournament={tid}")
    wait_ready(page)
    expect(page.locator("#current .seat-link")).to_have_count(3)
    expect(page.locator("#seat-links-note")).to_be_visible()
    expect(page.locator("#current .code")).to_have_count(0)
    link = page.locator('#current li[data-player="Bas"] .seat-link').get_attribute("href")
    assert link is not None and link.startswith(f"{server.url}/?tournament={tid}#seat=")

    # someone without a link sees the names, and no way to take a seat
    stranger = browser.new_context(**PHONE)
    other = stranger.new_page()
    other.goto(f"{server.url}/?tournament={tid}")
    wait_ready(other)
    expect(other.locator("#current .ttable")).to_have_count(1)
    expect(other.locator("#current .seat-link, #current [data-seat]")).to_have_count(0)
    # a link that takes no seat: refused in words, the tournament shown
    other = stranger.new_page()
    other.goto(f"{server.url}/?tournament={tid}#seat={'A' * 24}")
    wait_ready(other)
    expect(other.locator("#toast")).to_contain_text("This link takes no seat")
    expect(other.locator("#t-name")).to_have_text("Linkavond")
    stranger.close()

    # Bas opens his link on his own phone: he sits at his drawn seat, the key gone from
    # the address
    bas = browser.new_context(**PHONE).new_page()
    bas.goto(link)
    bas.wait_for_url(f"{server.url}/?table={table['table_id']}")
    wait_ready(bas)
    assert "#seat" not in bas.url
    seat = table["seats"].index("Bas")
    saved = json.loads(bas.evaluate("localStorage.getItem('toepen.seats')"))
    assert saved[table["table_id"]]["seat"] == seat
    info = {}
    for _ in range(100):
        info = httpx.get(f"{server.url}/api/tables/{table['table_id']}", timeout=10).json()
        if info["seats"][seat]["connected"]:
            break
        bas.wait_for_timeout(100)
    assert info["seats"][seat]["name"] == "Bas" and info["seats"][seat]["connected"]
    assert errors == []
    bas.context.close()
    organiser.close()
