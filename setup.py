"""Build hook: compile the gettext catalogs (``meeple/locale/*/LC_MESSAGES/*.po``) into the ``.mo`` files that ship.

Everything else about the package is in ``pyproject.toml``. An editable install compiles them beside the ``.po``
files (git ignores them); a catalog edited later is compiled in memory at first use (``meeple.i18n.translator``).
"""

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


setup(cmdclass={"build_py": BuildPyWithCatalogs})
