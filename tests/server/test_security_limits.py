"""The accounts' limits under pressure (issue 23, points 3 and 5): parallel wrong logins
for one name, wrong old passwords, wrong passwords to delete an account; in one process
and in a cluster, whose limit is kept in a real Redis."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import redis
from services import throwaway_redis

from .conftest import Server

PASSWORD = "correct horse battery"
WRONG = "guess guess guess"


class Browser:
    def __init__(self, server: Server) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=60)
        self.csrf = self.http.get("/api/account").json()["csrf"]

    def post(self, path: str, body: dict[str, str]) -> httpx.Response:
        r = self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})
        if r.status_code in (200, 201) and "csrf" in r.json():
            self.csrf = r.json()["csrf"]
        return r

    def register(self, name: str) -> None:
        r = self.post("/api/account/register", {"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text


def parallel_logins(servers: list[Server], name: str, n: int) -> Counter[int]:
    """``n`` wrong logins for ``name`` at once, spread over ``servers``: their statuses."""
    browsers = [Browser(servers[i % len(servers)]) for i in range(n)]
    with ThreadPoolExecutor(n) as pool:
        answers = list(pool.map(
            lambda b: b.post("/api/account/login", {"name": name, "password": WRONG}),
            browsers))
    return Counter(r.status_code for r in answers)


def test_parallel_wrong_logins_meet_the_limit(server: Server) -> None:
    Browser(server).register("Pieter")
    statuses = parallel_logins([server], "Pieter", 30)
    assert statuses == {401: 5, 429: 25}, statuses
    late = Browser(server).post("/api/account/login", {"name": "pieter", "password": PASSWORD})
    assert late.status_code == 429 and late.json()["say"]["id"] == "account.error.rate_limited"
    assert late.json()["say"]["params"]["seconds"] > 0


def test_right_logins_do_not_use_up_the_limit(server: Server) -> None:
    Browser(server).register("Klaasje")
    for _ in range(8):
        assert Browser(server).post("/api/account/login",
                                    {"name": "Klaasje", "password": PASSWORD}).status_code == 200


def test_old_password_guesses_are_throttled(server: Server) -> None:
    b = Browser(server)
    b.register("Wouter")
    codes = [b.post("/api/account/password", {"old": f"{WRONG} {i}", "new": "a new password"}
                    ).status_code for i in range(10)]
    assert codes == [403] * 5 + [429] * 5, codes
    r = b.post("/api/account/password", {"old": PASSWORD, "new": "a new password"})
    assert r.status_code == 429  # the right one too, while the window is full
    # Nothing changed: the old password still logs in (from another browser).
    assert Browser(server).post("/api/account/login",
                                {"name": "Wouter", "password": PASSWORD}).status_code == 200


def test_delete_password_guesses_are_throttled(server: Server) -> None:
    b = Browser(server)
    b.register("Marijke")
    codes = [b.post("/api/account/delete", {"password": f"{WRONG} {i}"}).status_code
             for i in range(10)]
    assert codes == [403] * 5 + [429] * 5, codes
    assert b.post("/api/account/delete", {"password": PASSWORD}).status_code == 429
    assert b.http.get("/api/account").json()["user"]["name"] == "Marijke"  # still there


@pytest.fixture(scope="module")
def pair(postgres_url: str) -> Iterator[tuple[list[Server], str]]:
    """Two servers of one cluster: one PostgreSQL, one real Redis."""
    with throwaway_redis() as url:
        servers: list[Server] = []
        try:
            for _ in range(2):
                servers.append(Server(postgres_url, "--redis", url).start())
            yield servers, url
        finally:
            for s in servers:
                s.stop()


def test_the_login_limit_holds_across_a_cluster(pair: tuple[list[Server], str]) -> None:
    servers, url = pair
    Browser(servers[0]).register("Gijsbert")
    a, b = servers
    for i in range(5):  # 5 failures, alternating between the processes
        r = Browser(servers[i % 2]).post("/api/account/login",
                                         {"name": "Gijsbert", "password": WRONG})
        assert r.status_code == 401, r.text
    for s in (a, b):
        r = Browser(s).post("/api/account/login", {"name": "Gijsbert", "password": PASSWORD})
        assert r.status_code == 429, r.text
    keys = redis.Redis.from_url(url, decode_responses=True).keys("toepen:limit:*")
    assert keys and not any("gijsbert" in k.lower() for k in keys)  # hashed, not in clear
    Browser(a).register("Hendrika")
    statuses = parallel_logins(servers, "Hendrika", 30)
    assert statuses == {401: 5, 429: 25}, statuses
