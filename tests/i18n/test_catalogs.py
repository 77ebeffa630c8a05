"""The catalogs: current with the code, complete in every language, placeholders intact, compiled into the wheel."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogs_tool", ROOT / "tools" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_message_is_in_the_template_and_translated_in_every_language() -> None:
    problems = _tool().problems()
    assert problems == [], "\n".join(problems[:40])


def test_the_check_finds_an_untranslated_message_and_a_dropped_placeholder(tmp_path: Path) -> None:
    tool = _tool()
    from babel.messages.catalog import Catalog

    catalog = Catalog(locale="fr")
    catalog.add("build {district}", "bâtir")  # the placeholder is lost
    catalog.add("take 2 gold", "")  # untranslated
    path = tmp_path / "fr" / "LC_MESSAGES" / "meeple.po"
    tool._write(catalog, path)
    tool.LOCALE = tmp_path
    problems = tool.problems()
    assert any("untranslated ('take 2 gold', None)" in p for p in problems)
    assert any("drops placeholder(s) ['district']" in p for p in problems)
    assert any("missing" in p for p in problems)  # every other message


def test_a_call_with_an_fstring_is_reported(tmp_path: Path) -> None:
    tool = _tool()
    package = tmp_path / "src" / "meeple"
    package.mkdir(parents=True)
    (package / "bad.py").write_text('from meeple.i18n import M, _\nx = 3\nM(f"pick {x}")\n_("fine")\n')
    tool.ROOT, tool.PACKAGE = tmp_path, package
    found = list(tool.non_literal_calls())
    assert found == ["src/meeple/bad.py:3: M(...) needs literal strings"]


@pytest.mark.slow
def test_the_wheel_ships_compiled_catalogs(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy: pip builds in the source tree (build/, egg-info)
    # caches are skipped too: another test (mypy, ruff) may be writing them while this one copies the tree
    skip = shutil.ignore_patterns(
        ".venv", ".git", "build", "dist", "*.egg-info", "__pycache__", "*.mo", "records", ".*_cache", ".hypothesis"
    )
    shutil.copytree(ROOT, source, ignore=skip)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("meeple-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "meeple/locale/fr/LC_MESSAGES/meeple.mo" in names
    assert "meeple/locale/fr/LC_MESSAGES/meeple.po" in names
