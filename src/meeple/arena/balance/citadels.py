"""Citadels' balance features: the characters each seat played and its city (``GameSpec.balance`` of Citadels).

Public information only (:mod:`meeple.arena.balance`): the final spectator observation. Rules: citadels.md §5.
"""

from __future__ import annotations

from meeple.arena.balance import Features
from meeple.games.citadels.state import CitadelsState


def features(state: CitadelsState) -> Features:
    """Citadels: characters each seat revealed (or was killed as) in any round, and the districts of its city.

    The final observation's ``past_calls`` hold every call of the game, the killed characters' holders included.
    """
    final = state.observation(None)
    chars: list[set[str]] = [set() for _ in range(state.game.num_players)]
    for call in final["characters"]["past_calls"]:
        if call["status"] in ("revealed", "assassinated") and call["seat"] is not None:
            chars[call["seat"]].add(call["name"])
    built = [sorted({d["name"] for d in seat["city"]}) for seat in final["seats"]]
    return {
        "seat": {
            "character": [sorted(c) or ["none"] for c in chars],
            "district built": [b or ["none"] for b in built],
            "city size": [[str(seat["city_size"])] for seat in final["seats"]],
        }
    }
