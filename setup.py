"""Build hook: compile the gettext catalogs (``meeple/locale/*/LC_MESSAGES/*.po``) into the ``.mo`` files that ship.

Everything else about the package is in ``pyproject.toml``. An editable install compiles them beside the ``.po``
files (git ignores them); a catalog edited later is compiled in memory at first use (``meeple.i18n.translator``).

Optional compiled build (issue "Faster search and faster engines"): ``MEEPLE_COMPILE=1 pip install
--no-build-isolation .`` (with mypy, setuptools, wheel and babel installed, as the ``test`` extra has them; and a C
compiler) compiles the rules engines' and bots' modules listed in :data:`COMPILED` with mypyc: random play runs
1.6-1.9x faster, the hard bots' moves 1.5-1.8x. The same seeds give the same games: ``tests/test_compiled_build.py``
builds the wheel and runs the conformance suite, pinned record digests included, against it. The pure-Python package
stays the default.
"""

import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithCatalogs(build_py):
    """``build_py`` that also compiles each ``.po`` catalog to its ``.mo``."""

    def run(self) -> None:
        """Build as usual, then compile the catalogs into the build (or beside the sources, when editable)."""
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        source = Path(__file__).resolve().parent / "src"
        for po in sorted(source.glob("meeple/locale/*/LC_MESSAGES/*.po")):
            target_root = source if getattr(self, "editable_mode", False) else Path(self.build_lib)
            mo = target_root / po.relative_to(source).with_suffix(".mo")
            mo.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as fh:
                catalog = read_po(fh, locale=po.parts[-3])
            with mo.open("wb") as fh:
                write_mo(fh, catalog)


COMPILED = [
    f"meeple/{module}.py"
    for module in (
        "bots/ismcts",
        *(f"bots/heuristic/{game}" for game in ("capital_lux_2", "capitol", "caprice", "citadels")),
        "bots/rollout/capital_lux_2",
        *(f"games/{game}/tensor" for game in ("capital_lux_2", "capitol", "caprice", "citadels")),
        "games/capital_lux_2/const",
        "games/capital_lux_2/flow",
        "games/capital_lux_2/rules",
        "games/capital_lux_2/solo",
        "games/capital_lux_2/state",
        *(
            f"games/capital_lux_2/powers/{tile}"
            for tile in (
                "agent aristocrate clerc disciple dualiste etranger explorateur infiltre marchand mentaliste "
                "missionnaire prophete proselytiste recruteur savant sentinelle"
            ).split()
        ),
        "games/capitol/const",
        "games/capitol/redeal",
        "games/capitol/rules",
        "games/capitol/state",
        "games/capitol/why",
        "games/caprice/const",
        "games/caprice/hidden",
        "games/caprice/rules",
        "games/caprice/state",
        "games/citadels/const",
        "games/citadels/draft",
        "games/citadels/legal",
        "games/citadels/rules",
        "games/citadels/serial",
        "games/citadels/state",
        "games/citadels/summary",
    )
]
"""The modules a compiled build compiles: the engines' rules and states, their direct tensor encoders (typed with their
game's state and observation classes), the ISMCTS search, the heuristic bots and the fast rollout policy. Data
tables, texts, actions and observations stay Python: mypyc gains little there, and it miscompiles a check of
``Final`` tuples in caprice/data.py. Base classes that others subclass (``State``, ``Bot``,
the power tiles' ``PowerTile``) stay Python: an interpreted class cannot inherit from a compiled one."""


def _ext_modules() -> list:  # setuptools Extension objects
    if os.environ.get("MEEPLE_COMPILE") != "1":
        return []
    from mypyc.build import mypycify

    return mypycify([f"src/{path}" for path in COMPILED], opt_level="3")  # named meeple.... (src has no __init__)


setup(cmdclass={"build_py": BuildPyWithCatalogs}, ext_modules=_ext_modules())
