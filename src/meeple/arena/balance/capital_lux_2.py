"""Capital Lux 2's balance features: power tiles used, the configuration, the solo rating (``GameSpec.balance``).

Public information only (:mod:`meeple.arena.balance`): the final spectator observation and the public history.
Rules: capital_lux_2.md §5 (power tiles), §15 (solo rating).
"""

from __future__ import annotations

from meeple.arena.balance import Features, public_history
from meeple.games.capital_lux_2.state import CapitalLux2State


def features(state: CapitalLux2State) -> Features:
    """Capital Lux 2: power tiles each seat triggered, the tiles in play per colour, the configuration, solo rating."""
    obs = state.observation(None)
    n = state.game.num_players
    tiles = obs["tiles"]
    names = [t["name"] for t in tiles]
    used: list[dict[str, int]] = [{} for _ in range(n)]
    endings = [(f"to the Capital ({name})", name) for name in names]
    for seat, text in public_history(state):
        if seat < n and text.endswith(")"):
            for ending, name in endings:
                if text.endswith(ending):
                    used[seat][name] = used[seat].get(name, 0) + 1
    districts = [d["district"] for d in obs["capital"]]
    game: dict[str, str] = {"configuration": "+".join(t["id"] for t in tiles)}
    for name, tile in zip(names, tiles, strict=True):
        game[f"{districts[tile['colour']]} tile"] = name
    values: dict[str, float] = {}
    if "rob" in obs:
        game["solo rating"] = obs["rob"]["rating"]
        values["solo margin (player - ROB)"] = float(obs["rob"]["margin"])
    most = [sorted(k for k, v in u.items() if v == max(u.values())) if u else ["none"] for u in used]
    return {"seat": {"power tile used most": most}, "game": game, "values": values}
