"""Plural forms in the page (issue 25): ``i18n.js``'s ``t`` and ``say`` give each message
with a count its singular for 1 and its plural for 2, by the browser's ``Intl.PluralRules``,
in every language (the cases: tests/plural_cases.py); a language without a variant never
borrows English's."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page
from plural_cases import PO, WEB

from toepen.i18n import LANGUAGES

from .conftest import Server

SAY = """async ({langs, cases}) => {
  const i18n = await import("/js/ui/i18n.js");
  const out = {};
  for (const lang of langs) {
    await i18n.setLang(lang);
    const names = ["Ann", "Bas", "Cor"];
    out[lang] = {
      t: cases.map(([key, one, two]) => [i18n.t(key, one), i18n.t(key, two)]),
      say: [1, 2].map((lives) => i18n.say({id: "standings.row", params: {place: 1,
        name: {seat: 1}, figures: {msg: "standings.fig.winner", params: {lives}}}}, names)),
      refusal: i18n.say({id: "refusal.knock_lives_below_stake",
                         params: {seat: {seat: 0}, lives: 1, stake: 3}}, names),
      text: i18n.t("web.lives", {n: "1"}),
    };
  }
  return out;
}"""


def test_the_page_says_one_life_and_two_lives(server: Server, page: Page) -> None:
    page.goto(server.url + "/")
    cases: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    expected: dict[str, list[tuple[str, str]]] = {lang: [] for lang in LANGUAGES}
    for table in (PO, WEB):
        for key, (params, texts) in table.items():
            cases.append((key, params(1), params(2)))
            for lang in LANGUAGES:
                expected[lang].append(texts[lang])
    said = page.evaluate(SAY, {"langs": list(LANGUAGES), "cases": cases})
    for lang in LANGUAGES:
        got = [tuple(pair) for pair in said[lang]["t"]]
        wrong = [(key, g, e) for (key, _, _), g, e in zip(cases, got, expected[lang], strict=True)
                 if g != e]
        assert not wrong, f"{lang}: {wrong}"
    assert said["en"]["say"] == ["1. Bas: the last one in, 1 life left",
                                 "1. Bas: the last one in, 2 lives left"]
    assert said["nl"]["say"] == ["1. Bas: als laatste over, nog 1 leven",
                                 "1. Bas: als laatste over, nog 2 levens"]
    assert said["de"]["say"][0] == "1. Bas: als Letzter noch dabei, 1 Leben übrig"
    assert said["en"]["refusal"] == "You may not knock: your 1 life is below the stake 3."
    assert said["nl"]["refusal"] == "Je mag niet toepen: je 1 leven is minder dan de inzet 3."
    # a count given as text picks no variant (as in Python)
    assert said["en"]["text"] == "1 lives"
    assert not page.errors  # type: ignore[attr-defined]
