"""The golden playthrough: a 4-player random game (seed 1) written step by step.

Each step gives the actor, the legal actions and, for every seat, its observation: in full at the first step, then
only what changed for that seat (:func:`delta`: changed keys, and ``"[i]"`` for a changed item of a list of the
same length; ``obs 2 =`` when nothing changed), so that the file stays small and a diff points at what changed.

Regenerate with ``MEEPLE_REGEN_GOLDEN=1 python -m pytest tests/games/citadels/test_golden.py`` (or
``python -m tests.games.citadels.golden``) and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from meeple import load_game
from meeple.core import Rng

GOLDEN = Path(__file__).with_name("golden_4p_seed1.txt")


def delta(old: Any, new: Any) -> Any:
    """Return what changed from ``old`` to ``new`` (``new`` itself when the shapes differ)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = {k: delta(old[k], v) if k in old else v for k, v in new.items() if k not in old or old[k] != v}
        out.update({k: "<removed>" for k in old if k not in new})
        return out
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new) and old:
        return {f"[{i}]": delta(o, n) for i, (o, n) in enumerate(zip(old, new, strict=True)) if o != n}
    return new


def playthrough(players: int = 4, seed: int = 1) -> str:
    game = load_game("citadels", players=players)
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    lines = [f"game citadels params {json.dumps(game.params_dict(), sort_keys=True)} seed {seed}"]
    step = 0
    previous: list[dict[str, Any]] = [{} for _ in range(players)]
    while not state.is_terminal():
        actor = state.current_player()
        legal = state.legal_actions()
        lines.append(f"step {step} actor {actor}")
        lines.append("legal " + " | ".join(state.action_to_string(a) for a in legal))
        for seat in range(players):
            obs = state.observation(seat)
            changed = delta(previous[seat], obs)
            previous[seat] = obs
            text = json.dumps(changed, sort_keys=True, separators=(",", ":"), ensure_ascii=False) if changed else "="
            lines.append(f"obs {seat} {text}")
        action = legal[rng.randrange(len(legal))]
        lines.append(f"apply {state.action_to_string(action)}")
        state.apply_action(action)
        step += 1
    lines.append(f"end scores {state.scores()} returns {state.returns()}")
    lines.append("obs spectator " + json.dumps(state.observation(None), sort_keys=True, separators=(",", ":")))
    return "\n".join(lines) + "\n"


def regenerate() -> None:
    GOLDEN.write_text(playthrough(), encoding="utf-8")


if __name__ == "__main__":
    regenerate()
