"""Print the observation tensor tables of docs/research.md (one configuration per game): field, offset, size, meaning.

python tools/tensor_docs.py > /tmp/tables.md   # then paste under "Observation tensors" in docs/research.md
"""

from __future__ import annotations

import meeple

DOCUMENTED = [("citadels", 4), ("capitol", 4), ("capital_lux_2", 3), ("caprice", 3)]
"""The configuration each table shows; other player counts change the per-seat fields' sizes and later offsets."""


def table(name: str, players: int) -> str:
    """Return the Markdown table of ``name`` at ``players`` players."""
    game = meeple.load_game(name, players=players)
    lines = [
        f"### {game.title} ({players} players): {game.observation_tensor_size()} floats, "
        f"{game.num_distinct_actions()} actions",
        "",
        "| field | offset | size | encodes |",
        "|---|---:|---:|---|",
    ]
    for f in game.observation_tensor_layout().fields:
        lines.append(f"| `{f.name}` | {f.offset} | {f.size} | {f.doc} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print("\n".join(table(name, players) for name, players in DOCUMENTED))
