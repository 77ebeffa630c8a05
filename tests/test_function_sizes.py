"""The server's and the web client's functions stay short: none over 80 lines (issue #42, item 4).

A function's length is from its ``def`` (its decorators not counted) to its last line, docstring included; a nested
function counts inside its parent too, so a closure that holds routes counts whole. The two app factories are held
to 120 lines ("create_app and create_web_app each under 120 lines"), and they are under 80 like the rest.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "meeple"
LIMIT = 80
"""Lines a function of server/ or web/ may have, at most."""


def long_functions(folder: Path, limit: int = LIMIT) -> list[str]:
    """``path:line name (n lines)`` of every function under ``folder`` longer than ``limit`` lines."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    found.append(f"{path.relative_to(folder)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_function_of_the_server_or_the_web_client_is_over_80_lines() -> None:
    assert long_functions(SRC / "server") == []
    assert long_functions(SRC / "web") == []


def test_the_measure_counts_a_closure_whole(tmp_path: Path) -> None:
    body = "\n".join(f"        x{i} = {i}" for i in range(LIMIT))
    (tmp_path / "m.py").write_text(f"def outer():\n    def inner():\n{body}\n    return inner\n")
    found = long_functions(tmp_path)
    assert [line.split(" ")[1] for line in found] == ["outer", "inner"]
    assert long_functions(tmp_path, limit=LIMIT + 3) == []
