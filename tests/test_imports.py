"""The package's import graph: layers point down only and no module imports itself back, even from a function.

Every ``import meeple...`` of every module counts, at module level or inside a function (a cycle hidden in a
function is still a cycle); imports under ``if TYPE_CHECKING:`` do not (they never run). Layers, lowest first:
i18n (messages and catalogs: it imports nothing of meeple), core, games, bots, arena and server (side by side: neither
imports the other), web (the browser pages over the server), cli (architecture "Layers").
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
LAYERS = {"i18n": 0, "core": 1, "games": 2, "bots": 3, "arena": 4, "server": 4, "adapters": 4, "web": 5, "cli": 6}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    found: set[str] = set()
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            skip.update(id(n) for child in node.body for n in ast.walk(child))
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("meeple")}


def graph() -> dict[str, set[str]]:
    """Return module -> the meeple modules it imports (names that are not modules are dropped)."""
    files = {_module_name(p): p for p in SRC.rglob("*.py")}
    out: dict[str, set[str]] = {}
    for module, path in files.items():
        names = _imports(ast.parse(path.read_text()), module, path.name == "__init__.py")
        out[module] = {n for n in names if n in files and n != module}
    return out


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS[parts[1]] if len(parts) > 1 and parts[1] in LAYERS else None


def test_no_import_cycle() -> None:
    edges = graph()
    # a package's __init__ re-exporting its submodules is not a cycle of behaviour: drop package -> child edges
    acyclic = {m: {n for n in deps if not n.startswith(m + ".")} for m, deps in edges.items()}
    cycle = _cycle(acyclic)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_layers_point_down_only() -> None:
    wrong = []
    for module, deps in graph().items():
        mine = _layer(module)
        if mine is None:
            continue
        for dep in deps:
            theirs = _layer(dep)
            beside = theirs == mine and module.split(".")[1] != dep.split(".")[1]  # arena <-> server
            if theirs is not None and (theirs > mine or beside):
                wrong.append(f"{module} -> {dep}")
    assert not wrong, "imports pointing up a layer: " + ", ".join(sorted(wrong))


def test_the_web_client_imports_nothing_from_the_servers_composition_root() -> None:
    """Issue #42: ``web/`` reaches the server through ``meeple.server``'s entry points, its services and seats."""
    wrong = sorted(m for m, deps in graph().items() if m.startswith("meeple.web") and "meeple.server.app" in deps)
    assert wrong == [], wrong


def _late_imports(tree: ast.AST) -> set[str]:
    """Return the modules imported inside a function body (absolute ``from`` imports)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and inner.module and not inner.level:
                    found.add(inner.module)
                elif isinstance(inner, ast.Import):
                    found.update(alias.name for alias in inner.names)
    return found


def test_no_circle_inside_a_game_folder() -> None:
    """Inside a game's folder every import of a sibling is at module level, and the folder's graph is acyclic.

    An import inside a function is how a circle between ``game.py``, ``state.py`` and ``observation.py`` hides:
    at module level a real circle fails at once. The folder's graph keeps every edge (module level, in functions,
    and to the package itself), dropping only typing-only imports (``if TYPE_CHECKING:``) and the package's own
    ``__init__`` re-exports.
    """
    games = SRC / "meeple" / "games"
    late = []
    for folder in sorted(p for p in games.iterdir() if (p / "__init__.py").exists()):
        package = f"meeple.games.{folder.name}"
        for path in sorted(folder.rglob("*.py")):
            inside = {m for m in _late_imports(ast.parse(path.read_text())) if m.startswith(package + ".")}
            late += [f"{_module_name(path)} -> {m}" for m in sorted(inside)]
        edges = {
            m: {n for n in deps if n.startswith(package) and not (m == package and n.startswith(package + "."))}
            for m, deps in graph().items()
            if m.startswith(package + ".")
        }
        cycle = _cycle(edges)
        assert cycle is None, f"import circle in {package}: " + " -> ".join(cycle or [])
    assert not late, "imports of a sibling inside a function (move them to module level): " + ", ".join(late)


def test_the_late_import_finder_sees_function_bodies() -> None:
    tree = ast.parse("import os\ndef f():\n    from meeple.games.x.state import S\n    import json\n")
    assert _late_imports(tree) == {"meeple.games.x.state", "json"}


def test_the_checker_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
