"""Manage meeple's gettext catalogs with Babel: extract, update, compile, check.

    python tools/catalogs.py extract   # src/meeple/**.py (+ web templates) + every game's vocabulary -> meeple.pot
    python tools/catalogs.py update    # merge meeple.pot into each language's meeple.po (new entries untranslated)
    python tools/catalogs.py compile   # meeple.po -> meeple.mo (the build does this too: setup.py)
    python tools/catalogs.py check     # fail on a stale template, an untranslated or fuzzy entry, or a bad placeholder

Babel keywords: ``_``, ``N_``, ``gettext``, ``ngettext``, ``pgettext`` (gettext's) and meeple's message constructors
``M`` (msgid), ``term`` (context, msgid) and ``plural`` (singular, plural). Their first arguments must be literal
strings; ``check`` reports a call with an f-string or a variable, which no catalog could hold. A game's words come
from its ``vocabulary()`` (``meeple/games/<game>/vocabulary.py``), not from extraction. Locations are written without
line numbers so that moving code does not churn the catalogs. docs/i18n.md explains the workflow.
"""

from __future__ import annotations

import ast
import importlib
import string
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.catalog import Message as BabelMessage
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from meeple.core.registry import load_game

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "meeple"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "meeple.pot"
LANGUAGES = ("fr",)
"""Languages with a catalog (English is the source language)."""
KEYWORDS = {
    "_": None,
    "N_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "M": None,
    "term": ((1, "c"), 2),
    "plural": (1, 2),
}
_FIRST_LITERALS = {"_": 1, "N_": 1, "gettext": 1, "ngettext": 2, "pgettext": 2, "M": 1, "term": 2, "plural": 2}
METHODS = [("**/migrations/**", "ignore"), ("**.py", "python"), ("**/templates/**.html", "jinja2")]
GAMES = ("citadels", "capitol", "capital_lux_2", "caprice")


def _po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "meeple.po"


def _relative(path: str) -> str:
    return f"src/meeple/{path}"


def template() -> Catalog:
    """Return the template built from the sources and the games' vocabularies."""
    catalog = Catalog(project="meeple", msgid_bugs_address="", charset="utf-8")
    found = extract_from_dir(str(PACKAGE), METHODS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",))
    for filename, _lineno, message, comments, context in found:
        catalog.add(message, locations=[(_relative(filename), None)], auto_comments=comments, context=context)
    for text, where in help_texts():
        catalog.add(text, locations=[(where, None)])
    for game in GAMES:
        where = f"src/meeple/games/{game}/params.py"
        catalog.add(load_game(game).title, locations=[(f"src/meeple/games/{game}/game.py", None)])
        for spec in load_game(game).describe_params():
            if spec.doc:
                catalog.add(spec.doc, locations=[(where, None)])
            if spec.bounds is not None and spec.bounds.expands:
                catalog.add(spec.bounds.expands, locations=[(where, None)])
        module = importlib.import_module(f"meeple.games.{game}.vocabulary")
        for word in module.vocabulary():
            msgid = word.msgid if word.plural is None else (word.msgid, word.plural)
            catalog.add(msgid, locations=[(f"src/meeple/games/{game}/vocabulary.py", None)], context=word.context)
    return catalog


def help_texts() -> list[tuple[str, str]]:
    """Return the command line's help texts (docstrings, ``help=``) and typer's words, from the command tree."""
    import typer.main

    from meeple.cli.app import build_app
    from meeple.cli.language import help_words

    out = [(word, "src/meeple/cli/language.py") for word in help_words()]
    group = typer.main.get_command(build_app())
    commands = [group, *getattr(group, "commands", {}).values()]
    for command in commands:
        where = f"meeple {command.name} --help" if command is not group else "meeple --help"
        for text in (command.help, command.epilog, *(getattr(p, "help", None) for p in command.params)):
            if text:
                out.append((text, where))
    return out


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        write_po(fh, catalog, width=120, sort_output=True, include_lineno=False, omit_header=False)


def _read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, locale=lang)


def extract() -> None:
    """Write the template."""
    _write(template(), TEMPLATE)
    print(f"wrote {TEMPLATE.relative_to(ROOT)}")


def update() -> None:
    """Merge the template into each language's catalog (new entries untranslated, obsolete ones dropped)."""
    tpl = _read(TEMPLATE)
    for lang in LANGUAGES:
        path = _po_path(lang)
        catalog = _read(path, lang) if path.exists() else Catalog(locale=lang, project="meeple")
        catalog.update(tpl, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        _write(catalog, path)
        print(f"updated {path.relative_to(ROOT)}")


def compile_all() -> None:
    """Compile each language's catalog to its ``.mo``."""
    for lang in LANGUAGES:
        path = _po_path(lang)
        with path.with_suffix(".mo").open("wb") as fh:
            write_mo(fh, _read(path, lang))
        print(f"compiled {path.with_suffix('.mo').relative_to(ROOT)}")


def _key(message: BabelMessage) -> tuple[object, object]:
    return (message.id, message.context)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def non_literal_calls() -> Iterator[str]:
    """Yield ``file:line`` of every extraction keyword call whose message arguments are not literal strings."""
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            count = _FIRST_LITERALS.get(node.func.id)
            if count is None or not node.args:
                continue
            for arg in node.args[:count]:
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    yield f"{path.relative_to(ROOT)}:{node.lineno}: {node.func.id}(...) needs literal strings"
                    break


def problems() -> list[str]:
    """Return what is wrong with the catalogs (empty: the template is current and every language complete)."""
    out = list(non_literal_calls())
    fresh = template()
    saved = _read(TEMPLATE) if TEMPLATE.exists() else Catalog()
    wanted = {_key(m) for m in fresh if m.id}
    have = {_key(m) for m in saved if m.id}
    out += [
        f"meeple.pot lacks {k!r} (run: python tools/catalogs.py extract update)" for k in sorted(wanted - have, key=str)
    ]
    out += [
        f"meeple.pot has a stale {k!r} (run: python tools/catalogs.py extract update)"
        for k in sorted(have - wanted, key=str)
    ]
    for lang in LANGUAGES:
        path = _po_path(lang)
        if not path.exists():
            out.append(f"{lang}: no catalog at {path.relative_to(ROOT)}")
            continue
        catalog = _read(path, lang)
        entries = {_key(m): m for m in catalog if m.id}
        for key in sorted(wanted, key=str):
            entry = entries.get(key)
            if entry is None:
                out.append(f"{lang}: missing {key!r}")
                continue
            strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
            if entry.fuzzy or not all(strings):
                out.append(f"{lang}: untranslated {key!r}")
                continue
            expected = set().union(*(_fields(i) for i in ids))
            for text in strings:
                try:
                    got = _fields(text)
                except ValueError as exc:
                    out.append(f"{lang}: {key!r}: broken placeholder in {text!r} ({exc})")
                    continue
                if got - expected:
                    out.append(f"{lang}: {key!r}: unknown placeholder(s) {sorted(got - expected)} in {text!r}")
                elif expected - got - {"n"}:  # a plural's count may go unsaid ("une carte")
                    out.append(f"{lang}: {key!r}: drops placeholder(s) {sorted(expected - got)} in {text!r}")
    return out


def check() -> int:
    """Print the problems; return the exit status (1 when there are any)."""
    found = problems()
    for line in found:
        print(line)
    print(f"{len(found)} problem(s)")
    return 1 if found else 0


def main(argv: list[str]) -> int:
    """Run the commands named in ``argv`` in order."""
    commands = {"extract": extract, "update": update, "compile": compile_all}
    if not argv or any(a not in {*commands, "check"} for a in argv):
        print(__doc__)
        return 2
    for arg in argv:
        if arg == "check":
            return check()
        commands[arg]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
