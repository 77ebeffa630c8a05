"""Capitol's balance features: the auction tiles each seat won (``GameSpec.balance`` of Capitol).

Public information only (:mod:`meeple.arena.balance`): the public auction logs along a spectator replay. Rules:
capitol.md §5.2 (the auctions).
"""

from __future__ import annotations

from typing import cast

from meeple.arena.balance import Features, replay_public
from meeple.games.capitol.observation import AuctionEntry, CapitolObservation
from meeple.games.capitol.state import CapitolState


def features(state: CapitolState) -> Features:
    """Capitol: the auction tiles each seat won (from the public auction logs along the replay)."""
    n = state.game.num_players
    logs: list[list[AuctionEntry]] = []
    current: list[AuctionEntry] = []

    def same(a: AuctionEntry, b: AuctionEntry) -> bool:
        return a["tile"] == b["tile"] and a["winner"] == b["winner"] and a["bids"] == b["bids"]

    observations = [obs for _, _, obs in replay_public(state, lambda _p, t: "bid" in t or "tile" in t)]
    observations.append(state.observation(None))
    for obs in observations:
        if obs is None:
            continue
        log = list(cast(CapitolObservation, obs)["auction"]["log"])
        if len(log) < len(current) or any(not same(a, b) for a, b in zip(current, log, strict=False)):
            logs.append(current)
        current = log
    logs.append(current)
    won: list[list[str]] = [[] for _ in range(n)]
    for log in logs:
        for entry in log:
            if entry["winner"] >= 0:
                won[entry["winner"]].append(entry["tile"])
    return {
        "seat": {
            "auction tile won": [sorted(set(w)) or ["none"] for w in won],
            "auction tiles won (count)": [[str(len(w))] for w in won],
        }
    }
