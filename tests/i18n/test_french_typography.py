"""French punctuation (issue #43 item 8): a narrow no-break space (U+202F) before : ; ! ? and inside « », in every
French text of the catalog ("À vous de jouer :", never "À vous de jouer:" nor a breakable space before the colon).

The rendered French pages are checked by ``tests/web/test_words.py``: a template's own punctuation goes through the
catalog too ("{label}:"), so the catalog is where French spacing lives.
"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

CATALOG = Path(__file__).resolve().parents[2] / "src" / "meeple" / "locale" / "fr" / "LC_MESSAGES" / "meeple.po"
NNBSP = "\u202f"
WRONG = [
    (re.compile(r"[ \u00a0\t]+[:;!?](?=\s|$)"), "a breakable or wide space before : ; ! ?"),
    (re.compile(r"[^\s\u202f(\[«'\"][:;!?](?=\s|$)"), "no space before : ; ! ?"),
    (re.compile(r"«(?!\u202f)"), "no narrow no-break space after «"),
    (re.compile(r"(?<!\u202f)»"), "no narrow no-break space before »"),
]
"""What French typography forbids; a ``:`` inside a placeholder's format (``{margin:+d}``) or a URL is followed by no
space, so it is not a punctuation mark here."""


def french_slips(text: str) -> list[str]:
    """The punctuation slips of a French text, as ``"reason: …context…"``."""
    found = []
    for pattern, reason in WRONG:
        for match in pattern.finditer(text):
            found.append(f"{reason}: {text[max(0, match.start() - 20) : match.end() + 10]!r}")
    return found


def test_every_french_text_of_the_catalog_spaces_its_punctuation() -> None:
    with CATALOG.open("rb") as fh:
        catalog = read_po(fh, locale="fr")
    slips = []
    for message in catalog:
        if not message.id:
            continue
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            slips += french_slips(str(text or ""))
    assert not slips, f"{len(slips)} slips, e.g. " + "\n".join(slips[:15])


def test_the_check_finds_each_slip() -> None:
    assert french_slips("À vous de jouer:") and french_slips("À vous de jouer :") and french_slips("Tour ;")
    assert french_slips("« Partie rapide »") and french_slips("Quoi\u00a0?")
    assert not french_slips(f"À vous de jouer{NNBSP}: {{seat}}{NNBSP}; «{NNBSP}Partie rapide{NNBSP}»{NNBSP}!")
    assert not french_slips("marge {margin:+d}, 2:30, https://example.org/?lang=fr")
