"""ISMCTS: reproducibility, information hiding, budgets, strength on the toy game."""

from __future__ import annotations

import random
import time

import pytest

import tests.core.toy_game  # noqa: F401  (registers toy_auction)
from meeple.arena.match import play_match
from meeple.bots import bot_names, make_bot
from meeple.bots.factory import build_level_spec
from meeple.bots.ismcts import ISMCTSBot, _Node, parse_ismcts_spec
from meeple.bots.levels import LEVEL_NAMES, LevelBot, NoisyBot, level_spec
from meeple.core import InvalidParameterError, Rng, SeatView, load_game
from meeple.games.capital_lux_2.actions import PlayToCity


def _mid_game_state(players: int = 3, seed: int = 5):  # type: ignore[no-untyped-def]
    """A toy state where seat 2 is to bid after seats 0 and 1 sealed theirs (hidden from it)."""
    game = load_game("toy_auction", players=players)
    state = game.new_initial_state(seed)
    state.apply_action(game.to_action({"type": "bid", "amount": 3}))
    state.apply_action(game.to_action({"type": "bid", "amount": 1}))
    assert state.current_player() == 2
    return state


def test_reproducible_for_fixed_iterations() -> None:
    state = _mid_game_state()
    picks = {ISMCTSBot(seed=11, iterations=300).select_action(SeatView(state, 2)) for _ in range(3)}
    assert len(picks) == 1
    a = ISMCTSBot(seed=11, iterations=300).root_statistics(SeatView(state, 2))
    b = ISMCTSBot(seed=11, iterations=300).root_statistics(SeatView(state, 2))
    assert a == b


def test_equal_information_gives_equal_decisions() -> None:
    state = _mid_game_state()
    for k in range(4):
        other = state.resample_from_infostate(2, Rng(100 + k))
        # the hidden parts really differ, but seat 2 cannot tell the states apart
        assert other.information_state_string(2) == state.information_state_string(2)
        for seed in (1, 2):
            stats_a = ISMCTSBot(seed=seed, iterations=200).root_statistics(SeatView(state, 2))
            stats_b = ISMCTSBot(seed=seed, iterations=200).root_statistics(SeatView(other, 2))
            assert stats_a == stats_b
    differing = [
        s
        for s in (state.resample_from_infostate(2, Rng(100 + k)) for k in range(4))
        if (s.cards, s.bids.values) != (state.cards, state.bids.values)
    ]
    assert differing, "the test needs states whose hidden information differs"


def test_iteration_budget_and_time_budget() -> None:
    state = _mid_game_state()
    bot = ISMCTSBot(seed=0, iterations=57)
    bot.select_action(SeatView(state, 2))
    assert bot.last_iterations == 57
    timed = ISMCTSBot(seed=0, time_limit=0.2)
    start = time.perf_counter()
    timed.select_action(SeatView(state, 2))
    elapsed = time.perf_counter() - start
    assert 0.15 < elapsed < 1.0
    assert timed.last_iterations > 10
    both = ISMCTSBot(seed=0, iterations=5, time_limit=10.0)
    both.select_action(SeatView(state, 2))
    assert both.last_iterations == 5


def test_forced_move_skips_search() -> None:
    game = load_game("toy_auction", players=2, coins=0)
    state = game.new_initial_state(0)
    bot = ISMCTSBot(seed=0, iterations=50)
    action = bot.select_action(SeatView(state, state.current_player()))
    assert action in state.legal_actions() and bot.last_iterations == 0


def test_specs_and_errors() -> None:
    assert "ismcts" in bot_names() and all(level in bot_names() for level in LEVEL_NAMES)
    bot = make_bot("ismcts:250", "toy_auction", seed=3)
    assert isinstance(bot, ISMCTSBot) and bot.iterations == 250 and bot.time_limit is None
    timed = make_bot("ismcts:time=0.5", "toy_auction")
    assert isinstance(timed, ISMCTSBot) and timed.time_limit == 0.5 and timed.iterations is None
    full = parse_ismcts_spec("100:rollout=heuristic:depth=20:c=1.2:shaping=0", 0)
    assert (full.iterations, full.rollout, full.rollout_depth, full.exploration, full.shaping) == (
        100,
        "heuristic",
        20,
        1.2,
        0.0,
    )
    for bad in ("ismcts:0", "ismcts:abc", "ismcts:rollout=smart", "ismcts:foo=1", "ismcts:time=-1"):
        with pytest.raises(InvalidParameterError):
            make_bot(bad, "toy_auction")
    assert parse_ismcts_spec("100:loop=closed", 0).loop == "closed"
    assert parse_ismcts_spec("100", 0).loop == "open"
    with pytest.raises(InvalidParameterError, match="use open or closed"):
        make_bot("ismcts:100:loop=sideways", "toy_auction")


def test_levels_build_bots() -> None:
    assert level_spec("easy", "toy_auction") == "random"  # no heuristic bot for the toy game
    hard = make_bot("hard", "toy_auction", seed=1)
    assert isinstance(hard, ISMCTSBot)
    with pytest.raises(InvalidParameterError):
        level_spec("impossible", "toy_auction")
    noisy = NoisyBot(make_bot("ismcts:20", "toy_auction"), 1.0, seed=4)
    state = _mid_game_state()
    assert noisy.select_action(SeatView(state, 2)) in state.legal_actions()


def test_heuristic_rollouts_use_seat_views(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.core.toy_game import toy_companions

    with toy_companions(heuristic_bot="meeple.bots.random:RandomBot"):
        state = _mid_game_state()
        bot = make_bot("ismcts:50:rollout=heuristic", "toy_auction", seed=2)
        assert bot.select_action(SeatView(state, 2)) in state.legal_actions()


def test_beats_random_on_toy_game() -> None:
    credit = [0.0, 0.0]
    for seed in range(24):
        bots = [make_bot("ismcts:150", "toy_auction", seed), make_bot("random", "toy_auction", seed)]
        swap = seed % 2
        seated = bots[::-1] if swap else bots
        ret = play_match("toy_auction", {"players": 2}, seed // 2, seated).record.returns
        total = sum(ret)
        for seat in range(2):
            credit[(seat + swap) % 2] += ret[seat] / total
    assert credit[0] >= 15, credit  # fair share 12 of 24


def test_heuristic_prior_is_kept_unless_clearly_beaten(monkeypatch: pytest.MonkeyPatch) -> None:
    from meeple.bots import Bot
    from tests.core.toy_game import toy_companions

    class FirstBot(Bot):
        name = "first"

        def select_action(self, view: SeatView):  # type: ignore[no-untyped-def]
            return view.legal_actions()[0]

    import sys
    import types

    module = types.ModuleType("_first_bot_for_tests")
    module.FirstBot = FirstBot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "_first_bot_for_tests", module)
    with toy_companions(heuristic_bot="_first_bot_for_tests:FirstBot"):
        state = _mid_game_state()
        view = SeatView(state, 2)
        first = state.legal_actions()[0]
        stubborn = make_bot("ismcts:200:prior=heuristic:trust=1000", "toy_auction", seed=1)
        assert stubborn.select_action(view) == first
        free = make_bot("ismcts:200:prior=heuristic:trust=-1000", "toy_auction", seed=1)
        plain = make_bot("ismcts:200", "toy_auction", seed=1)
        stats = plain.root_statistics(view)  # type: ignore[attr-defined]
        best = max(stats, key=lambda a: stats[a])
        assert free.select_action(view) != first or best == first
        with pytest.raises(InvalidParameterError):
            make_bot("ismcts:10:prior=oracle", "toy_auction")


def test_levels_of_the_registered_games() -> None:
    from meeple.bots import has_heuristic_bot
    from meeple.core import game_class, registered_games

    for game in registered_games():
        hard = make_bot("hard", game, seed=0)
        if isinstance(hard, LevelBot):
            hard = hard.bot_for(game_class(game).max_players)
        assert isinstance(hard, ISMCTSBot)
        if has_heuristic_bot(game):
            assert hard.prior == "heuristic"
            assert isinstance(make_bot("easy", game), NoisyBot)
            assert make_bot("medium", game).name == "heuristic"


@pytest.mark.parametrize("game_name", ["caprice", "capital_lux_2", "capitol", "citadels"])
def test_ismcts_plays_every_game(game_name: str) -> None:
    from meeple.core import game_class, registered_games

    if game_name not in registered_games():
        pytest.skip(f"{game_name} is not registered yet")
    cls = game_class(game_name)
    players = max(3, cls.min_players)
    game = load_game(game_name, players=players)
    state = game.new_initial_state(2)
    bot = ISMCTSBot(seed=0, iterations=10)
    random_bot = make_bot("random", game_name, seed=0)
    searched = 0
    while not state.is_terminal() and searched < 3:
        seat = state.current_player()
        view = SeatView(state, seat)
        if seat == 0 and len(view.legal_actions()) > 1:
            action = bot.select_action(view)
            searched += 1
        else:
            action = random_bot.select_action(view)
        state.apply_action(action)
    assert searched == 3


def test_a_level_can_depend_on_the_player_count() -> None:
    hard = make_bot("hard", "capital_lux_2", seed=3)
    assert isinstance(hard, LevelBot)
    solo = hard.bot_for(1)
    assert isinstance(solo, ISMCTSBot) and solo.rollout == "policy" and solo.prior is None
    duo = hard.bot_for(2)
    assert isinstance(duo, ISMCTSBot) and duo.prior == "heuristic"
    assert hard.bot_for(1) is solo  # built once
    assert level_spec("hard", "capital_lux_2", 1) == "ismcts:1000:rollout=policy"
    assert level_spec("hard", "capital_lux_2", 3) == level_spec("hard", "capital_lux_2")
    state = load_game("capital_lux_2", players=1).new_initial_state(0)
    cheap = LevelBot("hard", "capital_lux_2", build_level_spec, seed=1)
    cheap._bots[1] = make_bot("ismcts:5:rollout=policy", "capital_lux_2", seed=1)
    assert cheap.select_action(SeatView(state, 0)) in state.legal_actions()


def _solo_play_state():  # type: ignore[no-untyped-def]
    """A Capital Lux 2 solo state at the player's first play (ROB moves after it, inside ``apply_action``)."""
    state = load_game("capital_lux_2", players=1).new_initial_state(4)
    while state.phase != 1:  # the draft: keep the first card offered
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("loop", ["open", "closed"])
def test_closed_loop_splits_nodes_by_what_the_seat_saw(loop: str) -> None:
    state = _solo_play_state()
    bot = ISMCTSBot(seed=1, iterations=120, rollout="policy", loop=loop)
    root = _Node()
    bot._search(SeatView(state, 0), root, Rng(5), random.Random(5))
    # a City play triggers no power: ROB's turn follows at once (a Capital play may first ask for a power's choice)
    action = max((a for a in root.edges if isinstance(a, PlayToCity)), key=lambda a: root.edges[a].n)
    assert root.edges[action].n > 6
    kids = [key for key in root.kids if (key[0] if loop == "closed" else key) == action]
    if loop == "open":
        assert len(kids) == 1  # every card ROB may turn next leads to the same node
    else:
        # one node per thing the seat may see ROB do (or be dealt) after its move, each keyed by what it sees:
        # the key's ROB part (last turn: ROB card, citizen card colour, where it went, bonus taken) takes several values
        rob_turns = {key[1][-1] for key in kids}
        assert len(kids) > 5 and len(rob_turns) > 3


def test_closed_loop_reads_only_what_the_seat_knows() -> None:
    state = _solo_play_state()
    for k in range(3):
        other = state.resample_from_infostate(0, Rng(30 + k))
        assert other.deck != state.deck  # the hidden parts really differ
        stats_a = ISMCTSBot(seed=7, iterations=150, rollout="policy", loop="closed").root_statistics(SeatView(state, 0))
        stats_b = ISMCTSBot(seed=7, iterations=150, rollout="policy", loop="closed").root_statistics(SeatView(other, 0))
        assert stats_a == stats_b
