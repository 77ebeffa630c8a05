"""Why a Citadels move is refused, at the positions of the audit (issue #36) and in French."""

from __future__ import annotations

import random

import meeple
from meeple.games.citadels.actions import CancelExchange, DestroyDistrict, ExchangeCards
from meeple.games.citadels.const import D_DESTROY
from meeple.games.citadels.data import KEEP, MAGICIAN, WARLORD
from meeple.games.citadels.state import CitadelsState
from meeple.i18n import translator


def _played(seed: int, moves: int, players: int = 4) -> CitadelsState:
    """The audit's positions: ``moves`` moves chosen by ``random.Random(seed)``."""
    state = meeple.load_game("citadels", players=players).new_initial_state(seed)
    assert isinstance(state, CitadelsState)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_destroy_decision_names_the_bishop_the_complete_city_the_keep_and_the_price() -> None:
    state = _played(2, 162)
    assert state.stack and state.stack[-1].kind == D_DESTROY and state.calling == WARLORD
    bishop = state.bishop_seat()
    assert bishop >= 0  # revealed and alive
    target = state.game.card_kind[state.cities[bishop][0]]
    assert str(state.why_illegal(DestroyDistrict(bishop, target))) == "the Bishop's city is protected this round"
    other = next(s for s in range(4) if s not in (bishop, state.turn_seat) and state.cities[s])
    kinds = {state.game.card_kind[c] for c in state.cities[other]}
    missing = next(k for k in range(len(state.game.card_kind)) if k not in kinds)
    assert str(state.why_illegal(DestroyDistrict(other, missing))).startswith(f"seat {other} has no ")
    costly = [DestroyDistrict(other, k) for k in kinds if DestroyDistrict(other, k) not in state.legal_actions()]
    assert any("destroying it costs" in str(state.why_illegal(a)) for a in costly)
    # the same position with the other seat's city complete, then holding a Keep
    complete = state.clone()
    needed = complete.game.threshold - len(complete.cities[other])
    complete.cities[other] = [*complete.cities[other], *complete.deck[:needed]]  # cards moved by hand: a test
    complete.edited()
    assert str(complete.why_illegal(DestroyDistrict(other, missing))) == "a complete city cannot be attacked"
    keep_card = next(c for c, k in enumerate(state.game.card_kind) if k == KEEP)
    kept = state.clone()
    kept.cities[other] = [*kept.cities[other], keep_card]
    kept.masks[other] |= 1 << KEEP
    kept.edited()
    assert str(kept.why_illegal(DestroyDistrict(other, KEEP))) == "the Keep cannot be destroyed"
    # anything else waits for the decision
    assert str(state.why_illegal(state.game.a_end)).startswith("the Warlord first decides whether to destroy")


def test_only_the_warlord_destroys_and_only_at_his_destroy_decision() -> None:
    state = _played(1, 12)
    assert state.calling == MAGICIAN and not state.stack
    reason = str(state.why_illegal(DestroyDistrict(0, 0)))
    assert reason == "only the Warlord destroys a district, at the end of his turn (his destroy decision)"
    assert "gold" not in reason


def test_a_second_exchange_after_a_cancelled_one_says_why() -> None:
    state = _played(1, 12)
    exchange = ExchangeCards()
    assert exchange in state.legal_actions()
    state.apply_action(exchange)
    state.apply_action(CancelExchange())
    assert exchange not in state.legal_actions()
    reason = str(state.why_illegal(exchange))
    assert reason == "you cancelled an exchange with the deck this turn: you may not start another one"
    reason_fr = translator("fr").message(state.why_illegal(exchange) or "")
    assert reason_fr and reason_fr != reason  # the French catalog has it
