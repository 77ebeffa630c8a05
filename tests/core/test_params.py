"""Every game parameter has a checked range, refused the same way everywhere (issue 41, item 1).

A 17-character ROB deck expanded to ten million cards (154 MiB in the server and in every bot worker). Now every
parameter of every game that is not a choice declares its bounds (``meeple.core.params.param``): integers, string
lengths, tuple items, and for a string that expands, a bounded check run before anything is built. The unit tests
here try each parameter's extremes and the values just past them (tests/core/param_extremes.py); the same cases go
through a running ``meeple serve`` in tests/server/test_params.py.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.core import InvalidParameterError, load_game
from meeple.core.params import MAX_TEXT, build_params, check_declared, describe_params, param
from meeple.core.registry import game_class
from meeple.core.testing import check_game
from meeple.games.capital_lux_2.data import ROB_DECK_MAX, ROB_KIND_MAX, parse_rob_deck
from meeple.i18n import language, tr
from tests.core.param_extremes import BUILTIN, Case, all_cases

ISSUE = {"players": 2, "rob_deck": "left=10000000/0/0"}
"""The parameters of the issue's request."""
DOCS = Path(__file__).resolve().parents[2] / "docs" / "server.md"


@pytest.mark.parametrize("game", BUILTIN)
def test_every_parameter_of_every_game_is_a_choice_or_has_a_complete_range(game: str) -> None:
    specs = describe_params(game_class(game).params_type)
    for spec in specs:
        if spec.choices is not None:
            assert spec.bounds is None, spec.name
            continue
        bounds = spec.bounds
        assert bounds is not None, f"{game}.{spec.name} has no range"
        if spec.type_name in ("int", "tuple"):
            assert bounds.low is not None and bounds.high is not None, spec.name
        if spec.type_name in ("str", "tuple"):
            assert bounds.max_length is not None and bounds.max_length < MAX_TEXT, spec.name
        assert spec.allowed is not None and str(spec.allowed), spec.name
    players = next(s for s in specs if s.name == "players").bounds
    assert players is not None and players.low is not None
    assert players.high == game_class(game).max_players and players.low <= game_class(game).min_players


@pytest.mark.parametrize("case", all_cases(), ids=str)
def test_each_extreme_is_accepted_and_each_value_past_it_refused_saying_what_is_allowed(case: Case) -> None:
    if case.valid:
        game = load_game(case.game, **case.params)
        assert game.params_dict()[case.name] == (
            list(case.value) if isinstance(case.value, list) else case.value
        ) or case.name in ("board_layout", "tiles")
        return
    with pytest.raises(InvalidParameterError) as caught:
        load_game(case.game, **case.params)
    text = str(caught.value)
    assert len(text) < 400, "the error quotes the input at length"
    if case.name == "players":
        assert re.search(rf"{case.game} is played by \d to \d players", text), text
    else:
        assert f"{case.game} parameter '{case.name}' " in text and "allowed: " in text, text
    with language("fr"):
        french = tr(caught.value.message)
    assert "joueurs" in french if case.name == "players" else "permis" in french, french


@pytest.mark.parametrize("case", [c for c in all_cases() if c.valid], ids=str)
def test_a_game_at_each_extreme_plays_and_restores(case: Case) -> None:
    """The extremes are real games: the conformance harness plays them (every check every 25 decisions)."""
    params = {k: v for k, v in case.params.items() if k != "players"}
    players = case.params.get("players", game_class(case.game).max_players if case.name != "players" else 0)
    check_game(case.game, seeds=[1], player_counts=[players], params=params, check_every=25)


def test_the_issues_rob_deck_is_refused_before_a_card_is_made() -> None:
    with pytest.raises(InvalidParameterError, match="at most 20 of a kind") as caught:
        load_game("capital_lux_2", **ISSUE)
    assert "rob_deck" in str(caught.value) and f"1 to {ROB_DECK_MAX} ROB cards in all" in str(caught.value)
    with pytest.raises(ValueError, match="at most 20 of a kind"):
        parse_rob_deck("left=" + "9" * 4000 + "/0/0")
    assert len(parse_rob_deck(f"left={ROB_KIND_MAX}/0/0,right={ROB_KIND_MAX}/0/0")) == ROB_DECK_MAX


def test_a_long_string_is_refused_before_it_is_parsed() -> None:
    huge = ",".join(["1"] * 5_000_000)  # ten million characters: split, it would be five million tokens
    with pytest.raises(InvalidParameterError, match=f"has {len(huge)} characters; allowed: at most {MAX_TEXT}"):
        load_game("capital_lux_2", agent_modifiers=huge)


def test_the_command_line_the_arena_the_adapters_and_the_server_refuse_alike(tmp_path: Path) -> None:
    """One parameter layer: the same words from every entry point (the server's through its API, as a stranger)."""
    from fastapi.testclient import TestClient
    from typer.testing import CliRunner

    from meeple.arena.match import play_bots
    from meeple.cli.app import app
    from meeple.server.app import ServerConfig
    from meeple.web import create_web_app

    with pytest.raises(InvalidParameterError) as caught:
        load_game("capital_lux_2", **ISSUE)
    words = str(caught.value)
    assert "capital_lux_2 parameter 'rob_deck' cannot be 'left=10000000/0/0'" in words
    cli = CliRunner().invoke(app, ["play", "capital_lux_2", "--players", "2", "--rob-deck", "left=10000000/0/0"])
    assert cli.exit_code == 2 and words in " ".join(cli.output.split())
    with pytest.raises(InvalidParameterError, match=re.escape(words)):
        play_bots("capital_lux_2", {"rob_deck": "left=10000000/0/0"}, 1, ["random", "random"])
    pyspiel = pytest.importorskip("pyspiel")
    import meeple.adapters.openspiel  # noqa: F401  (registers the games)

    with pytest.raises(InvalidParameterError, match=re.escape(words)):
        pyspiel.load_game("meeple_capital_lux_2(players=2,rob_deck=left:10000000/0/0)")
    from meeple.adapters.pettingzoo import env as pettingzoo_env

    with pytest.raises(InvalidParameterError, match=re.escape(words)):
        pettingzoo_env("capital_lux_2", **ISSUE)
    config = ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0)
    with TestClient(create_web_app(config)) as client:
        body = {"game": "capital_lux_2", "params": ISSUE, "seats": ["human", "human"]}
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 422 and words in answer.text
        assert client.get("/api/tables").json() == []
        games = {g["game"]: {p["name"]: p for p in g["params"]} for g in client.get("/api/games").json()}
        rob = games["capital_lux_2"]["rob_deck"]
        assert rob["range"]["max_length"] == 64 and "1 to 40 ROB cards in all" in rob["allowed"]
        assert games["citadels"]["max_rounds"]["range"] == {
            "min": 1,
            "max": 1000,
            "min_length": None,
            "max_length": None,
            "expands": None,
        }
        assert games["citadels"]["deck"]["range"] is None and games["citadels"]["deck"]["choices"] == ["fr1", "en"]


def test_a_parameter_without_a_range_is_a_mistake_of_the_game_not_of_the_caller() -> None:
    @dataclass(frozen=True)
    class Loose:
        players: int = param(2, "players", low=2, high=4)
        rounds: int = 3

    @dataclass(frozen=True)
    class OutOfItsOwnRange:
        players: int = param(9, "players", low=2, high=4)

    @dataclass(frozen=True)
    class Unsized:
        name: str = param("x", "a name", low=0, high=1)

    for cls, words in ((Loose, "needs bounds"), (OutOfItsOwnRange, "outside its bounds"), (Unsized, "incomplete")):
        with pytest.raises(TypeError, match=words):
            check_declared(cls)
        with pytest.raises(TypeError, match=words):
            build_params(cls, {}, "loose")


def _doc_rows() -> list[str]:
    rows = []
    for game in BUILTIN:
        for spec in game_class(game).describe_params():
            allowed = str(spec.allowed).replace("|", "\\|")
            default = ",".join(map(str, spec.default)) if isinstance(spec.default, tuple) else spec.default
            rows.append(f"| `{game}` | `{spec.name}` | {allowed} | `{json.dumps(default)}` |")
    return rows


def test_docs_server_md_states_every_parameters_range() -> None:
    text = DOCS.read_text()
    missing = [row for row in _doc_rows() if row not in text]
    assert not missing, "docs/server.md lacks these rows:\n" + "\n".join(missing)


def _allowed_column(output: str) -> str:
    """The "allowed values" column of ``meeple rules``'s table, its wrapped lines joined."""
    cells = [line.split("│")[2].strip() for line in output.splitlines() if line.count("│") >= 4]
    return " ".join(cells)


def test_meeple_rules_shows_the_ranges_in_both_languages() -> None:
    from typer.testing import CliRunner

    from meeple.cli.app import app

    english = _allowed_column(CliRunner().invoke(app, ["rules", "capital_lux_2"]).output)
    assert "at most 20 cards of a kind, 1 to 40 ROB cards in all" in english, english
    assert "1 to 8 integers, each -10..10" in english and "1..4" in english
    french = _allowed_column(CliRunner().invoke(app, ["--lang", "fr", "rules", "capitol"]).output)
    assert "au plus 100 caractères" in french and "9 zones, 3 de chaque couleur C1-C3" in french, french
    assert "-1..3" in french


_VALUES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats()
    | st.text(max_size=300)
    | st.from_regex(r"(left|right|top)=[0-9]{1,12}/[0-9]{1,3}/[0-9]{1,3}(,(left|right|top)=[0-9]{1,9}/[0-9]/[0-9])*")
    | st.from_regex(r"(C[1-3]:[0-9]{1,3}:[0-9]{1,2},){8}C[1-3]:[0-9]{1,3}:[0-9]{1,2}", fullmatch=True)
    | st.lists(st.integers(min_value=-(2**70), max_value=2**70), max_size=12)
    | st.lists(st.integers(min_value=-12, max_value=12), max_size=10).map(lambda v: ",".join(map(str, v)))
)


@pytest.mark.parametrize("game", BUILTIN)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_value_of_any_parameter_gives_a_game_within_its_ranges_or_a_clear_refusal(
    game: str, data: st.DataObject
) -> None:
    """Hypothesis draws values of every kind (huge integers, long texts, deck and board descriptions with big
    counts): each either builds a game whose parameters are all within their ranges, or raises
    ``InvalidParameterError``; never another exception, never more than a range allows."""
    specs = {s.name: s for s in game_class(game).describe_params()}
    names = data.draw(st.lists(st.sampled_from(sorted(specs)), min_size=1, max_size=3, unique=True))
    given = {name: data.draw(_VALUES) for name in names}
    try:
        loaded = load_game(game, **given)
    except InvalidParameterError as exc:
        assert str(exc) and len(str(exc)) < 500
        return
    for name, value in loaded.params_dict().items():
        bounds = specs[name].bounds
        if bounds is None:
            assert value in (specs[name].choices or ()), name
        elif isinstance(value, int) and not isinstance(value, bool):
            assert bounds.low is not None and bounds.high is not None and bounds.low <= value <= bounds.high
        elif isinstance(value, list):
            assert bounds.max_length is not None and bounds.min_length <= len(value) <= bounds.max_length
        else:
            assert bounds.max_length is not None and len(value) <= bounds.max_length
    if game == "capital_lux_2":
        assert 1 <= len(loaded.rob_cards) <= ROB_DECK_MAX  # type: ignore[attr-defined]


def test_a_long_list_is_refused_before_its_items_are_read() -> None:
    huge = [object()] * 10_000_000
    with pytest.raises(InvalidParameterError, match="has 10000000 items; allowed: 1 to 8 integers"):
        load_game("capital_lux_2", agent_modifiers=huge)
