"""The command line in French and English: whole games, help, errors, moves typed in either language."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from meeple.cli.language import take_lang
from tests.cli.conftest import Cli

GAMES = ("citadels", "capitol", "capital_lux_2", "caprice")
ENGLISH_ONLY = ("your move", "Game over", "Final scores", "Since your last turn", "Seat 0", "Winner")
FRENCH_ONLY = ("votre coup", "Fin de la partie", "Scores finaux", "Place 0", "Gagnant")


def _play(cli: Cli, game: str, lang: str) -> str:
    args = ["--lang", lang, "play", game, "--seed", "3", "--bots", "random"]
    return str(cli(args, input="1\n" * 3000).output)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_in_each_language(cli: Cli, game: str, lang: str) -> None:
    out = _play(cli, game, lang)
    shown, absent = (FRENCH_ONLY, ENGLISH_ONLY) if lang == "fr" else (ENGLISH_ONLY, FRENCH_ONLY)
    for phrase in shown:
        assert phrase in out, phrase
    for phrase in absent:
        assert phrase not in out, phrase
    assert "Traceback" not in out


def test_the_french_game_shows_the_rulebook_names(cli: Cli) -> None:
    out = _play(cli, "citadels", "fr")
    assert re.search(r"choisir (le|l')(Roi|Voleur|Magicien|Assassin|Évêque|Marchand|Architecte|Condottiere)", out)
    assert "Warlord" not in out and "pick the" not in out


@pytest.mark.parametrize("typed", ["keep the drawn symbol", "garder le symbole tiré", "GARDER LE"])
def test_a_move_typed_in_either_language_is_understood(cli: Cli, typed: str) -> None:
    args = ["--lang", "fr", "play", "caprice", "--seed", "1", "--bots", "random", "--no-auto"]
    out = cli(args, input=f"{typed}\n" + "1\n" * 400)
    assert "Place 0 (vous): garder le symbole tiré" in out.output
    assert "n'est pas un coup légal" not in out.output


def test_a_refused_move_is_explained_in_french(cli: Cli) -> None:
    out = cli(["--lang", "fr", "play", "caprice", "--seed", "1"], input="xyz\n99\n" + "1\n" * 400).output
    assert "'xyz' n'est pas un coup légal\u202f: tapez un numéro de coup" in out
    assert "99 n'est pas un numéro de coup légal" in out


def test_errors_and_rules_in_french(cli: Cli) -> None:
    out = cli(["--lang", "fr", "play", "citadels", "--humans", "9"], code=2).output
    assert "Erreur" in out and "--humans doit être entre 0 et 4" in out
    rules = cli(["--lang", "fr", "rules", "citadels"]).output
    assert "Condottiere" in rules and "Dracoport" in rules and "Warlord" not in rules
    assert "partie rapide" in rules
    english = cli(["rules", "citadels"]).output
    assert "Dragon Gate" in english and "Dracoport" not in english


def test_an_unknown_language_is_refused_with_the_choices(cli: Cli) -> None:
    out = cli(["--lang", "de", "games"], code=2).output
    assert "unknown language 'de'" in out and "fr (Français)" in out


def test_lang_may_stand_anywhere_on_the_line() -> None:
    assert take_lang(["play", "citadels", "--lang", "fr", "--seed", "3"]) == (
        "fr",
        ["--lang", "fr", "play", "citadels", "--seed", "3"],
    )
    assert take_lang(["--lang=en", "games"]) == ("en", ["--lang", "en", "games"])
    assert take_lang(["games"]) == (None, ["games"])
    assert take_lang(["replay", "--", "--lang", "x"]) == (None, ["replay", "--", "--lang", "x"])


def test_help_follows_the_language_and_the_locale() -> None:
    def run(*args: str, env: dict[str, str] | None = None) -> str:
        base = {"PATH": "/usr/bin:/bin", "COLUMNS": "100"}
        done = subprocess.run(
            [sys.executable, "-m", "meeple", *args], capture_output=True, text=True, env={**base, **(env or {})}
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "Jouer à JEU dans le terminal" in run("play", "--help", "--lang", "fr")
    assert "Play GAME in the terminal" in run("play", "--help")
    assert "Jeux disponibles" in run("games", env={"LANG": "fr_FR.UTF-8"})
    assert "Registered games" in run("games", env={"LANG": "fr_FR.UTF-8", "LC_ALL": "C"})
    assert "Registered games" in run("--lang", "en", "games", env={"LANG": "fr_FR.UTF-8"})


def test_every_game_title_is_translated() -> None:
    from meeple.core.registry import game_class
    from meeple.i18n import translator

    fr = translator("fr")
    assert fr.gettext(game_class("citadels").title) == "Citadelles (1re édition)"
    for name in GAMES:
        assert fr.gettext(game_class(name).title), name
