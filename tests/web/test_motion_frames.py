"""The boards a page plays back (``GET /tables/{id}/boards?since=V``, issue #43 item 1) are a new channel to a reader.

Each board is an earlier position drawn for its reader: re-dealt for that reader at that position
(``resample_from_infostate``), the world must draw the same board, say the same sentences and mark the same elements,
and its log must cut the moves where the real one does. So no intermediate board reveals what the reader could not
see at that moment. Every game and player count, every seat and the spectator, English and French. Also: every
action and public event of every game has its sentence in the past (no "Seat 2: …" fallback), and the marks name
the stable identities the issue asks for.
"""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.core import game_class
from meeple.core.records import GameRecord
from meeple.core.registry import load_game
from meeple.core.rng import Rng
from meeple.core.state import SPECTATOR, State
from meeple.i18n import Message, translator
from meeple.web.boards import display_name
from meeple.web.games import companion_for
from meeple.web.motion import MAX_BOARDS, Frame, frames, groups
from meeple.web.render import render_board

SHIPPED = [g for g in meeple.registered_games() if game_class(g).__module__.startswith("meeple.games.")]
"""The games meeple ships (a toy game registered by another test module in the same worker is not one)."""
CASES = [(name, n) for name in SHIPPED for n in range(game_class(name).min_players, game_class(name).max_players + 1)]


def _frames(state: State[Any], seat: int | None, since: int, lang: str) -> list[Frame]:
    reader = translator(lang)

    def draw(position: State[Any], log: Any, words: str) -> str:
        return render_board(position, seat, list(log), reader, words=words)

    def names(s: int) -> str:
        return display_name(s, reader, seat)

    return frames(state, seat, since, companion_for(state.game.name), names, reader, draw)


def _random_game(name: str, players: int, seed: int, upto: int | None = None) -> State[Any]:
    state = load_game(name, players=players).new_initial_state(seed)
    rng = Rng(seed)
    while not state.is_terminal() and (upto is None or len(state.history) < upto):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_board_played_back_is_the_same_in_every_world_its_reader_cannot_tell_apart(
    name: str, players: int
) -> None:
    full = _random_game(name, players, seed=7)
    rng = Rng(7)
    checked = 0
    for cut in (len(full.history) // 3, 2 * len(full.history) // 3, len(full.history)):
        state = GameRecord.from_state(full).replay(cut)
        for seat in [*range(players), None]:
            perspective = SPECTATOR if seat is None else seat
            version = len(state.history_messages(perspective))
            since = max(0, version - 1 - rng.randrange(8))
            lang = "fr" if checked % 2 else "en"
            shown = _frames(state, seat, since, lang)
            found = groups(state, perspective, since)
            assert len(shown) == len(found) and [f.version for f in shown] == [end for _f, end, _s, _l in found]
            for frame, (first, _end, _start, length) in zip(shown, found, strict=True):
                position = GameRecord.from_state(state).replay(length)
                # a spectator sees the public view, which every seat's re-deal keeps: seat 0's will do
                world = position.resample_from_infostate(0 if seat is None else seat, rng.fork())
                again = _frames(world, seat, first, lang)  # that move alone: the world is its position
                assert [f.to_json() for f in again] == [frame.to_json()], f"{name} seat {seat} v{frame.version}"
                checked += 1
    assert checked >= 10


def test_at_most_max_boards_are_drawn_and_the_older_moves_come_as_words() -> None:
    state = _random_game("citadels", 4, seed=3, upto=120)
    shown = _frames(state, 0, 0, "en")
    drawn = [f for f in shown if f.board is not None]
    assert len(shown) > MAX_BOARDS and len(drawn) == MAX_BOARDS and drawn == shown[-MAX_BOARDS:]
    reader = translator("en")
    words_only = frames(state, 0, 0, companion_for("citadels"), str, reader, lambda *a: "x", boards=0)
    assert [f.board for f in words_only] == [None] * len(shown)  # a page showing the others' moves at once
    assert [f.sentences for f in words_only] != []
    assert all(f.sentences for f in shown) and shown[-1].version == len(state.history_messages(0))
    assert all("data-action-code" not in (f.board or "") for f in shown)  # a board played back offers no move


@pytest.mark.parametrize("name", SHIPPED)
def test_every_action_and_event_has_its_sentence_in_the_past(name: str) -> None:
    web = companion_for(name)
    cls = game_class(name)
    missing: set[str] = set()
    for players in range(cls.min_players, cls.max_players + 1):
        for seed in range(3):
            state = _random_game(name, players, seed)
            for perspective in [*range(players), SPECTATOR, None]:
                for actor, message in state.history_messages(perspective):
                    if actor >= 0 and message.msgid not in web.past:
                        missing.add(message.msgid)
    assert not missing, f"{name}: no sentence in the past for {sorted(missing)}"


def test_a_summary_sentence_names_the_players_and_reads_in_french() -> None:
    web = companion_for("citadels")
    from meeple.games.citadels.vocabulary import THE_CHARACTER

    names = ["Ann", "Seat 2", "Bob", "Seat 4"].__getitem__
    murder = Message("assassinate {character}", {"character": THE_CHARACTER[4]})
    from meeple.web.motion import sentence

    assert sentence(web, 0, murder, names, translator("en")) == "Ann assassinated the King"
    assert sentence(web, 0, murder, names, translator("fr")) == "Ann a assassiné le Roi"
    swap = Message("swap hands with seat {seat}", {"seat": 2})
    assert sentence(web, 3, swap, names, translator("en")) == "Seat 4 swapped hands with Bob"


@pytest.mark.parametrize(
    ("name", "action", "keys"),
    [
        ("citadels", {"type": "assassinate", "character": 4}, ["character-4"]),
        ("citadels", {"type": "build_district", "kind": 7}, ["district-2-7"]),
        ("citadels", {"type": "destroy_district", "seat": 1, "kind": 7}, ["seat-1"]),
        ("caprice", {"type": "move", "source": "A", "target": "D"}, ["tower-D"]),
        ("caprice", {"type": "place", "piece": "DR", "space": "F"}, ["tower-F"]),
        ("capitol", {"type": "place_building", "height": 2, "roof": 1, "zone": 6}, ["zone-6"]),
        ("capital_lux_2", {"type": "play_to_city", "card": 33}, ["card-33"]),
    ],
)
def test_a_move_marks_the_stable_identity_it_acted_on(name: str, action: dict[str, Any], keys: list[str]) -> None:
    """Keys name pieces, cards, towers, zones and seats by identity, never by a position on the screen: a Caprice
    move marks the tower the piece went to (not the one it left)."""
    assert companion_for(name).marks(action, 2) == keys


def test_the_boards_route_bounds_what_a_stranger_sends(tmp_path: Any) -> None:
    """``since`` a number from 0 to 1,000,000, ``lang`` short, and ``--boards-per-minute`` per address (429 with
    Retry-After); a seat's cookie gets its own moves' boards, a stranger the spectator's (no move, no hand)."""
    from fastapi.testclient import TestClient

    from meeple.server.app import ServerConfig
    from meeple.server.policy import SeatPolicy
    from meeple.server.quotas import Quotas
    from meeple.web.app import create_web_app

    quotas = Quotas(boards_per_minute=6, tables_per_minute=100)
    config = ServerConfig(
        db=f"sqlite:///{tmp_path / 's.db'}",
        bot_workers=0,
        allow_seed=True,
        quotas=quotas,
        policy=SeatPolicy(any_bot=True, bot_tables=True),
    )
    with TestClient(create_web_app(config)) as client:
        body = {"game": "caprice", "seats": ["human", "bot:random"], "seed": 3}
        table = client.post("/api/tables", json=body).json()["table"]
        for since in ("-1", "1000001", "x"):
            assert client.get(f"/tables/{table}/boards?since={since}").status_code == 422
        assert client.get(f"/tables/{table}/boards?lang={'e' * 9}").status_code == 422
        for boards in ("-1", str(MAX_BOARDS + 1)):
            assert client.get(f"/tables/{table}/boards?boards={boards}").status_code == 422
        answer = client.get(f"/tables/{table}/boards?since=0").json()
        assert set(answer) == {"version", "frames", "board"} and "data-action-code" not in answer["board"]
        for _ in range(6):
            refused = client.get(f"/tables/{table}/boards?since=0")
            if refused.status_code != 200:
                break
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
