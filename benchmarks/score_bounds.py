"""The largest scores, margins and game lengths seen, per game and player count: where the declared bounds come from.

    python benchmarks/score_bounds.py                      # every game and player count, 400 games each
    python benchmarks/score_bounds.py --games 100 --game caprice --players 3
    python benchmarks/score_bounds.py --json bounds.jsonl  # one JSON object per configuration, too

Each configuration plays ``--games`` seeded games (deal ``i`` = seed ``i``; the same command gives the same numbers)
with four line-ups in turn: every seat ``random``; every seat ``heuristic``; one ``heuristic`` seat (rotating)
among ``random`` ones (a strong player against weak ones: the largest scores and margins); one ``random`` seat among
``heuristic`` ones (the lowest margins). It reports the lowest and highest score of any seat, the largest margin
(own points minus the best other seat's; solo Capital Lux 2: minus ROB's) in absolute value, the most decisions in
one game, the bounds these give (:func:`proposed`: the largest value seen times :data:`MARGIN`, rounded up) and what
each game's :class:`~meeple.core.spec.GameSpec` declares (``score_bound``, ``margin_bound``, ``longest_game``): the
declared bounds must hold every value seen (``--check`` exits 1 when one does not).

The ``hard`` level is not in the line-ups (0.15-0.5 s per move); docs/research.md, "Rewards", says how the bounds
were chosen from these numbers. Rules: issue "For researchers, round three" (measured reward bounds).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from meeple.arena.match import play_match
from meeple.bots import make_bot
from meeple.core.registry import game_class, game_spec, load_game, registered_games
from meeple.core.rewards import final_rewards
from meeple.core.rng import derive_seed

MARGIN = 1.25
"""A declared bound is the largest value seen times this, rounded up (room for stronger players than the bots)."""


def proposed(largest: float) -> int:
    """The bound declared for a largest value seen: ``ceil(MARGIN x largest)``."""
    return math.ceil(MARGIN * largest - 1e-9)


def configurations(
    only_game: str | None = None, only_players: int | None = None
) -> list[tuple[str, int, dict[str, Any]]]:
    """Every (game, players, flags) to measure: each player count of each game at its default flags.

    Citadels at 2 players needs ``variant_2p_ffg`` (the only way to play it with two).
    """
    out = []
    for name in registered_games():
        if only_game and name != only_game:
            continue
        cls = game_class(name)
        for players in range(1, cls.max_players + 1):
            if only_players and players != only_players:
                continue
            for flags in ({}, {"variant_2p_ffg": True}):
                try:
                    load_game(name, players=players, **flags)
                except Exception:  # noqa: BLE001 - a player count this game does not have with these flags
                    continue
                out.append((name, players, flags))
                break
    return out


def lineup(index: int, players: int) -> list[str]:
    """The bot specs of game ``index``: the four line-ups in turn (see the module docstring)."""
    kind = index % 4
    odd = (index // 4) % players
    if kind == 0:
        return ["random"] * players
    if kind == 1:
        return ["heuristic"] * players
    if kind == 2:
        return ["heuristic" if s == odd else "random" for s in range(players)]
    return ["random" if s == odd else "heuristic" for s in range(players)]


def measure(name: str, players: int, flags: dict[str, Any], games: int) -> dict[str, Any]:
    """Play ``games`` games of one configuration; return what was seen and what the game's spec declares."""
    game = load_game(name, players=players, **flags)
    params = game.params_dict()
    low = high = margin = 0.0
    longest = 0
    start = time.process_time()
    for i in range(games):
        specs = lineup(i, players)
        bots = [make_bot(spec, name, seed=derive_seed(i, "bot", s)) for s, spec in enumerate(specs)]
        result = play_match(name, params, i, bots)
        scores = final_rewards(result.final_state, "score")
        margins = final_rewards(result.final_state, "score_margin")
        if i == 0:
            low, high = min(scores), max(scores)
        low, high = min(low, *scores), max(high, *scores)
        margin = max(margin, *(abs(m) for m in margins))
        longest = max(longest, result.decisions)
    spec = game_spec(name)
    return {
        "game": name,
        "players": players,
        "flags": flags,
        "games": games,
        "lowest_score": low,
        "highest_score": high,
        "largest_margin": margin,
        "longest_game": longest,
        "proposed_score_bound": proposed(high),
        "proposed_margin_bound": proposed(margin),
        "declared_score_bound": spec.score_bound.get(players),
        "declared_margin_bound": spec.margin_bound.get(players),
        "declared_longest_game": spec.longest_game.get(players),
        "cpu_seconds": round(time.process_time() - start, 1),
    }


def holds(row: dict[str, Any]) -> bool:
    """True when the declared bounds hold every value seen (scores in ``[0, score_bound]``)."""
    score, margin = row["declared_score_bound"], row["declared_margin_bound"]
    return (
        score is not None
        and margin is not None
        and row["lowest_score"] >= 0
        and row["highest_score"] <= score
        and row["largest_margin"] <= margin
    )


def main() -> int:
    """Measure every configuration asked for, print a table (and JSON lines); exit 1 on ``--check`` if one fails."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="games per configuration")
    parser.add_argument("--game", default=None, help="one game only")
    parser.add_argument("--players", type=int, default=None, help="one player count only")
    parser.add_argument("--json", default=None, help="also write one JSON object per configuration to this file")
    parser.add_argument("--check", action="store_true", help="exit 1 if a declared bound misses a value seen")
    args = parser.parse_args()
    print("| game | players | games | scores seen | score bound | largest margin | margin bound | longest game |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")  # bounds: declared (proposed from these games)
    ok = True
    out = open(args.json, "w", encoding="utf-8") if args.json else None  # noqa: SIM115 - closed below
    for name, players, flags in configurations(args.game, args.players):
        row = measure(name, players, flags, args.games)
        ok = ok and holds(row)
        print(
            f"| {name} | {players} | {row['games']} | {row['lowest_score']:g}-{row['highest_score']:g} | "
            f"{row['declared_score_bound']} ({row['proposed_score_bound']}) | {row['largest_margin']:g} | "
            f"{row['declared_margin_bound']} ({row['proposed_margin_bound']}) | "
            f"{row['longest_game']} (declared {row['declared_longest_game']}) |",
            flush=True,
        )
        if out is not None:
            out.write(json.dumps(row, sort_keys=True) + "\n")
            out.flush()
    if out is not None:
        out.close()
    return 1 if args.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
