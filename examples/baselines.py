"""Every row of docs/baselines.md: the commands that train the PPO checkpoints and evaluate every policy, and the table.

    python examples/baselines.py commands              # print every command, in order (what the docs list)
    python examples/baselines.py train --jobs 2        # train the PPO checkpoints (examples/checkpoints/*.npz)
    python examples/baselines.py evaluate --jobs 2     # meeple evaluate every policy -> examples/baselines/*.jsonl
    python examples/baselines.py table                 # the Markdown tables of docs/baselines.md, from those files

Each configuration is a game and a player count at default flags (Citadels at 2 players: ``variant_2p_ffg``). Its
policies are the bots ``random``, ``heuristic`` and the levels ``easy``, ``medium`` and ``hard``, and two PPO
policies trained by ``examples/ppo.py``, one against ``random`` bots and one against ``heuristic`` bots (Capital Lux 2
solo: one, against ROB). Every policy is evaluated by ``meeple evaluate POLICY GAME -p N -a random,heuristic -n DEALS
-s 1000000 --json`` (paired, seat-rotated deals never used in training); ``hard`` gets fewer deals (it takes
0.15-0.5 s per move). ``--only GAME`` or ``--only GAME:N`` runs a part; a command whose output file exists is skipped
(delete the file to run it again). Jobs run niced, in parallel.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKPOINTS = HERE / "checkpoints"
RESULTS = HERE / "baselines"
EVAL_SEED = 1_000_000
CONFIGS: list[tuple[str, int, list[str]]] = [
    ("caprice", 2, []),
    ("caprice", 3, []),
    ("caprice", 4, []),
    ("capital_lux_2", 1, []),
    ("capital_lux_2", 2, []),
    ("capital_lux_2", 3, []),
    ("capital_lux_2", 4, []),
    ("citadels", 2, ["variant_2p_ffg=true"]),
    ("citadels", 3, []),
    ("citadels", 4, []),
    ("citadels", 5, []),
    ("citadels", 6, []),
    ("citadels", 7, []),
    ("capitol", 2, []),
    ("capitol", 3, []),
    ("capitol", 4, []),
]
"""(game, players, flags) of every table."""
BOTS = ("random", "heuristic", "easy", "medium", "hard")
"""The bot policies of every table, weakest first."""
STEPS = 30_000
"""Learner decisions per PPO policy, except where :data:`STEPS_AGAINST_HEURISTIC` says less."""
STEPS_AGAINST_HEURISTIC = {("caprice", 2): 15_000, ("caprice", 3): 10_000, ("caprice", 4): 8_000}
"""Caprice's heuristic bot takes about 5-15 ms per move: fewer steps keep its runs to a few CPU minutes."""
DEALS = 50
"""Deals per evaluation (x players games per line-up)."""
HARD_DEALS = {1: 20, 2: 10, 3: 6, 4: 5, 5: 4, 6: 3, 7: 3}
"""Deals for ``hard`` by player count (each deal is played once per seat)."""


def name(game: str, players: int) -> str:
    """The configuration's file stem: ``citadels-3p``."""
    return f"{game}-{players}p"


def trainers(game: str, players: int) -> list[str]:
    """The training opponents of a configuration: ``random`` and ``heuristic``, or ROB alone in solo."""
    return ["rob"] if players == 1 else ["random", "heuristic"]


def checkpoint(game: str, players: int, opponent: str) -> Path:
    """Where the PPO policy of a configuration trained against ``opponent`` lives."""
    return CHECKPOINTS / f"{name(game, players)}-{opponent}.npz"


def train_command(game: str, players: int, flags: list[str], opponent: str) -> list[str]:
    """The ``examples/ppo.py`` command that trains (and exports) one PPO checkpoint."""
    steps = STEPS_AGAINST_HEURISTIC.get((game, players), STEPS) if opponent == "heuristic" else STEPS
    out = ["python", "examples/ppo.py", game, "-p", str(players), "--steps", str(steps)]
    out += ["--opponents", "random" if opponent == "rob" else opponent, "--eval-deals", "0"]
    out += [x for flag in flags for x in ("--flag", flag)]
    return [*out, "--export", str(checkpoint(game, players, opponent).relative_to(HERE.parent))]


def policies(game: str, players: int) -> list[tuple[str, str]]:
    """(label, policy argument of ``meeple evaluate``) of every row of a configuration's table."""
    rows = [(bot, bot) for bot in BOTS]
    for opponent in trainers(game, players):
        path = checkpoint(game, players, opponent).relative_to(HERE.parent)
        rows.append((f"ppo-{opponent}", str(path)))
    return rows


def evaluate_command(game: str, players: int, flags: list[str], label: str, policy: str) -> list[str]:
    """The ``meeple evaluate`` command of one row (JSON lines: one per line-up)."""
    deals = HARD_DEALS[players] if label == "hard" else DEALS
    out = ["meeple", "evaluate", policy, game, "-p", str(players), "-a", "random,heuristic", "-n", str(deals)]
    out += ["-s", str(EVAL_SEED), "--json"]
    return [*out, *[x for flag in flags for x in ("--variant", flag)]]


def result_file(game: str, players: int, label: str) -> Path:
    """Where one row's JSON lines are kept."""
    return RESULTS / f"{name(game, players)}-{label}.jsonl"


def selected(only: str | None) -> list[tuple[str, int, list[str]]]:
    """The configurations ``--only`` picks (all by default)."""
    if not only:
        return CONFIGS
    game, _, players = only.partition(":")
    return [c for c in CONFIGS if c[0] == game and (not players or c[1] == int(players))]


def _run(command: list[str], out: Path | None) -> int:
    text = " ".join(shlex.quote(c) for c in command)
    print(f"start: {text}", flush=True)
    done = subprocess.run(["nice", "-n", "10", *command], cwd=HERE.parent, capture_output=True, text=True)
    if done.returncode not in (0, 1) or (out is not None and done.returncode != 0):
        print(f"FAILED ({done.returncode}): {text}\n{done.stderr[-2000:]}", flush=True)
        return done.returncode
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(done.stdout)
    print(f"done: {text}\n{done.stdout[-600:]}", flush=True)
    return 0


def main() -> int:
    """Run the sub-command (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["commands", "train", "evaluate", "table"])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default=None, help="GAME or GAME:PLAYERS")
    args = parser.parse_args()
    configs = selected(args.only)
    train = [(train_command(g, n, f, o), None, checkpoint(g, n, o)) for g, n, f in configs for o in trainers(g, n)]
    evaluate = [
        (evaluate_command(g, n, f, label, policy), result_file(g, n, label), result_file(g, n, label))
        for g, n, f in configs
        for label, policy in policies(g, n)
    ]
    if args.what == "commands":
        for command, _out, _done in [*train, *evaluate]:
            print(" ".join(shlex.quote(c) for c in command))
        return 0
    if args.what == "table":
        print(table(configs))
        return 0
    todo = [(c, out) for c, out, done in (train if args.what == "train" else evaluate) if not done.exists()]
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        codes = list(pool.map(lambda job: _run(*job), todo))
    return 1 if any(codes) else 0


def table(configs: list[tuple[str, int, list[str]]]) -> str:
    """The Markdown tables, one per configuration, from the evaluations' JSON lines (missing rows say so)."""
    lines: list[str] = []
    for game, players, _flags in configs:
        lines += [f"### {game}, {players} player{'s' if players > 1 else ''}", ""]
        lines += [
            "| policy | against | games | win share | 95 % interval | mean margin |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for label, _policy in policies(game, players):
            path = result_file(game, players, label)
            if not path.exists():
                lines.append(f"| {label} | (not run) | | | | |")
                continue
            for row in (json.loads(x) for x in path.read_text().splitlines() if x.strip()):
                against = row["opponent"] or "ROB"
                lines.append(
                    f"| {label} | {against} | {row['games']} | {100 * row['win_share']:.1f} % | "
                    f"{100 * row['low']:.1f}-{100 * row['high']:.1f} % | {row['mean_margin']:+.2f} |"
                )
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
