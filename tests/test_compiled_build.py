"""The optional compiled build (setup.py, ``MEEPLE_COMPILE=1``; issue "Faster search and faster engines").

Built for real with the README's own command, verbatim, from a copy of the sources in a fresh virtual environment
that holds nothing but pip (issue #36: the line must work as written on a new machine); then the conformance suite
(every game's harness, the pinned record digests, action codes, tampered snapshots, tensors), the ISMCTS tests and
the pickling of states for worker processes run against it, borrowing this environment's test tools. The pinned
digests are the ones the pure-Python run checks, so both builds play the same games for the same seeds.

``MEEPLE_SKIP_COMPILED=1`` skips it in a quick local run, as does a machine without mypyc or a C compiler; CI sets
``MEEPLE_REQUIRE_COMPILED=1`` and never skips it. It needs the package index (the fresh environment installs the
build's needs and meeple's dependencies): about 5 min of installing and building and 2 min of tests on one core
(18 min in all on two cores shared with other work).
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
    return subprocess.run(args, capture_output=True, text=True, timeout=1800, **kwargs)  # type: ignore[call-overload]


def readme_compile_command() -> str:
    """The README's compiled-build command: the one line of its code blocks that sets ``MEEPLE_COMPILE=1``."""
    lines = [line.strip() for line in (ROOT / "README.md").read_text().splitlines() if "MEEPLE_COMPILE=1" in line]
    commands = [line for line in lines if not line.startswith(("#", "`", "MEEPLE_COMPILE=1 is"))]
    assert len(commands) == 1, f"expected one compiled-build command in the README, found {commands}"
    return commands[0]


def test_the_readme_names_everything_the_compiled_build_needs_in_its_line() -> None:
    command = readme_compile_command()
    install, build = command.split(" && ")
    assert build == "MEEPLE_COMPILE=1 pip install --no-build-isolation ."
    for need in ("setuptools", "wheel", "babel", "mypy", "numpy"):  # build-system requires, mypyc, type checking
        assert need in install, need


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

    venv = tmp_path / "venv"  # a fresh environment: pip and nothing else of ours
    made = _run([sys.executable, "-m", "venv", str(venv)])
    assert made.returncode == 0, made.stderr[-3000:]
    python = str(venv / "bin" / "python")
    skip = ("PYTHONPATH", "VIRTUAL_ENV", "MEEPLE_", "PYTEST_", "COV_", "PYTHONHOME")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(skip)}
    clean |= {"VIRTUAL_ENV": str(venv), "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    build = _run(["bash", "-c", readme_compile_command()], cwd=source, env=clean)
    assert build.returncode == 0, f"the README's compiled build failed:\n{build.stdout[-3000:]}\n{build.stderr[-3000:]}"
    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    # This environment's test tools (pytest, hypothesis...) after the fresh one's packages; its .pth files are not
    # read, so the editable meeple of this checkout stays out.
    Path(purelib, "zz_borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    where = _run(
        [python, "-c", "import meeple.games.citadels.state as m, meeple; print(m.__file__, meeple.__file__)"],
        env=clean,
    )
    compiled_module, package = where.stdout.split()
    assert compiled_module.endswith(".so") and package.startswith(purelib), where.stdout + where.stderr

    env = {k: v for k, v in clean.items() if k != "VIRTUAL_ENV"}
    tests = _run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-x", *TESTS],
        cwd=ROOT,
        env={**env, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert tests.returncode == 0, f"tests of the compiled build failed:\n{tests.stdout[-6000:]}\n{tests.stderr[-2000:]}"
    assert " passed" in tests.stdout.splitlines()[-1]
