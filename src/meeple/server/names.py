"""Guests' names that are, or look like, an account's username (issue #44, item 9).

A guest types any name; an account's username is someone's. A guest may not take a username, nor a look-alike of
one: ``Ann`` with a Cyrillic ``А``, ``Bob`` with a zero, ``ann`` in full-width letters. Two texts look alike when
their *skeletons* are equal, as in Unicode's UTS #39 (section 4, "Confusable Detection"): each character is replaced
by a representative of its class of confusable characters, here taken from the ``confusable_homoglyphs`` package's
copy of Unicode's ``confusables.txt`` (characters joined into one class when any of them is listed as confusable
with another; the class's ASCII member represents it). The skeleton is also case-folded and NFKC-normalised, and
``rn`` reads as ``m`` and ``0`` as ``o``, as they do in most fonts.

Each account keeps its username's skeleton (``accounts.skeleton``), so the check is one indexed look-up.

Rules: issue #44 "People who come back", item 9 (a guest may not take an account's name or a look-alike).
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources

from sqlalchemy import select
from sqlalchemy.orm import Session

from meeple.server.db import AccountRow

SKELETON_LENGTH = 40
"""Characters of a stored skeleton at most (a 24-character username's skeleton is no longer)."""
_EXTRA = (("rn", "m"), ("0", "o"))
"""Look-alikes across classes that most fonts draw alike (``confusables.txt`` maps ``m`` to ``rn`` and ``0`` to
``O``)."""


@functools.cache
def _classes() -> dict[str, str]:
    """Each confusable character's representative (the ASCII member of its class, else its smallest character)."""
    data = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(x, x) != root:
            parent[x], x = root, parent[x]
        return root

    def key(ch: str) -> tuple[bool, str]:
        return (not ch.isascii(), ch)

    for char, glyphs in data.items():
        for glyph in glyphs:
            other = glyph["c"].replace("\u200e", "").replace("\u200f", "")
            if len(char) == 1 and len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    first, second = sorted((a, b), key=key)
                    parent[second] = first
    return {ch: find(ch) for ch in parent}


def skeleton(text: str) -> str:
    """The form under which ``text`` and its look-alikes are equal (UTS #39's skeleton, case-folded)."""
    classes = _classes()
    normal = unicodedata.normalize("NFKC", text)
    mapped = "".join(classes.get(ch, ch) for ch in normal).casefold()  # "I" is "l" before it is folded to "i"
    mapped = "".join(classes.get(ch, ch) for ch in mapped)
    for seen, read in _EXTRA:
        mapped = mapped.replace(seen, read)
    return mapped[:SKELETON_LENGTH]


def look_alike(s: Session, name: str) -> str | None:
    """The username of a live account that ``name`` equals or looks like (same :func:`skeleton`), or None."""
    if len(name) > 3 * SKELETON_LENGTH:
        return None
    return s.scalar(
        select(AccountRow.username)
        .where(AccountRow.skeleton == skeleton(name), AccountRow.deleted.is_(None))
        .order_by(AccountRow.id)
        .limit(1)
    )
