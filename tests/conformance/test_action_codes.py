"""The fixed action space is pinned: each code means the same action across versions.

Per game and player count (default flags): ``num_distinct_actions()`` and the SHA-256 of every code's action JSON in
code order, checked in as ``action_codes.json``. A trained policy's output layer and a stored action mask depend on
these codes; changing them is a breaking change (regenerate with ``MEEPLE_REGEN_CODES=1`` only on purpose, and say so
in the commit and the changelog).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.core import game_class
from meeple.core.registry import BUILTIN_GAMES

PINNED = Path(__file__).with_name("action_codes.json")
CASES = [
    (name, n)
    for name in sorted(BUILTIN_GAMES)
    for n in range(game_class(name).min_players, game_class(name).max_players + 1)
    if not (name == "citadels" and n == 2)
] + [("citadels", 2)]


def _params(name: str, players: int) -> dict[str, Any]:
    return {"players": players, "variant_2p_ffg": True} if name == "citadels" and players == 2 else {"players": players}


def pinned(name: str, players: int, upto: int | None = None) -> dict[str, Any]:
    """``{"num_distinct_actions", "sha256"}`` of the game's first ``upto`` codes (all by default) now."""
    game = meeple.load_game(name, **_params(name, players))
    n = game.num_distinct_actions() if upto is None else upto
    codes = [game.codec.decode(code).to_json() for code in range(n)]
    digest = hashlib.sha256(json.dumps(codes, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return {"num_distinct_actions": n, "sha256": digest}


@pytest.mark.parametrize(("name", "players"), CASES)
def test_action_codes_are_unchanged(name: str, players: int) -> None:
    key = f"{name}/{players}"
    if os.environ.get("MEEPLE_REGEN_CODES") == "1":
        stored = json.loads(PINNED.read_text()) if PINNED.exists() else {}
        stored[key] = pinned(name, players)
        PINNED.write_text(json.dumps(dict(sorted(stored.items())), indent=1) + "\n")
    stored = json.loads(PINNED.read_text())
    assert key in stored, f"{key} has no pinned codes yet: run this test once with MEEPLE_REGEN_CODES=1"
    before = stored[key]["num_distinct_actions"]
    now = meeple.load_game(name, **_params(name, players)).num_distinct_actions()
    assert now >= before, f"{key}: codes were removed ({before} -> {now}): a breaking change for policies"
    # new actions may be appended (a policy's output layer grows); every pinned code must keep its meaning
    assert pinned(name, players, before) == stored[key], f"{key}: pinned action codes changed meaning"


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_code_round_trips_and_the_mask_marks_exactly_the_legal_codes(name: str, players: int) -> None:
    game = meeple.load_game(name, **_params(name, players))
    n = game.num_distinct_actions()
    assert [game.codec.encode(game.codec.decode(c)) for c in range(n)] == list(range(n))
    state = game.new_initial_state(3)
    for step in range(60):
        if state.is_terminal():
            break
        mask = state.legal_actions_mask(state.current_player())
        assert mask.shape == (n,) and mask.dtype.name == "int8"
        assert sorted(int(c) for c in mask.nonzero()[0]) == sorted(state.legal_action_codes())
        other = (state.current_player() + 1) % game.num_players
        if other != state.current_player():
            assert not state.legal_actions_mask(other).any()
        legal = state.legal_action_codes()
        state.apply_action(legal[step % len(legal)])
