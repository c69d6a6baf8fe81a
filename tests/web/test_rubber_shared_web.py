"""Issue 38: who shared a rubber, in the page: the server's ``say`` of a shared ``RUBBER``
event (``toepen.narration.describe``) names the sharers as the language writes a list,
in every language, as the terminal does."""

from __future__ import annotations

from playwright.sync_api import Page

from toepen.engine import Event, EventKind
from toepen.i18n import LANGUAGES, Translator
from toepen.narration import describe

from .conftest import Server

SAY = """async ({langs, said}) => {
  const i18n = await import("/js/ui/i18n.js");
  const out = {};
  for (const lang of langs) {
    await i18n.setLang(lang);
    out[lang] = said.map((m) => i18n.say(m, ["Ann", "Bas", "Cor", "Dirk"]));
  }
  return out;
}"""

NAMES = ("Ann", "Bas", "Cor", "Dirk")
WANT = {"en": "Rubber 1 is over, shared by Cor and Dirk.",
        "nl": "Partij 1 is voorbij, gedeeld door Cor en Dirk.",
        "de": "Robber 1 ist vorbei, geteilt zwischen Cor und Dirk.",
        "it": "La partita 1 è finita, pari tra Cor e Dirk.",
        "nb": "Parti 1 er over, delt mellom Cor og Dirk."}


def test_the_page_says_who_shared_a_rubber(server: Server, page: Page) -> None:
    events = [Event(EventKind.RUBBER, -1, 1, (), sharers) for sharers in ("2 3", "0 1 3")]
    said = [m.to_json() for e in events if (m := describe(e, None)) is not None]
    page.goto(server.url + "/")
    got = page.evaluate(SAY, {"langs": list(LANGUAGES), "said": said})
    for lang in LANGUAGES:
        t = Translator(lang)
        # the same words as the terminal's (Babel's list, the browser's Intl.ListFormat)
        assert got[lang] == [m.render(t, NAMES) for e in events
                             if (m := describe(e, None)) is not None], lang
        assert got[lang][0] == WANT[lang]
    assert got["de"][1] == "Robber 1 ist vorbei, geteilt zwischen Ann, Bas und Dirk."
    assert not page.errors  # type: ignore[attr-defined]
