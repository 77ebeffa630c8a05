"""The core mechanisms on a toy game: sealed commitments, a decision stack, errors, records, conformance."""

from __future__ import annotations

import json

import pytest

import meeple
from meeple.core import SEALED, GameRecord, Rng, read_records, write_records
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
