"""The engines' behaviour is pinned: records of seeded random games per game and player count hash to checked-in
digests (``records_digest.json``), so a restructuring that changes any rule, legal-action order or random draw
fails here.

Each game: ``GAMES`` seeded random games per player count (seed ``s``, the move chosen by ``Rng(s)`` among the
legal actions), the SHA-256 of their records (game, params, seed, actions, final scores) in order. Rewrite the file
with ``MEEPLE_REGEN_DIGESTS=1`` only for an intended change of behaviour, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

import meeple
from meeple.core import GameRecord, game_class
from meeple.core.registry import BUILTIN_GAMES
from meeple.core.testing import random_position

GAMES = 200
DIGESTS = Path(__file__).with_name("records_digest.json")
CASES = [
    (name, n)
    for name in sorted(BUILTIN_GAMES)
    for n in range(game_class(name).min_players, game_class(name).max_players + 1)
]


def digest(name: str, players: int, games: int = GAMES) -> str:
    """Return the SHA-256 of the records of ``games`` seeded random games (hex)."""
    game = meeple.load_game(name, players=players)
    h = hashlib.sha256()
    for seed in range(games):
        state = random_position(game, seed, game.info.max_game_length)
        record = GameRecord.from_state(state).to_json()
        h.update(json.dumps(record, sort_keys=True, separators=(",", ":")).encode())
    return h.hexdigest()


@pytest.mark.parametrize(("name", "players"), CASES)
def test_records_of_seeded_random_games_are_unchanged(name: str, players: int) -> None:
    key = f"{name}/{players}"
    if os.environ.get("MEEPLE_REGEN_DIGESTS") == "1":
        stored = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}
        stored[key] = digest(name, players)
        DIGESTS.write_text(json.dumps(dict(sorted(stored.items())), indent=1) + "\n")
    stored = json.loads(DIGESTS.read_text())
    assert key in stored, f"{key} has no pinned digest yet: run this test once with MEEPLE_REGEN_DIGESTS=1"
    assert digest(name, players) == stored[key], f"{key}: the records of {GAMES} seeded random games changed"
