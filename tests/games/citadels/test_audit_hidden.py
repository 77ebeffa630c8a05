"""Audit: hidden information for every perspective (observation, information state, texts, legal actions).

Each test changes what a seat may NOT know (other hands, deck order, the face-down characters, other seats' picks)
and asserts that nothing that seat is shown changes. Rules: citadels.md §5.2 r3, r6 (a killed character is skipped
silently), architecture "Hidden information".
"""

from __future__ import annotations

from typing import Any

import pytest

from meeple import load_game
from meeple.core import SPECTATOR, Decision, IllegalActionError, Rng
from meeple.games.citadels.actions import (
    DiscardCharacter,
    DiscardForGold,
    KeepCard,
    PickCharacter,
    SelectCard,
)
from meeple.games.citadels.data import NUM_KINDS
from meeple.games.citadels.describe import describe
from meeple.games.citadels.state import D_KEEP, DRAFT, TURNS, CitadelsState

from .helpers import play, position


def _perturb(s: CitadelsState, p: int, rng: Rng) -> CitadelsState:
    """Return a copy where every card and character ``p`` cannot see is dealt again (counts kept)."""
    o = s.clone()
    assert isinstance(o, CitadelsState)
    bit = 1 << p
    slots: list[tuple[int, int]] = [(-1, i) for i, c in enumerate(o.deck) if not o.known[c] & bit]
    for q, hand in enumerate(o.hands):
        if q != p:
            slots += [(q, i) for i, c in enumerate(hand) if not o.known[c] & bit]
    # another seat's draw
    drawn = {i: list(d.data[0]) for i, d in enumerate(o.stack) if d.kind == D_KEEP and d.player != p}
    slots += [(-2 - i, j) for i, cs in drawn.items() for j in range(len(cs))]
    cards = [o.deck[i] if a == -1 else drawn[-2 - a][i] if a < -1 else o.hands[a][i] for a, i in slots]
    rng.shuffle(cards)
    for (a, i), c in zip(slots, cards, strict=True):
        if a == -1:
            o.deck[i] = c
        elif a < -1:
            drawn[-2 - a][i] = c
        else:
            o.hands[a][i] = c
    for i, cs in drawn.items():
        o.stack[i] = Decision(o.stack[i].player, D_KEEP, (tuple(cs), o.stack[i].data[1]))
    # characters: those not mine, not face up, not offered to me now, not yet answered in the calls
    answered = {c for c, status in o.calls if status != -2}
    offered_to_me = o.phase == DRAFT and o.steps[o.step][0] == p
    hidden = [
        c
        for c in o.game.round_characters
        if c not in o.faceup
        and c not in o.chars[p]
        and c not in answered
        and not (offered_to_me and c in o.pool)
        and c != o.calling
    ]
    pool = set(o.pool)
    holders = [-9 if c in pool else o.owner[c] for c in hidden]  # -9: still in the draft pool
    rng.shuffle(holders)
    for c, h in zip(hidden, holders, strict=True):
        o.owner[c] = h
    o.pool = sorted(c for c in range(1, 9) if o.owner[c] == -9 or (c in pool and c not in hidden))
    for c in o.pool:
        o.owner[c] = -1
    o.chars = [sorted(c for c in range(1, 9) if o.owner[c] == q) if q != p else o.chars[p] for q in range(len(o.chars))]
    gone = set(o.facedown)
    o.facedown = [c for c in hidden if o.owner[c] < 0 and c not in o.pool] + [c for c in gone if c not in hidden]
    o.edited()
    return o


VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (4, {}),
    (7, {}),
    (3, {}),
    (2, {"variant_2p_ffg": True}),
    (3, {"variant_3p_ffg": True}),
]


@pytest.mark.parametrize("players, params", VARIANTS)
def test_information_state_and_legal_texts_ignore_what_a_seat_cannot_see(players: int, params: dict[str, Any]) -> None:
    game = load_game("citadels", players=players, **params)
    rng = Rng(11)
    checked = 0
    for seed in range(3):
        s = game.new_initial_state(seed)
        assert isinstance(s, CitadelsState)
        step = 0
        while not s.is_terminal() and step < 400:
            if step % 7 == 0:
                mover = s.current_player()
                for p in [*range(players), SPECTATOR]:
                    seat = p if p != SPECTATOR else -1
                    o = _perturb(s, seat, rng) if seat >= 0 else _perturb(s, mover, rng)
                    if seat < 0:  # a spectator knows even less than the mover: compare on the mover's perturbation
                        assert o.observation(None) == s.observation(None)
                        continue
                    assert o.information_state_string(p) == s.information_state_string(p)
                    if p == mover:  # the mover's own legal actions and the illegal-move message
                        assert [o.action_to_string(a, perspective=p) for a in o.legal_actions()] == [
                            s.action_to_string(a, perspective=p) for a in s.legal_actions()
                        ]
                        checked += 1
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            step += 1
    assert checked > 10


def test_redacted_texts_do_not_depend_on_the_hidden_field() -> None:
    for cls, values in [
        (PickCharacter, range(1, 9)),
        (DiscardCharacter, range(1, 9)),
        (KeepCard, range(NUM_KINDS)),
        (SelectCard, range(NUM_KINDS)),
        (DiscardForGold, range(NUM_KINDS)),
    ]:
        for perspective in (1, SPECTATOR):
            assert len({describe(cls(v), 0, perspective) for v in values}) == 1  # type: ignore[call-arg]
        assert len({describe(cls(v), 0, 0) for v in values}) == len(values)  # type: ignore[call-arg]


def test_a_killed_unpicked_character_is_silent_like_a_killed_held_one() -> None:
    """Bug fixed: an unpicked killed character used to be shown "absent", telling who held it before the reveal."""
    observed = []
    for merchant_holder in (None, 2):
        chars: dict[int, list[int]] = {0: [1], 1: [2], 3: [8]}
        chars[2] = [6] if merchant_holder is not None else [7]
        s = position(chars=chars)
        play(s, "assassinate the Merchant", "take 2 gold", "end the turn", "take 2 gold", "end the turn")
        calls = s.observation(1)["characters"]["calls"]
        merchant = next(c for c in calls if c["character"] == 6)
        assert merchant == {"character": 6, "name": "Merchant", "seat": None, "status": "silent"}
        observed.append(merchant)
        while s.round == 1:
            play(s, s.action_to_string(s.legal_actions()[-1]))
        # at the end of the round the holder (or nobody) is revealed
        past = [c for c in s.observation(0)["characters"]["past_calls"] if c["character"] == 6]
        assert past == [
            {"round": 1, "character": 6, "name": "Merchant", "seat": merchant_holder, "status": "assassinated"}
        ]
    assert observed[0] == observed[1]


def test_past_rounds_calls_stay_in_the_observation() -> None:
    """Perfect recall: who revealed which character in earlier rounds stays known (it is not in the action texts)."""
    s = position(chars={0: [1], 1: [4], 2: [6]}, crown=3)
    play(s, "assassinate the Warlord", "take 2 gold", "end the turn", "take 2 gold", "end the turn")
    play(s, "take 2 gold", "end the turn")
    assert s.round == 2
    past = s.observation(3)["characters"]["past_calls"]
    assert [(c["character"], c["seat"], c["status"]) for c in past] == [
        (1, 0, "revealed"),
        (2, None, "absent"),
        (3, None, "absent"),
        (4, 1, "revealed"),
        (5, None, "absent"),
        (6, 2, "revealed"),
        (7, None, "absent"),
        (8, None, "assassinated"),
    ]
    other = position(chars={0: [1], 2: [4], 1: [6]}, crown=3)  # same actions, characters held by other seats
    play(other, "assassinate the Warlord", "take 2 gold", "end the turn", "take 2 gold", "end the turn")
    play(other, "take 2 gold", "end the turn")
    other.crown = s.crown
    assert other.observation(3)["characters"]["past_calls"] != past
    restored = s.game.state_from_json(s.to_json(), check_history=False)  # an explicit position: no history
    assert isinstance(restored, CitadelsState) and restored.past == s.past


def test_error_message_of_an_illegal_action_lists_only_the_movers_view() -> None:
    s = position(chars={0: [6], 1: [4]}, hands={0: ["temple"], 1: ["palais"]}, gold={0: 5, 1: 9}, start=6)
    with pytest.raises(IllegalActionError) as err:
        s.apply_action(s.game.a_build[s.game.card_kind[s.hands[1][0]]])
    message = str(err.value)
    assert "build Palace is not legal now for seat 0" in message  # the submitted action itself
    assert "Palace" not in message.split("legal:")[1]  # the other seat's hand never appears in the legal list


def test_draft_offer_and_phase_visible_only_to_the_chooser() -> None:
    s = load_game("citadels", players=5).new_initial_state(3)
    assert isinstance(s, CitadelsState) and s.phase == DRAFT
    chooser = s.current_player()
    for p in range(5):
        d = s.observation(p)["draft"]
        assert (d["offered"] is not None) == (p == chooser)
    s.apply_action(s.legal_actions()[0])
    picker_pick = s.history[-1][1]
    for p in range(5):
        if p != chooser:
            assert "pick a character" in s.information_state_string(p)
            assert s.action_to_string(picker_pick, perspective=p, actor=chooser) == "pick a character"
    while s.phase == DRAFT:
        s.apply_action(s.legal_actions()[0])
    assert s.phase == TURNS


def test_seventh_player_knows_which_offered_card_was_the_face_down_one() -> None:
    """The last seat takes the initial face-down card itself (rulebook, 7 players): it knows which card it is."""
    s = load_game("citadels", players=7).new_initial_state(1)
    assert isinstance(s, CitadelsState)
    initial = s.facedown[0]
    for _ in range(6):
        assert all(s.observation(p)["draft"]["returned"] is None for p in range(7))
        s.apply_action(s.legal_actions()[0])
    last = s.current_player()
    assert s.observation(last)["draft"]["returned"] == initial
    assert all(s.observation(p)["draft"]["returned"] is None for p in range(7) if p != last)
    for k in range(6):  # resampling for the last seat keeps that card; for another seat it may change
        r = s.resample_from_infostate(last, Rng(k))
        assert isinstance(r, CitadelsState)
        assert r.observation(last) == s.observation(last) and r.events[0][1] == initial
    s.apply_action(s.legal_actions()[-1])
    assert s.observation(last)["draft"]["returned"] == initial  # still known during the turns
