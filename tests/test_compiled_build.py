"""The optional compiled build (setup.py, ``MEEPLE_COMPILE=1``; issue "Faster search and faster engines").

Built for real with mypyc from a copy of the sources, installed into a throw-away virtual environment that borrows
this one's dependencies, then the conformance suite (every game's harness, the pinned record digests, action codes,
tampered snapshots, tensors), the ISMCTS tests and the pickling of states for worker processes run against it. The
pinned digests are the ones the pure-Python run checks, so both builds play the same games for the same seeds.

``MEEPLE_SKIP_COMPILED=1`` skips it in a quick local run, as does a machine without mypyc or a C compiler; CI sets
``MEEPLE_REQUIRE_COMPILED=1`` and never skips it. About 1.5 min of building and 2 min of tests on one core.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = ["tests/conformance", "tests/bots/test_parallel.py", "tests/bots/test_ismcts.py"]


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=1200, **kwargs)  # type: ignore[call-overload]


@pytest.mark.slow
def test_the_compiled_build_passes_the_conformance_suite_with_the_same_records(tmp_path: Path) -> None:
    required = os.environ.get("MEEPLE_REQUIRE_COMPILED") == "1"  # set by .ci/run: CI never skips this test
    if not required:
        if os.environ.get("MEEPLE_SKIP_COMPILED") == "1":
            pytest.skip("MEEPLE_SKIP_COMPILED=1")
        if importlib.util.find_spec("mypyc") is None:
            pytest.skip("mypyc (part of mypy, in the test extra) is not installed")
        if not (shutil.which("cc") or shutil.which("gcc")):
            pytest.skip("no C compiler (cc, gcc) to build the compiled wheel with")
    source = tmp_path / "source"
    for name in ("src", "setup.py", "pyproject.toml", "README.md"):
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, source / name)
    shutil.rmtree(source / "src" / "meeple.egg-info", ignore_errors=True)
    wheels = tmp_path / "wheels"
    build = _run(
        [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-q", "-w", str(wheels), "."],
        cwd=source,
        env={**os.environ, "MEEPLE_COMPILE": "1"},
    )
    assert build.returncode == 0, f"the compiled build failed:\n{build.stdout[-3000:]}\n{build.stderr[-3000:]}"
    (wheel,) = wheels.glob("meeple-*.whl")
    assert "py3-none-any" not in wheel.name, f"{wheel.name} holds no compiled module"

    venv = tmp_path / "venv"
    assert _run([sys.executable, "-m", "venv", "--without-pip", str(venv)]).returncode == 0
    python = str(venv / "bin" / "python")
    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    install = _run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", purelib, str(wheel)])
    assert install.returncode == 0, install.stderr[-3000:]
    # This environment's packages (pytest, numpy...) after the wheel's; its .pth files are not read, so the
    # editable meeple of this checkout stays out.
    Path(purelib, "zz_borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    where = _run([python, "-c", "import meeple.games.citadels.state as m, meeple; print(m.__file__, meeple.__file__)"])
    compiled_module, package = where.stdout.split()
    assert compiled_module.endswith(".so") and package.startswith(purelib), where.stdout + where.stderr

    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    tests = _run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-x", *TESTS],
        cwd=ROOT,
        env={**env, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert tests.returncode == 0, f"tests of the compiled build failed:\n{tests.stdout[-6000:]}\n{tests.stderr[-2000:]}"
    assert " passed" in tests.stdout.splitlines()[-1]
