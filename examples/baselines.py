"""Every row of docs/baselines.md: the commands that train the PPO checkpoints and evaluate every policy, and the table.

    python examples/baselines.py commands              # print every command, in order (what the docs list)
    python examples/baselines.py train --jobs 2        # train the PPO checkpoints (examples/checkpoints/*.npz)
    python examples/baselines.py evaluate --jobs 2     # meeple evaluate every policy -> examples/baselines/*.jsonl
    python examples/baselines.py table                 # the Markdown tables of docs/baselines.md, from those files
    python examples/baselines.py doc docs/baselines.md # rewrite its command list and tables in place

Each configuration is a game and a player count at default flags (Citadels at 2 players: ``variant_2p_ffg``). Its
policies are the bots ``random``, ``heuristic`` and the levels ``easy``, ``medium`` and ``hard``, and two PPO
policies trained by ``examples/ppo.py``, one against ``random`` bots and one against ``heuristic`` bots (Capital Lux 2
solo: one, against ROB). Every policy is evaluated by ``meeple evaluate POLICY GAME -p N -a random,heuristic -n DEALS
-s 1000000 --json`` (paired, seat-rotated deals never used in training); ``hard`` against ``heuristic`` only, on
fewer deals (it takes 0.15-0.5 s per move). ``--only GAME`` or ``--only GAME:N`` runs a part; a command whose output
file exists is skipped (delete the file to run it again), and so is the evaluation of a checkpoint not trained yet.
Jobs run niced, in parallel.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

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
DEALS = 20
"""Deals per evaluation (x players games per line-up), except Caprice's (:data:`CAPRICE_DEALS`)."""
CAPRICE_DEALS = 15
"""Caprice's heuristic bot takes 5-15 ms per move: fewer deals keep its evaluations to minutes."""
HARD_DEALS = {"caprice": 4, "capital_lux_2": 2, "citadels": 1, "capitol": 1}
"""Deals for ``hard`` per game (each deal is played once per seat; Capital Lux 2 solo: 4), against ``heuristic`` only
(the line-up that tells something: ``hard`` is built on the heuristic bot). ``hard`` takes 0.15-0.5 s per move, so
a deal costs it about a minute of CPU whatever the player count (it plays every move of one seat per game, and a
deal is one game per seat): these few deals are what the shared machine allowed, and their intervals are wide."""


NICE = 2
"""The jobs' niceness: below the developers' interactive work, above nothing."""


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
    if label == "hard":
        deals = 4 if players == 1 else HARD_DEALS[game]
    else:
        deals = CAPRICE_DEALS if game == "caprice" else DEALS
    lineups = "heuristic" if label == "hard" else "random,heuristic"
    out = ["meeple", "evaluate", policy, game, "-p", str(players), "-a", lineups, "-n", str(deals)]
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


def _missing_checkpoint(command: list[str]) -> bool:
    """An evaluation of a checkpoint not trained yet (``train`` first): skipped."""
    return (
        command[:2] == ["meeple", "evaluate"]
        and command[2].endswith(".npz")
        and not (HERE.parent / command[2]).exists()
    )


def _run(command: list[str], out: Path | None, done: Path) -> int:
    text = " ".join(shlex.quote(c) for c in command)
    lock = done.with_name(done.name + ".lock")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        with lock.open("x"):
            pass
    except FileExistsError:
        print(f"skip (another run has it): {text}", flush=True)
        return 0
    try:
        if done.exists():
            print(f"skip (done meanwhile): {text}", flush=True)
            return 0
        return _run_unlocked(command, out, text)
    finally:
        lock.unlink()


def _run_unlocked(command: list[str], out: Path | None, text: str) -> int:
    print(f"start: {text}", flush=True)
    done = subprocess.run(["nice", "-n", str(NICE), *command], cwd=HERE.parent, capture_output=True, text=True)
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
    parser.add_argument("what", choices=["commands", "train", "evaluate", "table", "doc"])
    parser.add_argument("path", nargs="?", default=str(HERE.parent / "docs" / "baselines.md"), help="for doc")
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
    evaluate.sort(key=lambda job: (job[0][2] == "hard", job[0][3] == "caprice"))  # the slow rows last (stable)
    if args.what == "commands":
        for command, _out, _done in [*train, *evaluate]:
            print(" ".join(shlex.quote(c) for c in command))
        return 0
    if args.what == "table":
        print(table(configs))
        return 0
    if args.what == "doc":
        listing = "\n".join(" ".join(shlex.quote(c) for c in command) for command, _out, _done in [*train, *evaluate])
        write_doc(Path(args.path), f"```sh\n{listing}\n```", table(configs), sizes())
        return 0
    jobs = train if args.what == "train" else evaluate
    todo = [(c, out, done) for c, out, done in jobs if not done.exists() and not _missing_checkpoint(c)]
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        codes = list(pool.map(lambda job: _run(*job), todo))
    return 1 if any(codes) else 0


def _label(game: str, players: int, label: str) -> str:
    """A row's policy in words; a PPO row says its training budget (from its checkpoint's ``meta``)."""
    if not label.startswith("ppo-"):
        return f"`{label}`"
    opponent = label.removeprefix("ppo-")
    path = checkpoint(game, players, opponent)
    training = json.loads(str(np.load(path)["meta"]))["training"] if path.exists() else {}
    against = "ROB" if opponent == "rob" else f"`{opponent}`"
    budget = (
        f"{training.get('steps', 0):,} steps, {training.get('cpu_seconds', 0):,} CPU s" if training else "not trained"
    )
    return f"PPO vs {against} ({budget})"


def sizes() -> str:
    """The committed checkpoints' sizes in words: ``77-332 kB each, 4.3 MB in all (22 checkpoints)``."""
    found = sorted(p.stat().st_size for p in CHECKPOINTS.glob("*.npz"))
    if not found:
        return "none trained yet"
    return (
        f"{found[0] / 1000:.0f}-{found[-1] / 1000:.0f} kB each, {sum(found) / 1e6:.1f} MB in all "
        f"({len(found)} checkpoints)"
    )


def write_doc(path: Path, commands: str, tables: str, size: str) -> None:
    """Replace what lies between each marker and its end marker in ``path``.

    The markers: ``<!-- commands -->`` and ``<!-- tables -->`` (blocks), ``<!-- size -->`` (inline); each ends at its
    ``<!-- /... -->``.
    """
    text = path.read_text()
    for name, body in (("commands", f"\n{commands}\n"), ("tables", f"\n{tables}\n"), ("size", size)):
        start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
        head, _, rest = text.partition(start)
        _, _, tail = rest.partition(end)
        text = f"{head}{start}{body}{end}{tail}"
    path.write_text(text)


def table(configs: list[tuple[str, int, list[str]]]) -> str:
    """The Markdown tables, one per configuration, from the evaluations' JSON lines (missing rows say so)."""
    lines: list[str] = []
    for game, players, flags in configs:
        fair = "against ROB" if players == 1 else f"fair share {100 / players:.1f} %"
        lines += [f"### {game}, {players} player{'s' if players > 1 else ''} ({fair})", ""]
        lines += [
            "| policy | against | games | win share | 95 % interval | mean margin |",
            "|---|---|---:|---:|---:|---:|",
        ]
        todo: list[list[str]] = []
        for label, policy in policies(game, players):
            path = result_file(game, players, label)
            if not path.exists():
                lines.append(f"| {_label(game, players, label)} | (not run) | | | | |")
                opponent = label.removeprefix("ppo-")
                if label.startswith("ppo-") and not checkpoint(game, players, opponent).exists():
                    todo.append(train_command(game, players, flags, opponent))
                todo.append(evaluate_command(game, players, flags, label, policy))
                continue
            for row in (json.loads(x) for x in path.read_text().splitlines() if x.strip()):
                against = row["opponent"] or "ROB"
                lines.append(
                    f"| {_label(game, players, label)} | `{against}` | {row['games']} | "
                    f"{100 * row['win_share']:.1f} % | {100 * row['low']:.1f}-{100 * row['high']:.1f} % | "
                    f"{row['mean_margin']:+.2f} |"
                )
        if todo:
            lines += ["", "The rows not run yet, filled by these commands (from the repository's root):", "", "```sh"]
            lines += [" ".join(shlex.quote(c) for c in command) for command in todo]
            lines.append("```")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
