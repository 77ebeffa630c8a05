"""The core mechanisms on a toy game: sealed commitments, a decision stack, errors, records, conformance."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import meeple
from meeple.core import (
    SEALED,
    Action,
    Game,
    GameRecord,
    InvalidActionError,
    InvalidStateError,
    Rng,
    State,
    read_records,
    snapshot,
    write_records,
)
from meeple.core.state import HiddenAction
from meeple.core.testing import ConformanceError, check_game
from tests.core.toy_game import Bid, Give, GiveTo, Keep, ToyState


def new_state(players: int = 3, seed: int = 5) -> ToyState:
    state = meeple.load_game("toy_auction", players=players).new_initial_state(seed)
    assert isinstance(state, ToyState)
    return state


def test_conformance_harness_passes_on_the_toy_game() -> None:
    report = check_game("toy_auction", seeds=range(6))
    assert report.games == 18
    assert report.player_counts == (2, 3, 4)
    assert report.decisions >= 18 * 3 * 2


def test_sealed_bids_are_hidden_until_all_are_in() -> None:
    state = new_state()
    state.apply_action(Bid(3))  # seat 0 commits
    assert state.current_player() == 1
    assert state.observation(1)["bids"] == [SEALED, None, None]
    assert state.observation(0)["bids"] == [3, None, None]
    assert state.observation(None)["bids"] == [SEALED, None, None]
    assert state.action_to_string(Bid(3), perspective=1, actor=0) == "seal a bid"
    assert state.action_to_string(Bid(3), perspective=0, actor=0) == "bid 3"
    assert "3" not in state.information_state_string(1).split("\n", 1)[1]
    state.apply_action(Bid(1))
    state.apply_action(Bid(3))  # tie with seat 0: seat 0 bid first and wins
    assert state.revealed == [[3, 1, 3]]
    assert state.coins == [1, 4, 4]
    assert state.current_player() == 0


def test_decision_stack_gives_a_lot_in_two_steps() -> None:
    state = new_state()
    for amount in (0, 2, 1):
        state.apply_action(Bid(amount))
    assert state.current_player() == 1
    assert state.legal_actions() == [Keep(), Give()]
    state.apply_action(Give())
    assert state.legal_actions() == [GiveTo(0), GiveTo(2)]
    state.apply_action(GiveTo(2))
    assert state.lots == [0, 0, 1]
    assert state.current_player() == 1  # lot 2 starts with seat 1


def test_illegal_action_raises_and_changes_nothing() -> None:
    state = new_state()
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(meeple.IllegalActionError, match="not legal now.*legal: bid 0"):
        state.apply_action(Keep())
    with pytest.raises(meeple.NotYourTurnError, match="seat 0's turn, not seat 2's"):
        state.apply_action(Bid(1), player=2)
    with pytest.raises(meeple.InvalidActionError, match="unknown action type 'fly'"):
        state.apply_action({"type": "fly"})
    with pytest.raises(meeple.InvalidActionError, match="amount"):
        state.apply_action({"type": "bid", "amount": "two"})
    with pytest.raises(meeple.InvalidActionError, match="out of range"):
        state.apply_action(999)
    assert isinstance(meeple.IllegalActionError("x"), ValueError)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_actions_have_json_codes_and_text() -> None:
    game = meeple.load_game("toy_auction", players=2)
    assert Bid(2).to_json() == {"type": "bid", "amount": 2}
    assert game.action_from_json({"type": "give_to", "seat": 1}) == GiveTo(1)
    assert game.action_from_code(game.action_code(GiveTo(1))) == GiveTo(1)
    state = game.new_initial_state(0)
    assert state.string_to_action("BID 2") == Bid(2)
    assert state.string_to_action('{"type": "bid", "amount": 1}') == Bid(1)
    with pytest.raises(meeple.InvalidActionError, match="legal: bid 0; bid 1"):
        state.string_to_action("bid lots")


def test_bad_parameters_are_explained() -> None:
    with pytest.raises(meeple.InvalidParameterError, match="2 to 4 players, not 7"):
        meeple.load_game("toy_auction", players=7)
    with pytest.raises(meeple.InvalidParameterError, match="no parameter 'colour'.*players, lots, coins"):
        meeple.load_game("toy_auction", colour="red")
    with pytest.raises(meeple.InvalidParameterError, match="'lots' cannot be 'many'; allowed: int"):
        meeple.load_game("toy_auction", lots="many")
    with pytest.raises(meeple.InvalidParameterError, match="unknown game 'chess'"):
        meeple.load_game("chess")
    assert meeple.load_game("toy_auction", players="3").num_players == 3


def test_resample_keeps_what_the_player_knows() -> None:
    state = new_state(players=4, seed=11)
    state.apply_action(Bid(2))
    state.apply_action(Bid(1))
    seen = state.observation(2)
    other = state.resample_from_infostate(2, Rng(3))
    assert other.observation(2) == seen
    assert isinstance(other, ToyState)
    assert other.cards[2] == state.cards[2]
    assert sorted(other.cards + other.deck) == sorted(state.cards + state.deck)
    changed = [other.resample_from_infostate(2, Rng(k)) for k in range(20)]
    assert any(c.cards[0] != state.cards[0] for c in changed)  # hidden cards really are re-dealt


def test_records_replay_and_files(tmp_path: object) -> None:
    state = new_state(seed=2)
    rng = Rng(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(rng.choice(legal))
    record = GameRecord.from_state(state, players=["a", "b", "c"])
    path = f"{tmp_path}/games.jsonl"
    write_records(path, [record, record])
    loaded = list(read_records(path))
    assert len(loaded) == 2 and loaded[0] == record
    again = loaded[0].replay()
    assert again.to_json() == state.to_json()
    assert record.returns == state.returns()
    with pytest.raises(meeple.InvalidStateError, match="failed at action 0"):
        meeple.replay("toy_auction", record.params, 2, [{"type": "keep"}])


def test_harness_catches_a_leaky_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def leaky_observation(self: ToyState, player: int | None) -> dict[str, object]:
        return {"cards": list(self.cards)}

    monkeypatch.setattr(ToyState, "observation", leaky_observation)
    with pytest.raises(ConformanceError, match="changed that player's observation"):
        check_game("toy_auction", seeds=[1], player_counts=[3])


def test_harness_catches_a_leaky_observation_key(monkeypatch: pytest.MonkeyPatch) -> None:
    def leaky_key(self: ToyState, player: int) -> tuple[int, ...]:
        return tuple(self.cards)  # every seat's card: what only each owner may know

    monkeypatch.setattr(ToyState, "observation_key", leaky_key)
    with pytest.raises(ConformanceError, match="observation_key"):
        check_game("toy_auction", seeds=[1], player_counts=[3])


def test_harness_catches_a_leaky_shown_key(monkeypatch: pytest.MonkeyPatch) -> None:
    def leaky_key(self: ToyState, player: int) -> tuple[int, ...]:
        return tuple(self.cards)  # every seat's card: undo's key must hold only what the seat may know

    monkeypatch.setattr(ToyState, "shown_key", leaky_key)
    with pytest.raises(ConformanceError, match="shown_key"):
        check_game("toy_auction", seeds=[1], player_counts=[3])


def test_harness_catches_a_resample_that_reads_the_hidden_order(monkeypatch: pytest.MonkeyPatch) -> None:
    fair = ToyState._resample

    def order_dependent(self: ToyState, player: int, rng: Rng) -> ToyState:
        other = fair(self, player, rng)
        if other.deck:  # still a uniform re-deal, but rotated by the true top card: a function of hidden parts
            k = self.deck[-1] % len(other.deck)
            other.deck = other.deck[k:] + other.deck[:k]
        return other

    monkeypatch.setattr(ToyState, "_resample", order_dependent)
    with pytest.raises(ConformanceError, match="cannot tell apart"):
        check_game("toy_auction", seeds=[1], player_counts=[3])


def test_harness_catches_a_shallow_clone(monkeypatch: pytest.MonkeyPatch) -> None:
    def shallow(self: ToyState, other: ToyState) -> None:
        other.deck, other.cards, other.coins, other.lots = self.deck, self.cards, self.coins, self.lots
        other.lot, other.bids, other.stack, other.revealed = self.lot, self.bids, self.stack, self.revealed

    monkeypatch.setattr(ToyState, "_copy_fields", shallow)
    with pytest.raises(ConformanceError, match="clone|modified the original"):
        check_game("toy_auction", seeds=[1], player_counts=[2])


def test_rng_clones_are_exact_and_independent() -> None:
    a = Rng(42)
    a.randrange(10)
    b = a.clone()
    c = b.clone()
    first = [a.randrange(1000) for _ in range(5)]
    assert [b.randrange(1000) for _ in range(5)] == first
    assert [c.randrange(1000) for _ in range(5)] == first
    assert a.to_json() == b.to_json() == c.to_json()
    a.randrange(1000)
    assert a.to_json() != b.to_json()
    restored = Rng.from_json(b.to_json())
    assert restored.random() == b.random()
    fork = a.fork()
    assert [fork.randrange(1000) for _ in range(5)] != [a.randrange(1000) for _ in range(5)]


def test_resampled_history_hides_what_the_player_did_not_see() -> None:
    from meeple.core.state import HiddenAction

    state = new_state(players=3, seed=4)
    state.apply_action(Bid(3))
    state.apply_action(Bid(2))
    other = state.resample_from_infostate(2, Rng(0))
    assert other.history == [(0, HiddenAction("seal a bid")), (1, HiddenAction("seal a bid"))]
    assert other.information_state_string(2) == state.information_state_string(2)
    assert json.dumps(other.to_json())  # serializable
    restored = other.game.state_from_json(json.loads(json.dumps(other.to_json())))
    assert restored.history == other.history
    mine = state.resample_from_infostate(0, Rng(0))
    assert mine.history[0] == (0, Bid(3))


def test_a_run_of_hidden_steps_reads_as_one() -> None:
    state = new_state(players=2, seed=4)
    state.history = [(0, Bid(1)), (0, Bid(2)), (1, Bid(0)), (0, Keep())]
    assert state.history_texts(1) == [(0, "seal a bid"), (1, "bid 0"), (0, "keep the lot")]
    assert state.history_texts(None)[:2] == [(0, "bid 1"), (0, "bid 2")]
    assert state.history_texts(0)[:2] == [(0, "bid 1"), (0, "bid 2")]


def test_other_seats_get_no_list_of_moves() -> None:
    state = new_state(players=3, seed=1)
    with pytest.raises(meeple.NotYourTurnError) as info:
        state.string_to_action("bid 9", player=2)
    assert "bid 0" not in str(info.value)
    assert state.string_to_action("bid 1", player=0) == Bid(1)


def test_move_number_counts_what_the_seat_saw() -> None:
    state = new_state(players=2, seed=4)
    state.history = [(0, Bid(1)), (0, Bid(2)), (1, Bid(0))]
    assert meeple.SeatView(state, 1).move_number() == 2
    assert meeple.SeatView(state, 0).move_number() == 3


def test_harness_catches_a_resample_that_keeps_the_real_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    fair = State.resample_from_infostate

    def keeps_seed(self: State[Any], player: int, rng: Rng) -> State[Any]:
        other = fair(self, player, rng)
        other.seed = self.seed  # the deal can be rebuilt with new_initial_state(other.seed)
        return other

    monkeypatch.setattr(State, "resample_from_infostate", keeps_seed)
    with pytest.raises(ConformanceError, match="kept the real seed"):
        check_game("toy_auction", seeds=[1], player_counts=[3])


def test_harness_catches_a_bad_input_that_crashes(monkeypatch: pytest.MonkeyPatch) -> None:
    decode = Game.to_action

    def sloppy(self: Game[Any], action: Any) -> Action:
        if isinstance(action, dict) and "type" in action:
            hash(action["type"])  # TypeError on {"type": []}
        return decode(self, action)

    monkeypatch.setattr(Game, "to_action", sloppy)
    with pytest.raises(ConformanceError, match="raised TypeError"):
        check_game("toy_auction", seeds=[1], player_counts=[3])


def test_harness_catches_a_restore_that_trusts_the_body(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "check_history", lambda game, wire: None)
    monkeypatch.setattr(ToyState, "check_consistency", lambda self: None)
    with pytest.raises(ConformanceError, match="tampered snapshot was accepted"):
        check_game("toy_auction", seeds=range(3), player_counts=[3])


def test_resampled_world_has_its_own_seed_and_cannot_rebuild_the_deal() -> None:
    state = new_state(players=3, seed=11)
    world = state.resample_from_infostate(0, Rng(99))
    assert world.seed != state.seed and world.rng.to_json() != state.rng.to_json()
    rebuilt = world.game.new_initial_state(world.seed)
    assert isinstance(rebuilt, ToyState)
    assert rebuilt.cards != state.cards or rebuilt.deck != state.deck
    again = state.resample_from_infostate(0, Rng(99))
    assert again.seed == world.seed  # drawn from the caller's generator: reproducible for a bot with a seed


def test_bad_action_inputs_raise_meeple_errors_and_change_nothing() -> None:
    state = new_state()
    before = json.dumps(state.to_json())
    for value in (HiddenAction("seal a bid"), {"type": []}, {"type": "bid", "amount": 10**30}, [1], None, 2.5):
        with pytest.raises(InvalidActionError):
            state.apply_action(value)
    with pytest.raises(InvalidActionError, match="not an action of this game"):
        state.apply_action(meeple.load_game("caprice").codec.all_actions[0])
    with pytest.raises(InvalidActionError, match="out of range"):
        state.apply_action({"type": "bid", "amount": 99})
    with pytest.raises(InvalidActionError):
        state.string_to_action("\u00b2")
    assert json.dumps(state.to_json()) == before


def test_tampered_snapshots_are_refused_with_the_field_named() -> None:
    state = new_state(players=3, seed=4)
    for action in (Bid(1), Bid(2), Bid(0)):
        state.apply_action(action)
    earlier = json.loads(json.dumps(state.to_json()))
    state.apply_action(Keep())
    data = json.loads(json.dumps(state.to_json()))
    game = state.game

    def refused(change: Callable[[dict[str, Any]], None], match: str, data: dict[str, Any] = data) -> None:
        bad = json.loads(json.dumps(data))
        change(bad)
        with pytest.raises(InvalidStateError, match=match):
            game.state_from_json(bad)

    refused(lambda d: d["body"]["deck"].append(d["body"]["deck"][0]), r"body\.deck: value card \d is also in")
    refused(lambda d: d["body"]["coins"].__setitem__(0, 999), r"body\.coins\[0\]")
    refused(lambda d: d["body"]["coins"].__setitem__(1, "3"), r"body\.coins\[1\]: '3' is not a valid value")
    refused(lambda d: d["body"]["coins"].__setitem__(1, d["body"]["coins"][1] - 1), r"body\.coins\[1\] does not match")
    refused(lambda d: d.__setitem__("body", earlier["body"]), "does not match the position the history reaches")
    refused(lambda d: d["history"][0].__setitem__(0, 7), r"history\[0\]: the seat is an integer from 0 to 2")
    refused(lambda d: d.__setitem__("seed", -1), "seed: a non-negative integer")
    refused(lambda d: d.__setitem__("rng", {"a": 1}), "rng: ")
    world = json.loads(json.dumps(state.resample_from_infostate(1, Rng(3)).to_json()))
    assert snapshot.HIDDEN_TYPE == HiddenAction.type_name
    assert any(a["type"] == snapshot.HIDDEN_TYPE for _, a in world["history"])
    game.state_from_json(world)  # a resampled state restores (its history cannot be replayed)
    refused(lambda d: d["body"]["cards"].__setitem__(0, d["body"]["cards"][1]), "is also in", world)
