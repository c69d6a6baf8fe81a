"""The review as players read it (issue 36): each decision named as they think of it ("Hand 3,
trick 2", "Hand 3, the knock at stake 2"), the summary in plain counts, the plot by decision
with the hands marked, an 80-column terminal without wrapped rows, and ``toepen review``'s
progress bar (the player's name, a real total; none with ``--json``; never before an
error)."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from toepen.bots import make_bot
from toepen.cli import app, review_cmd
from toepen.engine import Game
from toepen.i18n import LANGUAGES, Translator
from toepen.match import play_game
from toepen.record import save, to_record
from toepen.review import AT_IDS, Review, at, points, review
from toepen.rules import Rules
from toepen.tools.review_plot import axis

NAMES = ("Ann", "Bas", "Cor", "Dirk")


def _record(seed: int = 3, lives: int = 3, preset: str = "rulebook") -> dict[str, Any]:
    g = Game.new(Rules.preset(preset, lives=lives), NAMES, seed=seed)
    play_game(g, [make_bot("heuristic", seed=s) for s in range(4)])
    return to_record(g)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "game.json"
    save(_record(), path)
    return path


@pytest.fixture(scope="module")
def reviewed() -> Review:
    return review(_record(), 0, samples=4, seed=0)


# -- decisions named as players think of them -------------------------------------------


def test_each_decision_is_named_by_its_hand_and_trick(reviewed: Review) -> None:
    """The hand and the trick of each decision (or the knock it answers), in the JSON too;
    never the record's action number."""
    assert reviewed.decisions
    tricks_of: dict[int, int] = {}
    for d in reviewed.decisions:
        data = d.to_json()
        assert (data["hand"], data["trick"], data["index"]) == (d.hand, d.trick, d.index)
        assert data["at"] == d.at.to_json()
        assert 1 <= d.trick <= 4
        if d.phase == "play":
            assert d.at.id == "review.at.trick"
            assert d.at.params == {"hand": d.hand, "trick": d.trick}
            # the trick counts up within a hand, and starts again in the next one
            assert d.trick >= tricks_of.get(d.hand, 1)
            tricks_of[d.hand] = d.trick
        elif d.phase == "answer":
            assert d.at.id == "review.at.knock" and d.at.params["stake"] == d.stake >= 2
        text = d.at.render(Translator("en", strict=True), NAMES)
        assert text.startswith(f"Hand {d.hand}, ") and str(d.index) not in text.split(", ")[1:]
    hands = [d.hand for d in reviewed.decisions]
    assert hands == sorted(hands) and hands[-1] > 1


def test_the_names_of_decisions_in_five_languages() -> None:
    cases = {
        "review.at.trick": (at(3, 2, "play", 1), {
            "en": "Hand 3, trick 2", "nl": "Ronde 3, slag 2", "de": "Spiel 3, Stich 2",
            "it": "Mano 3, presa 2", "nb": "Omgang 3, stikk 2"}),
        "review.at.knock": (at(3, 4, "answer", 2), {
            "en": "Hand 3, the knock at stake 2", "nl": "Ronde 3, de toep naar inzet 2",
            "de": "Spiel 3, das Klopfen auf Einsatz 2", "it": "Mano 3, la bussata a posta 2",
            "nb": "Omgang 3, bankingen til innsats 2"}),
        "review.at.blind": (at(3, 1, "blind_answer", 3), {
            "en": "Hand 3, the blind round", "nl": "Ronde 3, de blinde ronde",
            "de": "Spiel 3, die blinde Runde", "it": "Mano 3, il giro alla cieca",
            "nb": "Omgang 3, blindrunden"}),
        "review.at.declare": (at(3, 1, "claim", 1), {
            "en": "Hand 3, before the first trick", "nl": "Ronde 3, voor de eerste slag",
            "de": "Spiel 3, vor dem ersten Stich", "it": "Mano 3, prima della prima presa",
            "nb": "Omgang 3, før første stikk"}),
    }
    assert set(cases) == set(AT_IDS)
    for ident, (msg, texts) in cases.items():
        assert msg.id == ident
        for lang in LANGUAGES:
            assert msg.render(Translator(lang, strict=True), NAMES) == texts[lang]
    for phase in ("claim_challenge", "exchange", "exchange_challenge", "kans", "laundry",
                  "laundry_challenge"):
        assert at(1, 1, phase, 1).id == "review.at.declare"
    assert at(1, 1, "blind", 1).id == "review.at.blind"


# -- the summary --------------------------------------------------------------------------


def test_the_summary_counts_decisions_mistakes_and_the_lives_in_all(reviewed: Review) -> None:
    mistakes = reviewed.mistakes()
    assert len(mistakes) >= 2
    total = sum(d.cost for d in mistakes)
    said = {lang: review_cmd.summary(reviewed, Translator(lang, strict=True), lang)
            for lang in LANGUAGES}
    n, k = len(reviewed.decisions), len(mistakes)
    assert said["en"] == (f"{n} decisions, {k} of them mistakes; together they cost "
                          f"{total:.2f} lives.")
    assert said["nl"].startswith(f"{n} beslissingen, waarvan {k} fouten; samen kostten die ")
    assert said["de"].startswith(f"{n} Entscheidungen, davon {k} Fehler; zusammen kosteten sie")
    assert said["it"].startswith(f"{n} decisioni, di cui {k} errori; insieme sono costati ")
    assert said["nb"].startswith(f"{n} beslutninger, hvorav {k} feil; til sammen kostet de ")
    assert f"{total:.2f}".replace(".", ",") in said["nl"]
    assert "average" not in said["en"]


def test_a_review_without_mistakes_says_so(reviewed: Review) -> None:
    clean = replace(reviewed, decisions=tuple(
        d for d in reviewed.decisions if d not in reviewed.mistakes()))
    assert not clean.mistakes()
    n = len(clean.decisions)
    assert review_cmd.summary(clean, Translator("en"), "en") == (
        f"{n} decisions, no mistakes: each was the best or as good as it.")
    assert review_cmd.summary(clean, Translator("de"), "de") == (
        f"{n} Entscheidungen, keine Fehler: jede war die beste oder genauso gut.")


# -- the plot -----------------------------------------------------------------------------


def test_the_plot_marks_the_hands(reviewed: Review) -> None:
    """The x-axis counts decisions; a line between two hands; each hand's number under its
    decisions; the lives step at the end of each hand."""
    a = axis(reviewed)
    ds = reviewed.decisions
    changes = [k for k in range(1, len(ds)) if ds[k].hand != ds[k - 1].hand]
    assert a.bounds == [k + 0.5 for k in changes]
    assert [h for _, h in a.hands] == sorted({d.hand for d in ds})
    for x, h in a.hands:
        ks = [k for k, d in enumerate(ds, start=1) if d.hand == h]
        assert min(ks) <= x <= max(ks)
    assert a.lives[0] == (0.5, reviewed.start_lives)
    assert all(x == int(x) + 0.5 for x, _ in a.lives)
    assert [v for _, v in a.lives] == [v for _, v in reviewed.lives]


def test_toepen_review_plot_by_hand(record_file: Path, tmp_path: Path) -> None:
    plot = tmp_path / "lives.svg"
    got = CliRunner().invoke(app, ["review", str(record_file), "--samples", "2", "--json",
                                   "--plot", str(plot), "--lang", "nl"])
    assert got.exit_code == 0, got.output
    svg = plot.read_text()
    assert "beslissingen, per ronde" in svg and "actie" not in svg


# -- an 80x24 terminal ----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_review_fits_an_80_column_terminal(reviewed: Review, lang: str) -> None:
    """Every line within 80 columns; each decision's name and cost on one line of its own;
    each reason wrapped between its words (never inside one), whole decision by decision."""
    t = Translator(lang, strict=True)
    out = Console(width=80, height=24, record=True, file=io.StringIO(), color_system=None)
    review_cmd.show(reviewed, t, lang, 0, out)
    lines = out.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    stripped = [line.strip() for line in lines]
    flowing = " ".join(stripped)
    wrong = {d.index for d in reviewed.mistakes()}
    for d in reviewed.decisions:
        name = d.at.render(t, reviewed.players)
        heads = [line for line in stripped if line.startswith(name)]
        assert heads, f"{lang}: {name!r} is not the start of a line"
        if d.index in wrong:
            assert any(review_cmd._num(d.cost, lang) in h for h in heads), heads
            reason = d.reason.render(t, reviewed.players)
            assert reason in flowing, f"{lang}: the reason is cut or broken: {reason!r}"
    # no line is a fragment of a word: each line's words are words of the texts shown
    assert len(lines) < 8 * len(reviewed.decisions)


def test_the_command_keeps_its_rows_within_80_columns(record_file: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    buf = io.StringIO()
    monkeypatch.setattr(review_cmd, "console",
                        Console(width=80, file=buf, color_system=None, force_terminal=False))
    got = CliRunner().invoke(app, ["review", str(record_file), "--samples", "2", "--top", "0",
                                   "--lang", "en"])
    assert got.exit_code == 0, got.output
    text = buf.getvalue()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert re.search(r"^Hand 1, trick 1\b", text, re.M)
    assert not re.search(r"^\s*#", text, re.M)


# -- the command's progress and errors --------------------------------------------------------


def test_json_prints_no_progress_bar(record_file: Path) -> None:
    got = CliRunner().invoke(app, ["review", str(record_file), "--samples", "2", "--json"])
    assert got.exit_code == 0, got.output
    assert got.stderr == ""
    data = json.loads(got.stdout)
    assert data["format"] == "toepen-review/1"
    assert all({"hand", "trick", "at", "index"} <= set(d) for d in data["decisions"])


def test_errors_come_before_any_progress_bar(record_file: Path) -> None:
    for args in (["--seat", "7"], ["--seat", "7", "--json"]):
        got = CliRunner().invoke(app, ["review", str(record_file), *args])
        assert got.exit_code == 2
        assert got.stderr.strip() == "seat: must be a seat from 0 to 3, not 7"
        assert got.stdout == ""


def test_the_progress_bar_names_the_player_and_counts_to_the_total(record_file: Path) -> None:
    got = CliRunner().invoke(app, ["review", str(record_file), "--samples", "2", "--seat", "1",
                                   "--lang", "en"])
    assert got.exit_code == 0, got.output
    assert "Review of Bas" in got.stderr and "#1" not in got.stderr
    total = len(points(json.loads(record_file.read_text()), 1)[0])
    assert f"{total}/{total}" in got.stderr and "?" not in got.stderr
