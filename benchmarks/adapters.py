"""Adapter overhead and tensor speed, in one process; and OpenSpiel's ISMCTS against meeple's at equal iterations.

    python benchmarks/adapters.py                 # steps/s native, through pyspiel, through PettingZoo; tensors/s
    python benchmarks/adapters.py --ismcts 40     # + 40 games of OpenSpiel's ISMCTS vs meeple's (caprice, 2 players)
    python benchmarks/adapters.py --vector        # VectorEnv and tensors (--game citadels: one game only)
    python benchmarks/adapters.py --native        # native steps and clones per CPU second, x a CPU-time baseline
    python benchmarks/adapters.py --batch         # the two batching ratios of round three (--profile: VectorEnv's)

Every speed is measured on random play of whole games with the same seeds, and reported as a ratio to the native
API in the same process (issue "For researchers": goal >= 50 % of native):

- native: ``legal_action_codes()`` and ``apply_action(code)`` on a meeple state;
- native + observations: the same, plus the mover's ``observation_tensor`` and ``legal_actions_mask`` at each step
  (what an RL loop reads; PettingZoo's ``last()`` builds exactly these);
- pyspiel: ``legal_actions()`` and ``apply_action`` through ``pyspiel.load_game("meeple_...")``;
- PettingZoo: ``last()`` then ``step(action)`` on ``meeple.adapters.pettingzoo.env``.

``--vector`` measures batched stepping (issue "For researchers, round two": >= 3x the PettingZoo env's steps/s with
an observation and a mask for the mover, <= 20 us per tensor), all in the same process:

- PettingZoo (reference tensors): the PettingZoo env with every tensor encoded from ``observation(seat)`` (what the
  env did before the games' direct encoders);
- PettingZoo: the env as it is;
- VectorEnv: ``meeple.adapters.vector.VectorEnv`` with ``--envs`` games, random legal actions drawn from the masks
  with numpy (one draw per step for all games);
- tensors: microseconds per tensor, the reference encoding (``encoded_observation_values`` then numpy) against
  ``write_observation_tensor`` into a preallocated row.

``--batch`` measures the two ratios of issue "For researchers, round three" in one run (Citadels at 4 players unless
``--game``; ``--envs`` games; random legal actions; steps per CPU second, runs interleaved, the best of five slices):

- self-play: ``VectorEnv`` against the PettingZoo env (target >= 2x);
- against three ``random`` opponents: ``VectorEnv(opponents="random", seat="rotate")``'s learner decisions against a
  Python loop over as many PettingZoo envs doing the same (target >= 2x): the loop rotates the learner's seat, picks
  the learner's move from its observation's mask and lets a ``random`` bot per opponent seat answer through its
  ``SeatView``. Two such loops are measured: "lean" observes the learner only (``observe(learner)``), "last()" reads
  ``last()`` at every turn as PettingZoo's documented loop does (a tensor for every opponent's turn too).

``--locality`` measures why more games per VectorEnv is not faster: the same work per step (legal codes, a random
step through the engine's fast path, the mover's tensor into a preallocated row) over N games interleaved step by step
(N = 1: one game at a time, as the PettingZoo env plays), with Python's garbage collector on and off, and VectorEnv's
own self-play at the same N; steps per CPU second, interleaved runs, the best of each.

``--profile`` adds cProfile's shares of a VectorEnv self-play step (tensor encoder, rules, legal codes and masks, the
environment's own code).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

import meeple
from meeple.adapters import openspiel as spiel_adapter
from meeple.adapters.pettingzoo import env as pz_env
from meeple.bench import baseline_ops_per_s
from meeple.bots.factory import make_bot
from meeple.core.rng import Rng
from meeple.core.view import SeatView

GAMES = [("citadels", 4), ("capitol", 4), ("capital_lux_2", 3), ("caprice", 3)]


def _rate(run: Callable[[int], int], seconds: float) -> float:
    """Steps per CPU second of ``run(seed)`` (one whole game per call, returns its steps) over about ``seconds``.

    CPU time of this process (``time.process_time``), not wall time: on shared cores the wall clock counts other
    processes' turns too.
    """
    steps, seed, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        steps += run(seed)
        seed += 1
    return steps / (time.process_time() - start)


def native(game: meeple.Game[Any], observe: bool) -> Callable[[int], int]:
    def run(seed: int) -> int:
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        steps = 0
        while not state.is_terminal():
            if observe:
                seat = state.current_player()
                state.observation_tensor(seat)
                state.legal_actions_mask(seat)
            codes = state.legal_action_codes()
            state.apply_action(codes[rng.randrange(len(codes))])
            steps += 1
        return steps

    return run


def through_pyspiel(name: str, players: int) -> Callable[[int], int]:
    game = pyspiel.load_game(f"meeple_{name}(players={players})")

    def run(seed: int) -> int:
        state = game.new_initial_state()
        for digit in spiel_adapter.deal_digits(seed % spiel_adapter.DEALS):
            state.apply_action(digit)
        rng = Rng(seed)
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return run


def through_pettingzoo(name: str, players: int) -> Callable[[int], int]:
    return _pz_loop(pz_env(name, players=players))


def _pz_loop(e: Any) -> Callable[[int], int]:
    def run(seed: int) -> int:
        e.reset(seed=seed)
        rng = Rng(seed)
        steps = 0
        for _agent in e.agent_iter():
            observation, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps

    return run


def tensors_per_second(game: meeple.Game[Any], seconds: float) -> float:
    """observation_tensor calls per second over the positions of a few random games."""
    states = []
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            states.append(state.clone())
            codes = state.legal_action_codes()
            state.apply_action(codes[rng.randrange(len(codes))])
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for s in states[:200]:
            s.observation_tensor(s.current_player())
        done += min(200, len(states))
    return done / (time.perf_counter() - start)


def through_vector(name: str, players: int, envs: int, opponents: Any = None, steps: int = 200) -> Callable[[int], int]:
    """One call: ``steps`` batched steps of a VectorEnv of ``envs`` games, random legal actions drawn from the masks.

    ``opponents``: None for self-play, else ``VectorEnv``'s fixed opponents (the steps are then the learner's).
    Returns the decisions made: ``steps x envs``.
    """
    from meeple.adapters.vector import VectorEnv

    venv = VectorEnv(name, envs, players=players, opponents=opponents)
    state: dict[str, Any] = {}

    def run(seed: int) -> int:
        if not state:
            state["infos"] = venv.reset(seed=seed)[1]
            state["rng"] = np.random.default_rng(seed)
        rng = state["rng"]
        for _ in range(steps):
            masks = state["infos"]["action_mask"]
            actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
            state["infos"] = venv.step(actions)[4]
        return steps * envs

    return run


def pz_opponents_loop(name: str, players: int, envs: int, last_everywhere: bool) -> Callable[[int], int]:
    """One call: 50 learner decisions in each of ``envs`` PettingZoo envs against ``random`` bots (returns 50 x envs).

    The learner's seat rotates with each deal (as ``VectorEnv``'s ``seat="rotate"``); its move is drawn from its
    observation's mask; each opponent seat has a ``random`` bot answering through its ``SeatView``.
    ``last_everywhere``: read ``last()`` at every turn (PettingZoo's documented loop) rather than observing the learner
    only.
    """
    from meeple.core.rng import derive_seed

    games = [pz_env(name, players=players) for _ in range(envs)]
    learner = [0] * envs
    bots: list[list[Any]] = [[] for _ in range(envs)]
    deals = [0] * envs
    rng = np.random.default_rng(0)

    def deal(i: int) -> None:
        seed = int(rng.integers(0, 2**62))
        games[i].reset(seed=seed)
        learner[i] = (i + deals[i]) % players
        deals[i] += 1
        bots[i] = [make_bot("random", name, seed=derive_seed(seed, "bot", s)) for s in range(players)]

    def run(_seed: int) -> int:
        if not deals[0]:
            for i in range(envs):
                deal(i)
        for i, e in enumerate(games):
            decisions = 0
            while decisions < 50:
                agent = e.agent_selection
                seat = int(agent.rsplit("_", 1)[1])
                if last_everywhere:
                    observation, _reward, terminated, _truncated, _info = e.last()
                    if terminated:
                        deal(i)
                        continue
                elif e.terminations[agent]:
                    deal(i)
                    continue
                if seat == learner[i]:
                    mask = (observation if last_everywhere else e.observe(agent))["action_mask"]
                    e.step(int(np.argmax(rng.random(mask.shape) * mask)))
                    decisions += 1
                else:
                    e.step(e.game.action_code(bots[i][seat].select_action(SeatView(e.state_, seat))))
        return 50 * envs

    return run


def baseline_run(seed: int) -> int:
    """One call: 200 ops of the machine's baseline workload (``meeple.bench.baseline_ops_per_s``'s op: shuffle a
    65-card deck and scan it), for rates comparable across trees and builds as multiples of it."""
    import random

    rng = random.Random(seed)
    deck = list(range(65))
    for _ in range(200):
        rng.shuffle(deck)
        sum(1 for c in deck if c & 1)
    return 200


def batch_ratios(seconds: float, envs: int, name: str, players: int) -> None:
    """The two batching ratios of round three, measured in one process, interleaved (see the module docstring)."""
    rates = _interleaved(
        {
            "base": baseline_run,
            "pz": through_pettingzoo(name, players),
            "vec": through_vector(name, players, envs),
            "pz_lean": pz_opponents_loop(name, players, envs, last_everywhere=False),
            "pz_last": pz_opponents_loop(name, players, envs, last_everywhere=True),
            "vec_opp": through_vector(name, players, envs, opponents="random", steps=50),
        },
        6 * seconds,
    )
    base = rates["base"]
    print(f"{name}, {players} players, {envs} games per VectorEnv; decisions per CPU second (best of 5 slices)")
    print(f"and as multiples of the baseline workload's {base:,.0f} ops per CPU second")
    print("| measure | baseline loop (x base) | VectorEnv (x base) | ratio |")
    print("|---|---:|---:|---:|")
    pz, vec = rates["pz"], rates["vec"]
    print(
        f"| self-play, x the PettingZoo env | {pz:,.0f} ({pz / base:.3f}) | {vec:,.0f} ({vec / base:.3f}) "
        f"| {vec / pz:.2f} |"
    )
    vec_opp = rates["vec_opp"]
    for key, label in (("pz_lean", "lean"), ("pz_last", "last()")):
        loop = rates[key]
        print(
            f"| against 3 random, x {envs} PettingZoo envs ({label}) | {loop:,.0f} ({loop / base:.3f}) "
            f"| {vec_opp:,.0f} ({vec_opp / base:.3f}) | {vec_opp / loop:.2f} |"
        )


def vector_profile(name: str, players: int, envs: int, steps: int) -> None:
    """cProfile's shares of VectorEnv self-play steps: encoder, rules, legal codes and masks, the env's own code."""
    import cProfile
    import pstats

    from meeple.adapters.vector import VectorEnv

    venv = VectorEnv(name, envs, players=players)
    infos = venv.reset(seed=0)[1]
    rng = np.random.default_rng(0)

    def play() -> None:
        nonlocal infos
        for _ in range(steps):
            masks = infos["action_mask"]
            infos = venv.step(np.argmax(rng.random(masks.shape) * masks, axis=1))[4]

    play()  # warm up: caches, later game phases
    profile = cProfile.Profile()
    profile.runcall(play)
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = sum(row[2] for row in stats.values())  # every function's own time
    cumulative = {f"{key[0].rsplit('/', 1)[-1]}:{key[2]}": row[3] for key, row in stats.items()}

    def share(*names: str) -> float:
        return sum(t for key, t in cumulative.items() if key.split(":", 1)[1] in names) / total

    tensor = share("fill_from_state")
    rules = share("fast_apply_action", "fast_legal_actions", "is_terminal", "current_player")
    codes = share("encode_many", "_write_masks")
    print(f"cProfile of {steps} VectorEnv({envs}) steps, {name} {players}p (shares of the profiled time):")
    print(f"  tensor encoder (fill_from_state): {tensor:.0%}")
    print(f"  rules (fast_apply_action, fast_legal_actions, is_terminal, current_player): {rules:.0%}")
    print(f"  legal codes and masks (encode_many, _write_masks): {codes:.0%}")
    print(f"  the rest (the env's own code, numpy, the random actions): {1 - tensor - rules - codes:.0%}")


def interleaved_games(game: meeple.Game[Any], envs: int) -> Callable[[int], int]:
    """One call: 2,000 steps (at least one per game) of ``envs`` games interleaved step by step, each step doing what
    a VectorEnv step does for a game (legal codes, a random step, the mover's tensor into its row)."""
    rng = Rng(envs)
    states = [game.new_initial_state(i) for i in range(envs)]
    rows = np.zeros((envs, game.observation_tensor_size()), np.float32)
    encode = game.codec.encode_many
    rounds = max(1, 2000 // envs)

    def run(_seed: int) -> int:
        for _ in range(rounds):
            for i, state in enumerate(states):
                legal = state.fast_legal_actions()
                encode(legal)
                state.fast_apply_action(legal[rng.randrange(len(legal))])
                if state.is_terminal():
                    states[i] = state = game.new_initial_state(rng.randrange(1 << 30))
                state.write_observation_tensor(state.current_player(), rows[i])
        return rounds * envs

    return run


def locality(seconds: float, name: str, players: int) -> None:
    """Steps per CPU second of the same per-game work over N interleaved games, GC on and off, and VectorEnv(N)."""
    import gc

    game = meeple.load_game(name, players=players)
    sizes = [1, 4, 16, 64, 256, 1024]
    runs: dict[str, Callable[[int], int]] = {}
    for n in sizes:
        runs[f"{n}"] = interleaved_games(game, n)
        runs[f"{n} no gc"] = _without_gc(interleaved_games(game, n))
        runs[f"vec {n}"] = through_vector(name, players, n)
    for run in runs.values():  # into mid-game first: the games' later phases cost more than the first draft
        run(0)
    rates = _interleaved(runs, len(runs) * seconds / 3)
    print(f"{name} {players}p: steps per CPU second, N games interleaved step by step (x one game at a time)")
    print("| N | interleaved | GC off | VectorEnv(N) self-play |")
    print("|---:|---:|---:|---:|")
    one = rates["1"]
    for n in sizes:
        a, b, v = rates[f"{n}"], rates[f"{n} no gc"], rates[f"vec {n}"]
        print(f"| {n} | {a:,.0f} ({a / one:.2f}) | {b:,.0f} ({b / one:.2f}) | {v:,.0f} ({v / one:.2f}) |")
    gc.collect()


def _without_gc(run: Callable[[int], int]) -> Callable[[int], int]:
    import gc

    def quiet(seed: int) -> int:
        gc.disable()
        try:
            return run(seed)
        finally:
            gc.enable()

    return quiet


def _reference_tensors(game: meeple.Game[Any]) -> None:
    """Make ``game`` encode every tensor from ``observation(seat)`` (the reference path, before direct encoders):
    both the list (``_observation_values``) and the buffer (``_write_observation``) that ``observation_tensor``
    fills."""

    def write(state: Any, player: int, out: Any) -> None:
        out[:] = state.encoded_observation_values(player)

    game._observation_values = lambda state, player: state.encoded_observation_values(player)  # type: ignore[method-assign]
    game._write_observation = write  # type: ignore[method-assign]


def _reference_array(state: Any) -> Any:
    return np.asarray(state.encoded_observation_values(state.current_player()), np.float32)


def microseconds_per_tensor(game: meeple.Game[Any], seconds: float) -> tuple[float, float]:
    """(reference, direct into a buffer): microseconds per tensor of the mover over a few random games."""
    states = []
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            states.append(state.clone())
            codes = state.legal_action_codes()
            state.apply_action(codes[rng.randrange(len(codes))])
    states = states[:300]
    buffer = np.zeros(game.observation_tensor_size(), np.float32)

    def per_call(fn: Callable[[Any], None]) -> float:
        done, start = 0, time.process_time()
        while time.process_time() - start < seconds / 10:
            for s in states:
                fn(s)
            done += len(states)
        return 1e6 * (time.process_time() - start) / done

    reference, direct = float("inf"), float("inf")
    for _ in range(5):  # alternate, keep the best of each (shared cores drift)
        reference = min(reference, per_call(lambda s: _reference_array(s)))
        direct = min(direct, per_call(lambda s: s.write_observation_tensor(s.current_player(), buffer)))
    return reference, direct


def _interleaved(runs: dict[str, Callable[[int], int]], seconds: float, rounds: int = 5) -> dict[str, float]:
    """The best steps/s of each run over ``rounds`` alternating slices of ``seconds / rounds`` (shared cores drift:
    alternating and keeping the best compares the runs under the same load)."""
    best = dict.fromkeys(runs, 0.0)
    for _ in range(rounds):
        for name, run in runs.items():
            best[name] = max(best[name], _rate(run, seconds / rounds))
    return best


def vector(seconds: float, envs: int, only: str | None = None) -> None:
    print(f"VectorEnv ({envs} games) against the PettingZoo env, same process, interleaved; tensors in microseconds")
    print("| game | PZ, reference tensors | PettingZoo | VectorEnv (x PZ ref; x PZ) | tensor us ref -> direct |")
    print("|---|---:|---:|---:|---:|")
    for name, players in GAMES:
        if only and name != only:
            continue
        reference_env = pz_env(name, players=players)
        _reference_tensors(reference_env.game)
        rates = _interleaved(
            {
                "ref": _pz_loop(reference_env),
                "pz": through_pettingzoo(name, players),
                "vec": through_vector(name, players, envs),
            },
            3 * seconds,
        )
        pz_ref, pz, vec = rates["ref"], rates["pz"], rates["vec"]
        ref_us, direct_us = microseconds_per_tensor(meeple.load_game(name, players=players), seconds)
        print(
            f"| {name} {players}p | {pz_ref:,.0f} | {pz:,.0f} | {vec:,.0f} ({vec / pz_ref:.2f}; {vec / pz:.2f}) "
            f"| {ref_us:.1f} -> {direct_us:.1f} ({ref_us / direct_us:.1f}x) |"
        )


def clones(game: meeple.Game[Any]) -> Callable[[int], int]:
    """One call: clone every position of a random game (returns the clones made)."""

    def run(seed: int) -> int:
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        done = 0
        while not state.is_terminal():
            state.clone()
            codes = state.legal_action_codes()
            state.apply_action(codes[rng.randrange(len(codes))])
            done += 1
        return done

    return run


def native_speed(seconds: float) -> None:
    """Native steps/s and clone+steps/s per game, as multiples of the machine's baseline ops/s measured in between.

    All in CPU time of this process (``meeple.bench.baseline_ops_per_s`` with ``time.process_time``): compare those
    multiples across commits, not the raw rates.
    """
    print("| game | native steps/s | x baseline | clone + step /s | x baseline |")
    print("|---|---:|---:|---:|---:|")
    for name, players in GAMES:
        game = meeple.load_game(name, players=players)
        best = {"base": 0.0, "steps": 0.0, "clones": 0.0}
        for _ in range(3):  # alternate, keep the best of each (shared cores drift)
            best["base"] = max(best["base"], baseline_ops_per_s(seconds / 3, time.process_time))
            best["steps"] = max(best["steps"], _rate(native(game, False), seconds / 3))
            best["clones"] = max(best["clones"], _rate(clones(game), seconds / 3))
        base, steps, cloned = best["base"], best["steps"], best["clones"]
        print(f"| {name} {players}p | {steps:,.0f} | {steps / base:.3f} | {cloned:,.0f} | {cloned / base:.3f} |")


def overhead(seconds: float) -> None:
    base = baseline_ops_per_s(1.0)
    print(f"baseline: {base:,.0f} ops/s")
    header = "| game | native steps/s | + observations | pyspiel (x native) | PettingZoo (x native+obs) | tensors/s |"
    print(header)
    print("|---|---:|---:|---:|---:|---:|")
    for name, players in GAMES:
        game = meeple.load_game(name, players=players)
        plain = _rate(native(game, False), seconds)
        observed = _rate(native(game, True), seconds)
        spiel = _rate(through_pyspiel(name, players), seconds)
        pz = _rate(through_pettingzoo(name, players), seconds)
        tensors = tensors_per_second(game, seconds)
        print(
            f"| {name} {players}p | {plain:,.0f} | {observed:,.0f} | {spiel:,.0f} ({spiel / plain:.2f}) "
            f"| {pz:,.0f} ({pz / observed:.2f}; {pz / plain:.2f} of plain) | {tensors:,.0f} |"
        )


def ismcts_match(games: int, iterations: int) -> None:
    """OpenSpiel's ISMCTSBot against meeple's ``ismcts:N``, equal iterations, random rollouts, seats alternated."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("meeple_caprice(players=2)")
    wins = [0.0, 0.0]  # meeple, openspiel
    seconds = [0.0, 0.0]
    moves = [0, 0]
    for g in range(games):
        rng = np.random.RandomState(g)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        theirs = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=iterations, random_state=rng)
        ours = make_bot(f"ismcts:{iterations}", "caprice", seed=g)
        meeple_seat = g % 2
        state = game.new_initial_state()
        for digit in spiel_adapter.deal_digits(g):
            state.apply_action(digit)
        while not state.is_terminal():
            seat = state.current_player()
            start = time.perf_counter()
            if seat == meeple_seat:
                action = game.meeple.codec.encode(ours.select_action(SeatView(state.meeple, seat)))
                who = 0
            else:
                action = theirs.step(state)
                who = 1
            seconds[who] += time.perf_counter() - start
            moves[who] += 1
            state.apply_action(int(action))
        returns = state.returns()
        wins[0] += returns[meeple_seat]
        wins[1] += returns[1 - meeple_seat]
    print(f"ISMCTS, caprice 2 players, {iterations} iterations, {games} games (seats alternated):")
    print(f"  meeple:    {wins[0]:.1f} wins, {1000 * seconds[0] / max(moves[0], 1):.1f} ms per move")
    print(f"  OpenSpiel: {wins[1]:.1f} wins, {1000 * seconds[1] / max(moves[1], 1):.1f} ms per move")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--ismcts", type=int, default=0, help="games of OpenSpiel's ISMCTS vs meeple's (0: none)")
    parser.add_argument("--iterations", type=int, default=200, help="ISMCTS iterations per move for both")
    parser.add_argument("--vector", action="store_true", help="only the VectorEnv and tensor measurements")
    parser.add_argument("--native", action="store_true", help="only native stepping and cloning, x baseline ops/s")
    parser.add_argument("--envs", type=int, default=64, help="games in the VectorEnv")
    parser.add_argument("--game", choices=[name for name, _ in GAMES], help="--vector, --batch: this game only")
    parser.add_argument("--batch", action="store_true", help="only the two batching ratios of round three")
    parser.add_argument("--profile", action="store_true", help="--batch: cProfile's shares of a VectorEnv step")
    parser.add_argument("--locality", action="store_true", help="only the cost of interleaving N games step by step")
    args = parser.parse_args()
    if args.locality:
        name = args.game or "citadels"
        locality(args.seconds, name, dict(GAMES)[name])
        return
    if args.batch:
        name = args.game or "citadels"
        players = dict(GAMES)[name]
        batch_ratios(args.seconds, args.envs, name, players)
        if args.profile:
            vector_profile(name, players, args.envs, 300)
        return
    if args.vector:
        vector(args.seconds, args.envs, args.game)
        return
    if args.native:
        native_speed(args.seconds)
        return
    overhead(args.seconds)
    if args.ismcts:
        ismcts_match(args.ismcts, args.iterations)


if __name__ == "__main__":
    main()
