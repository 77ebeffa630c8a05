"""What the rules do on their own reaches the log (issue "Comfort"): the character each seat reveals when called, the
Thief's theft with its amount, the killed character shown at the end of the round; and the Warlord's options show
their price. Every such line is public: the same in every world a seat cannot tell apart."""

from __future__ import annotations

import re

import meeple
from meeple.core.rng import Rng
from meeple.games.citadels import rules
from meeple.games.citadels.actions import DestroyDistrict


def _game_until(predicate, players: int = 4, seeds: range = range(60)):  # type: ignore[no-untyped-def]
    game = meeple.load_game("citadels", players=players)
    for seed in seeds:
        state, rng = game.new_initial_state(seed), Rng(seed)
        while not state.is_terminal():
            if predicate(state):
                return state
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    raise AssertionError("no such position in the seeds tried")


def test_each_call_reveals_the_character_in_the_log() -> None:
    state = _game_until(lambda s: s.round >= 3)
    lines = [text for _seat, text in state.history_texts(None)]
    reveals = [line for line in lines if line.startswith("reveals the ")]
    past = [p for p in state.observation(None)["characters"]["past_calls"] if p["status"] == "revealed"]
    assert len(reveals) >= len(past) > 0
    for seat, text in state.history_texts(None):
        if text.startswith("reveals the "):
            name = text.removeprefix("reveals the ")
            assert any(p["name"] == name and p["seat"] == seat for p in past) or name in [
                c["name"] for c in state.observation(None)["characters"]["calls"]
            ]


def test_the_thiefs_theft_is_logged_with_its_amount() -> None:
    def robbed_with_gold(s) -> bool:  # type: ignore[no-untyped-def]
        return any(m.msgid.startswith("the Thief takes") and m.args["n"] > 0 for _a, _s, m in s.log_events)

    state = _game_until(robbed_with_gold)
    after, thief, message = next(e for e in state.log_events if e[2].msgid.startswith("the Thief takes"))
    assert re.fullmatch(r"the Thief takes \d+ gold from seat \d", str(message))
    assert state.history[after - 1] is not None and thief in range(4)
    french = meeple.i18n.translator("fr").message(message)
    assert french.startswith("le Voleur prend ")


def test_the_warlords_options_show_their_price() -> None:
    state = _game_until(lambda s: any(isinstance(a, DestroyDistrict) for a in s.legal_actions()))
    for action in state.legal_actions():
        if isinstance(action, DestroyDistrict):
            offer = str(state.offer_message(action))
            wall = state.game.params.great_wall and any(
                d["name"] == "Great Wall" for d in state.observation(None)["seats"][action.seat]["city"]
            )
            price = rules.destroy_price(action.kind, wall)
            assert offer == f"{state.action_message(action)} (pay {price} gold)"


def test_log_events_are_the_same_in_every_world_a_seat_cannot_tell_apart() -> None:
    state = _game_until(lambda s: s.round >= 2 and len(s.log_events) > 5)
    for seat in range(4):
        world = state.resample_from_infostate(seat, Rng(seat))
        assert world.history_messages(seat) == state.history_messages(seat)
        assert [str(m) for _a, _s, m in world.log_events] == [str(m) for _a, _s, m in state.log_events]


def test_a_refused_build_says_why() -> None:
    from meeple.core.errors import IllegalActionError
    from meeple.games.citadels.actions import BuildDistrict
    from meeple.games.citadels.data import KINDS

    state = _game_until(lambda s: any(a.type_name == "build_district" for a in s.legal_actions()))
    seat = state.current_player()
    costly = next(k for k, kind in enumerate(KINDS) if kind.cost > state.gold[seat])  # type: ignore[attr-defined]
    card = next(c for c in state.deck if state.game.card_kind[c] == costly)  # type: ignore[attr-defined]
    state.deck.remove(card)  # type: ignore[attr-defined]
    state.hands[seat].append(card)  # type: ignore[attr-defined]
    state.edited()
    reason = str(state.why_illegal(BuildDistrict(costly)))
    assert reason == f"{KINDS[costly].name} costs {KINDS[costly].cost} gold; you have {state.gold[seat]}"  # type: ignore[attr-defined]
    try:
        state.apply_action(BuildDistrict(costly))
    except IllegalActionError as exc:
        assert reason in str(exc)
    else:
        raise AssertionError("an unaffordable build was accepted")
