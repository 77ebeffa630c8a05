"""``meeple evaluate``: a bot spec or a policy from a file, JSON or a table, bad input refused with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import Cli


def test_meeple_evaluate_prints_json_per_lineup(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = cli(["evaluate", "heuristic", "caprice", "--against", "random,heuristic", "-n", "2", "--json"])
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [r["opponent"] for r in rows] == ["random", "heuristic"] and all(r["games"] == 4 for r in rows)
    table = cli(["evaluate", "heuristic", "caprice", "-n", "1"]).output
    assert "win share" in table and "heuristic" in table
    policy = tmp_path / "mine.py"
    policy.write_text("import numpy as np\n\ndef first(observation, mask):\n    return int(np.flatnonzero(mask)[0])\n")
    loaded = cli(["evaluate", f"{policy}:first", "caprice", "-a", "random", "-n", "1", "--json"]).output
    assert json.loads(loaded)["policy"] == "first"
    (tmp_path / "mymodule.py").write_text(
        "from meeple.bots import make_bot\n\ndef factory():\n    return make_bot('random', 'caprice')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    loaded = cli(["evaluate", "mymodule:factory", "caprice", "-a", "random", "-n", "1", "--json"]).output
    assert json.loads(loaded)["policy"] == "factory" and json.loads(loaded)["games"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["evaluate", "grandmaster", "caprice"], "unknown bot"),
        (["evaluate", "random", "caprice", "-a", "grandmaster"], "unknown bot"),
        (["evaluate", "nowhere.py:fn", "caprice"], "cannot import"),
        (["evaluate", "no_such_module:fn", "caprice"], "cannot import"),
        (["evaluate", "meeple.core:nothing_here", "caprice"], "has no nothing_here"),
        (["evaluate", "random", "caprice", "-n", "0"], "'--deals'"),
        (["evaluate", "random", "caprice", "-n", "100001"], "'--deals'"),
    ],
)
def test_meeple_evaluate_refuses_bad_input_clearly(cli: Cli, args: list[str], message: str) -> None:
    result = cli(args, code=2)
    assert message in result.output


def test_meeple_evaluate_reports_a_factory_that_fails(cli: Cli, tmp_path: Path) -> None:
    """A factory of no argument that raises (a trained model's file missing) is refused with its error, not a
    traceback."""
    policy = tmp_path / "trained.py"
    policy.write_text("def ppo(path='missing.zip'):\n    return open(path)\n")
    result = cli(["evaluate", f"{policy}:ppo", "caprice", "-n", "1"], code=2)
    assert "failed to make its policy" in result.output and "missing.zip" in result.output
