"""Audit: no observation or information state of a seat names a card that seat may not see (every perspective)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from meeple.games.capital_lux_2.state import CapitalLux2State
from tests.games.capital_lux_2.helpers import new_state

_ID = re.compile(r"\(#(\d+)\)")


def _ids_in(obj: Any, out: set[int]) -> set[int]:
    if isinstance(obj, dict):
        if isinstance(obj.get("id"), int) and "colour" in obj:
            out.add(obj["id"])
        for v in obj.values():
            _ids_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _ids_in(v, out)
    return out


def _hidden_from(st: CapitalLux2State, p: int | None) -> set[int]:
    """Card ids ``p`` may not know the place of (None: the public view)."""
    out: set[int] = set(st.deck)
    for q in range(st.n):
        if q == p:
            continue
        out.update(st.hand[q])
        out.update(st.packs[q])
        if st.first[q] >= 0:
            out.add(st.first[q])
        out.update(st.sealed.values.get(q, ()))
    if st.peek_owner != p:
        out.update(st.peek)
    out.update(h[2] for h in st.hidden if h[1] == 1 and h[3] != p)
    out.update(st.mat.get("infiltre_card", []))
    return out


def _check(st: CapitalLux2State) -> None:
    for p in [None, *range(st.n)]:
        hidden = _hidden_from(st, p)
        obs = st.observation(p)
        seen = _ids_in(obs, set())
        assert not seen & hidden, (p, sorted(seen & hidden))
        if p is not None:
            text = st.information_state_string(p)
            named = {int(m) for m in _ID.findall(text)}
            assert not named & hidden, (p, sorted(named & hidden))
    json.dumps(st.observation(None))


# Prosélytiste is left out: its victim legitimately remembers the stolen card (named in its own earlier "keep" text).
CASES = [
    (2, {}),
    (3, {}),
    (4, {}),
    (1, {}),
    (3, {"config": "C", "provisional_powers": True}),
    (4, {"config": "D", "provisional_powers": True}),
    (2, {"config": "custom", "tiles": "infiltre,mentaliste,aristocrate,explorateur", "provisional_powers": True}),
    (1, {"config": "custom", "tiles": "infiltre,missionnaire,sentinelle,dualiste", "provisional_powers": True}),
]


@pytest.mark.parametrize(("players", "params"), CASES)
def test_no_view_names_a_hidden_card_during_the_first_round(players: int, params: dict[str, Any]) -> None:
    for seed in range(2):
        st = new_state(players, seed=seed, **params)
        rng = random.Random(seed)
        while st.round == 0 and not st.is_terminal():  # round 1: no reshuffle of public discards into the deck
            _check(st)
            legal = st.legal_actions()
            st.apply_action(legal[rng.randrange(len(legal))])


def test_error_messages_name_only_the_movers_own_options() -> None:
    st = new_state(3, seed=4)
    mover = st.current_player()
    other = (mover + 1) % 3
    wrong = st.game.t_keep[st.packs[other][0]]  # a card of another seat's pack
    with pytest.raises(ValueError) as err:
        st.apply_action(wrong, player=other)
    assert str(st.packs[other][0]) not in re.sub(r"seat \d", "", str(err.value))
    with pytest.raises(ValueError) as err2:
        st.apply_action(wrong)
    named = {int(m) for m in _ID.findall(str(err2.value))}
    assert named <= set(st.packs[mover]) | {st.packs[other][0]}  # the mover's pack, and the action it typed
