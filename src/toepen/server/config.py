"""What ``toepen serve`` was asked for: :class:`ServerConfig` (light: no web framework)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

from .protocol import Limits


@dataclass
class ServerConfig:
    """What ``toepen serve`` was asked for."""

    db: str | None = None
    bot_workers: int = 2
    bot_pool: str = "process"
    bot_delay: float = 0.0
    limits: Limits = field(default_factory=Limits)
    public_url: str | None = None
    ws_deflate: bool = False
    external_bots: dict[str, str] = field(default_factory=dict)
    """External bots the operator registered: name -> command (``--bot NAME=cmd:COMMAND``)."""
    bot_timeout: float | None = None
    """Seconds per decision for external bots (None: the ExternalBot default, 5 s)."""
    redis: str | None = None
    """Redis URL of a cluster of servers sharing the database (``--redis``), or None."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks of the reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed (``--trust-proxy``); from anyone else, and by
    default from everyone (loopback included), those headers are ignored."""
    request_timeout: float = 10.0
    """Seconds to read one HTTP request whole, headers and body (``--request-timeout``,
    :mod:`~toepen.server.http.deadline`)."""
    keep_alive: int = 5
    """Seconds an HTTP connection may stay idle between two requests (``--keep-alive``,
    uvicorn's ``timeout_keep_alive``)."""
    own_process: bool = False
    """The server has its process to itself (``toepen serve``): once started it tunes the
    process's garbage collector (:func:`toepen.server.app.tune_collector`); an app made
    inside another program (a test's client) leaves that program's collector alone."""


def check_proxies(values: list[str]) -> tuple[str, ...]:
    """``--trust-proxy`` values: IP addresses or networks (ValueError naming a bad one).

    >>> check_proxies(["127.0.0.1", "10.0.0.0/8", "::1"])
    ('127.0.0.1', '10.0.0.0/8', '::1')
    >>> check_proxies(["*"])
    Traceback (most recent call last):
    ...
    ValueError: '*' is not an IP address or network (name each proxy)
    """
    out = []
    for value in values:
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ValueError(f"{value!r} is not an IP address or network "
                             "(name each proxy)") from None
        out.append(value)
    return tuple(out)
