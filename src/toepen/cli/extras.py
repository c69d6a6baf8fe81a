"""The optional parts of toepen and what each needs (the extras of ``pyproject.toml``).

The core package (engine, bots, records, ``toepen rules``/``replay``/``simulate``) depends
directly only on typer, rich, platformdirs and babel (and so on their own dependencies:
``docs/install.md``). A command that needs an extra which is not
installed says so in the user's language, naming the extra and how to install it
(``error.extra``), instead of a traceback. Installed or not is asked of the installed
distributions (``importlib.metadata``), so nothing is imported to find out.
"""

from __future__ import annotations

from importlib import metadata

from ..i18n import Translator, detect_lang
from .rules_cmd import Refused

EXTRAS: dict[str, tuple[str, ...]] = {
    "server": ("fastapi", "uvicorn", "sqlalchemy", "alembic", "websockets", "httpx",
               "pydantic", "starlette", "regex", "prometheus-client", "orjson",
               "argon2-cffi", "openskill", "confusable-homoglyphs", "segno"),
    "tui": ("textual",),
    "postgres": ("psycopg",),
    "redis": ("redis",),
    "rl": ("pettingzoo", "gymnasium", "numpy", "open_spiel"),
    "plot": ("matplotlib",),
    "arena": ("numpy", "openskill"),
    "fast": ("numba",),
}
"""Each extra and the distributions it installs (as in ``pyproject.toml``)."""


def missing(extra: str) -> list[str]:
    """The distributions of ``extra`` that are not installed (empty: all there)."""
    out = []
    for name in EXTRAS[extra]:
        try:
            metadata.distribution(name)
        except metadata.PackageNotFoundError:
            out.append(name)
    return out


def extra_message(extra: str, command: str, lacking: list[str],
                  t: Translator | None = None) -> str:
    """``command`` needs ``extra``: the translated sentence naming it and the fix."""
    t = t or Translator(detect_lang())
    return t("error.extra", command=command, extra=extra, missing=", ".join(lacking),
             install=f"pip install 'toepen[{extra}]'")


def require(extra: str, command: str, t: Translator | None = None) -> None:
    """Refuse the command (a command-line error, exit 2) if ``extra`` is not installed."""
    lacking = missing(extra)
    if lacking:
        raise Refused(extra_message(extra, command, lacking, t))
