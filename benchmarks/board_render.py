"""How long the server takes to render one seat's board fragment (``meeple.web.render.render_board``), per game.

    python benchmarks/board_render.py --game capitol                          # this checkout's src/
    python benchmarks/board_render.py --game capitol --src /tmp/old/src --src src --rounds 3   # trees alternated
    python benchmarks/board_render.py --game capitol --profile                # cProfile of this tree's renders

Each tree runs in its own child process (a tree is imported once per process): the same random game (seed 3,
``--players``), every seat's board rendered at every ``--every``-th state, English and French. Reports the median
milliseconds per board; with ``--src`` repeated, each tree's ratio to the first from the same run (two shared
cores here: the absolute numbers are noisy, the ratios much less). ``--profile`` prints the 25 most costly
functions by cumulative time. Issue #33 (the Capitol table's tap-to-board time).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def boards(game: str, players: int, every: int) -> list[tuple[object, int, str]]:
    """The (state, seat, language) triples to render: every ``every``-th state of one random game (seed 3)."""
    from meeple.core.registry import load_game
    from meeple.core.rng import Rng

    state = load_game(game, players=players).new_initial_state(3)
    rng = Rng(3)
    out: list[tuple[object, int, str]] = []
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            out.extend((state.clone(), seat, lang) for seat in range(players) for lang in ("en", "fr"))
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        step += 1
    return out


def child(game: str, players: int, every: int, profile: bool) -> None:
    """Render the boards in this process; print the milliseconds of each as JSON (or the profile)."""
    from meeple.i18n import translator
    from meeple.web.render import render_board

    work = boards(game, players, every)
    readers = {lang: translator(lang) for lang in ("en", "fr")}
    for state, seat, lang in work[:4]:  # warm the template cache and the catalogs
        render_board(state, seat, state.history_messages(seat), readers[lang])  # type: ignore[attr-defined]
    if profile:
        prof = cProfile.Profile()
        prof.enable()
    times = []
    for state, seat, lang in work:
        start = time.perf_counter()
        render_board(state, seat, state.history_messages(seat), readers[lang])  # type: ignore[attr-defined]
        times.append((time.perf_counter() - start) * 1000)
    if profile:
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        return
    print(json.dumps(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="capitol")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--every", type=int, default=5, help="render every N-th state")
    parser.add_argument("--src", action="append", help="a tree's src/ folder (repeat to compare)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.game, args.players, args.every, args.profile)
        return
    trees = args.src or [str(ROOT / "src")]
    results: dict[str, list[float]] = {tree: [] for tree in trees}
    for _ in range(args.rounds):
        for tree in trees:
            command = [sys.executable, __file__, "--child", "--game", args.game]
            command += ["--players", str(args.players), "--every", str(args.every)]
            command += ["--profile"] if args.profile else []
            env = {**os.environ, "PYTHONPATH": tree}
            out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
            if args.profile:
                print(f"== {tree}\n{out}")
                continue
            results[tree].extend(json.loads(out))
    if args.profile:
        return
    medians = {tree: statistics.median(ms) for tree, ms in results.items()}
    for tree, ms in results.items():
        print(f"{tree}: {len(ms)} boards, median {medians[tree]:.2f} ms, p90 {sorted(ms)[int(len(ms) * 0.9)]:.2f} ms")
    for tree in trees[1:]:
        print(f"ratio {tree} / {trees[0]}: {medians[tree] / medians[trees[0]]:.2f}")


if __name__ == "__main__":
    main()
