"""``ActionCodec.encode_many``: the canonical instances are found by identity (the fast path of every mask), equal
copies by value, anything else is refused; a pickled or copied codec finds its own instances."""

from __future__ import annotations

import copy
import pickle

import pytest

from meeple.core import InvalidActionError
from meeple.core.registry import load_game
from tests.core.toy_game import Bid


def test_encode_many_finds_canonical_instances_and_equal_copies() -> None:
    codec = load_game("citadels", players=4).codec
    actions = list(codec.all_actions)
    assert codec.encode_many(actions) == list(range(len(actions)))
    copies = [copy.copy(a) for a in actions[::-1]]
    assert all(c is not a for c, a in zip(copies, actions[::-1], strict=True))
    assert codec.encode_many(copies) == list(range(len(actions)))[::-1]
    assert codec.encode_many([actions[3], copies[0], actions[3]]) == [3, len(actions) - 1, 3]


def test_encode_many_refuses_another_games_action() -> None:
    codec = load_game("citadels", players=4).codec
    with pytest.raises(InvalidActionError, match="not an action of this game"):
        codec.encode_many([codec.all_actions[0], Bid(3)])


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_copied_codec_codes_its_own_instances(how: str) -> None:
    codec = load_game("capitol", players=4).codec
    other = pickle.loads(pickle.dumps(codec)) if how == "pickle" else copy.deepcopy(codec)
    mine = list(other.all_actions)
    assert all(a is not b for a, b in zip(mine, codec.all_actions, strict=True))
    assert other.encode_many(mine) == list(range(len(mine)))
    assert other.encode_many(list(codec.all_actions)) == list(range(len(mine)))
