"""Every per-game fact lives in its game (issue 42, item 5): the score and length bounds on the ``GameSpec``, the lobby
pitch and seat labels on the web companion, the balance extractor beside the game's other companions; and no shared
module names a game (no game name as a dict key or in a string comparison outside the registry and web/games/)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from meeple.core.registry import BUILTIN_GAMES, game_class, game_spec, load_game
from meeple.core.spec import GameSpec
from meeple.i18n import translator
from meeple.web.games import WebGame, companion_for

SRC = Path(__file__).resolve().parents[2] / "src" / "meeple"
SHARED = ("core", "adapters", "arena", "web", "server")
"""The folders where no game may be named (their per-game parts excepted: :data:`EXEMPT`)."""
EXEMPT = (SRC / "core" / "registry.py", SRC / "web" / "games")
"""The registry (the list of built-in packages) and the games' web companions."""


def _player_counts(name: str) -> list[int]:
    counts = []
    for players in range(1, game_class(name).max_players + 1):
        for flags in ({}, {"variant_2p_ffg": True}):
            try:
                load_game(name, players=players, **flags)
            except Exception:  # noqa: BLE001 - a player count the game does not have with these flags
                continue
            counts.append(players)
            break
    return counts


def missing_facts(spec: GameSpec, counts: list[int]) -> list[str]:
    """What a game's spec and companions fail to declare, in words (empty: everything is there)."""
    out = [
        f"{field} for {n} players"
        for field in ("score_bound", "margin_bound", "longest_game")
        for n in counts
        if n not in getattr(spec, field)
    ]
    if not spec.balance or not spec.balance_question:
        out.append("a balance extractor and its question")
    elif not callable(spec.load("balance")):
        out.append("a callable balance extractor")
    web = companion_for(spec.name)
    if type(web) is WebGame or not web.pitch:
        out.append("a web companion with a lobby pitch")
    return out


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_every_game_declares_each_of_its_facts(name: str) -> None:
    spec = game_spec(name)
    assert missing_facts(spec, _player_counts(name)) == []
    assert spec.balance == f"meeple.arena.balance.{name}:features"  # beside the other per-game companions
    reader = translator("fr")
    assert reader.gettext(companion_for(name).pitch) != companion_for(name).pitch  # translated


def test_a_game_lacking_a_fact_is_named_with_what_it_lacks() -> None:
    spec = GameSpec("caprice", score_bound={2: 25}, margin_bound={2: 10}, longest_game={2: 50})
    assert missing_facts(spec, [2, 3]) == [
        "score_bound for 3 players",
        "margin_bound for 3 players",
        "longest_game for 3 players",
        "a balance extractor and its question",
    ]


def test_the_seat_labels_are_the_companions() -> None:
    reader = translator("en")
    solo = {"solo": True}
    assert companion_for("capital_lux_2").seat_label(solo, 1, reader, 0) == "ROB"
    assert companion_for("capital_lux_2").seat_label(solo, 0, reader, 0) == "Seat 1 (you)"
    assert companion_for("capital_lux_2").seat_label({"solo": False}, 1, reader) == "Seat 2"
    assert companion_for("citadels").seat_label({}, 1, reader) == "Seat 2"


def game_names_named(tree: ast.AST, names: set[str]) -> list[tuple[int, str]]:
    """(line, name) of every game name used as a dict key, a subscript or in a comparison (``==``, ``in``, match)."""
    found: list[tuple[int, str]] = []

    def named(node: ast.AST | None) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
            return node.value
        return None

    def check(node: ast.AST | None, line: int) -> None:
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            for element in node.elts:
                check(element, line)
        elif (name := named(node)) is not None:
            found.append((line, name))

    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key in node.keys:
                check(key, node.lineno)
        elif isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                check(operand, node.lineno)
        elif isinstance(node, ast.Subscript):
            check(node.slice, node.lineno)
        elif isinstance(node, ast.MatchValue):
            check(node.value, node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            found += [(node.lineno, k.arg) for k in node.keywords if k.arg in names]
    return found


def test_no_shared_module_names_a_game() -> None:
    names = set(BUILTIN_GAMES)
    offenders = []
    for folder in SHARED:
        for path in sorted((SRC / folder).rglob("*.py")):
            if any(path == e or e in path.parents for e in EXEMPT):
                continue
            for line, name in game_names_named(ast.parse(path.read_text()), names):
                offenders.append(f"{path.relative_to(SRC)}:{line}: {name}")
    assert offenders == []


def test_the_scan_finds_each_way_of_naming_a_game() -> None:
    source = """
PITCHES = {"citadels": "x"}
if game == "capital_lux_2" and view["caprice"]: pass
if name in ("capitol", "other"): pass
match game:
    case "citadels": pass
options = dict(caprice=1)
harmless = "citadels is a game"  # a string, neither a key nor compared
"""
    found = game_names_named(ast.parse(source), set(BUILTIN_GAMES))
    expected = [(2, "citadels"), (3, "capital_lux_2"), (3, "caprice"), (4, "capitol"), (6, "citadels"), (7, "caprice")]
    assert sorted(found) == expected
