"""Root-parallel ISMCTS (issue "Faster search"): worker processes, reproducible, and fed only what the seat knows."""

from __future__ import annotations

import json
from typing import Any

import pytest

from meeple.bots import make_bot, parallel
from meeple.bots.ismcts import ISMCTSBot
from meeple.core import InvalidParameterError, Rng, SeatView, load_game
from meeple.core.state import State


def _position(game: str, players: int, steps: int = 8) -> State[Any]:
    state = load_game(game, players=players).new_initial_state(4)
    rng = Rng(4)
    for _ in range(steps):
        if state.is_terminal():
            return state
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    while not state.is_terminal() and len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    return state


def test_the_budget_is_shared_and_the_move_is_reproducible() -> None:
    state = _position("caprice", 2)
    view = SeatView(state, state.current_player())
    moves, stats = [], []
    for _ in range(2):
        bot = ISMCTSBot(seed=9, iterations=301, workers=2)
        moves.append(bot.select_action(view))
        assert bot.last_iterations == 301  # 151 here and 150 in the worker process
        merged, total = ISMCTSBot(seed=0, iterations=301, workers=2).search_root(view, 77)
        stats.append(merged)
        assert total == 301 and sum(n for n, _ in merged.values()) == 301
    assert moves[0] == moves[1] and stats[0] == stats[1]
    assert moves[0] in state.legal_actions()


def test_the_prior_is_kept_in_every_share() -> None:
    state = _position("citadels", 4)
    view = SeatView(state, state.current_player())
    bot = make_bot("ismcts:40:rollout=random:prior=heuristic:workers=2", "citadels", seed=3)
    assert isinstance(bot, ISMCTSBot) and bot.workers == 2
    assert bot.select_action(view) in state.legal_actions()


def test_a_worker_receives_a_world_the_seat_cannot_tell_from_the_real_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The new channel (a determinization sent to a worker process) is the same from every world the seat
    cannot tell apart, and it is never the real state."""
    real = _position("capitol", 3, steps=20)
    seat = real.current_player()
    twin = real.resample_from_infostate(seat, Rng(123))
    sent: dict[str, list[str]] = {}

    class Capture:
        def submit(self, fn: Any, worker: Any, options: Any, world: State[Any], *args: Any) -> Any:
            assert world is not real and world is not twin
            sent.setdefault(label, []).append(json.dumps(world.to_json()["body"], sort_keys=True))

            class Done:
                @staticmethod
                def result() -> tuple[dict[int, tuple[int, float]], int]:
                    return {}, 0

            return Done()

    monkeypatch.setattr(parallel, "_pool", lambda size: (Capture(), None))
    monkeypatch.setattr(parallel, "_wait_started", lambda started, futures: None)
    for label, state in (("real", real), ("twin", twin)):  # noqa: B007 - Capture.submit reads it
        ISMCTSBot(seed=0, iterations=12, workers=3).search_root(SeatView(state, seat), 5)
    assert len(sent["real"]) == 2 and sent["real"] == sent["twin"]


def test_workers_option() -> None:
    assert parallel.split(10, 3) == [4, 3, 3] and parallel.split(None, 2) == [None, None]
    assert parallel.share_seed(42, 0) == 42 and parallel.share_seed(42, 1) != parallel.share_seed(42, 2)
    assert parallel.resolve_workers("auto") == 1  # tests run with MEEPLE_SEARCH_WORKERS=1 (conftest)
    assert parallel.resolve_workers("cores") >= 1
    assert "workers=" not in repr(make_bot("ismcts:10", "caprice"))
    with pytest.raises(InvalidParameterError, match="positive integer, cores or auto"):
        make_bot("ismcts:10:workers=0", "caprice")
    with pytest.raises(InvalidParameterError, match="positive integer, cores or auto"):
        make_bot("ismcts:10:workers=many", "caprice")


def test_auto_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(parallel.WORKERS_ENV, "cores")
    assert parallel.resolve_workers("auto") == parallel.resolve_workers("cores")
    monkeypatch.setenv(parallel.WORKERS_ENV, "3")
    assert make_bot("ismcts:10:workers=auto", "caprice").workers == 3  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game", "players"), [("citadels", 4), ("capitol", 3), ("capital_lux_2", 2), ("caprice", 2)])
def test_states_with_log_events_pickle(game: str, players: int) -> None:
    """Worker processes and Ray tasks get pickled states; their public log events are immutable messages."""
    import pickle

    state = _position(game, players, steps=40)
    back = pickle.loads(pickle.dumps(state))
    assert back.to_json() == state.to_json()
    assert back.history_texts(0) == state.history_texts(0)
    world = state.resample_from_infostate(state.current_player(), Rng(1))  # what a worker gets: hidden steps too
    copy = pickle.loads(pickle.dumps(world))
    assert copy.to_json() == world.to_json() and copy.legal_actions() == world.legal_actions()


def test_a_dead_worker_drops_its_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that died raises at once, and the next search starts a new pool instead of reusing the broken one."""
    from concurrent.futures.process import BrokenProcessPool

    class Dead:
        def submit(self, *args: Any) -> Any:
            class Failed:
                @staticmethod
                def result() -> Any:
                    raise BrokenProcessPool("a worker died")

                @staticmethod
                def done() -> bool:
                    return True

            return Failed()

    dead = (Dead(), None)
    monkeypatch.setitem(parallel._POOLS, 1, dead)
    monkeypatch.setattr(parallel, "_wait_started", lambda started, futures: None)
    state = _position("caprice", 2)
    with pytest.raises(BrokenProcessPool):
        ISMCTSBot(seed=0, iterations=8, workers=2).search_root(SeatView(state, state.current_player()), 1)
    assert 1 not in parallel._POOLS
