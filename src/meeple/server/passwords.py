"""How guessable a new password is: zxcvbn's estimate, in this process (no online look-up), and why in words.

A password chosen at sign-up or at a password change must score at least ``--min-password-score`` (default 3) on
zxcvbn's scale (Dropbox's estimator; the maintained Python port, ``zxcvbn`` on PyPI): 0 is within 10**3 guesses, 1
within 10**6, 2 within 10**8 ("protection from unthrottled online attacks"), 3 within 10**10 (moderate protection
against an offline attack on a slow hash such as our argon2id), 4 beyond. zxcvbn knows the most common passwords of
public leaks, English words, names and surnames, keyboard rows, repeats, sequences and dates; the username, the
e-mail address and this site's words are added to its dictionaries for each check, so that ``alice2024`` is weak for
Alice. A refusal says why, in the reader's language (:data:`REASONS`).

Rules: issue 41, item 4 (refusal of too-common and guessable passwords); NIST SP 800-63B §5.1.1.2 (check new
passwords against lists of common and context-specific ones; no composition rules).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import Any

from zxcvbn import zxcvbn

from meeple.i18n import N_, M, Message

MIN_SCORE = 3
"""The lowest zxcvbn score a new password may have (``--min-password-score``)."""
CHECKED_LENGTH = 72
"""The characters zxcvbn looks at (its own maximum): a password's first 72 characters must be strong enough."""
SITE_WORDS = ("meeple", "citadels", "citadelles", "capitol", "caprice", "capital", "lux")
"""Words anyone would try first at this site."""
REASONS = {
    "This is a top-10 common password.": N_("it is one of the 10 most common passwords"),
    "This is a top-100 common password.": N_("it is one of the 100 most common passwords"),
    "This is a very common password.": N_("it is a very common password"),
    "This is similar to a commonly used password.": N_("it is close to a commonly used password"),
    "A word by itself is easy to guess.": N_("a word by itself is easy to guess"),
    "Names and surnames by themselves are easy to guess.": N_("names and surnames by themselves are easy to guess"),
    "Common names and surnames are easy to guess.": N_("common names and surnames are easy to guess"),
    "Straight rows of keys are easy to guess.": N_("straight rows of keys are easy to guess"),
    "Short keyboard patterns are easy to guess.": N_("short keyboard patterns are easy to guess"),
    'Repeats like "aaa" are easy to guess.': N_('repeats like "aaa" are easy to guess'),
    'Repeats like "abcabcabc" are only slightly harder to guess than "abc".': N_(
        'repeats like "abcabcabc" are hardly harder to guess than "abc"'
    ),
    'Sequences like "abc" or "6543" are easy to guess.': N_('sequences like "abc" or "6543" are easy to guess'),
    "Recent years are easy to guess.": N_("recent years are easy to guess"),
    "Dates are often easy to guess.": N_("dates are easy to guess"),
}
"""zxcvbn's warnings (English, as its ``feedback`` gives them) and ours, which the catalogs translate."""
PERSONAL = N_("it holds your username, your e-mail address or this site's name")
"""The reason when the weakest part of a password is the user's own name or address (zxcvbn gives none)."""
GENERAL = N_("it is made of common words, names or patterns")
"""The reason when zxcvbn names none."""
SHORT = N_("it is too short to be safe whatever its characters")
"""The reason for a short password zxcvbn names nothing in: with the default score, 8 characters are never enough."""
SHORT_LENGTH = 10
"""Below this length a password zxcvbn finds nothing common in is called short."""

_LOCK = threading.Lock()
"""zxcvbn keeps each call's user inputs in a module-level dictionary: one check at a time."""


def weakness(password: str, user_inputs: Iterable[str] = (), min_score: int = MIN_SCORE) -> Message | None:
    """Why ``password`` is too easy to guess, or None if it scores at least ``min_score`` (0 accepts anything).

    ``user_inputs``: what the account already tells an attacker (its username, its e-mail address and the address's
    parts). A check costs 1-100 ms of a core: call it on a password thread.
    """
    if min_score <= 0:
        return None
    words = [w for w in user_inputs if w] + list(SITE_WORDS)
    for given in list(words):
        if "@" in given:
            words.extend(part for part in given.replace("@", ".").split(".") if len(part) >= 3)
    with _LOCK:
        result = zxcvbn(password[:CHECKED_LENGTH], user_inputs=words)
    if result["score"] >= min_score:
        return None
    return M(
        "this password is too easy to guess: {reason}. Choose a longer one: a few unrelated words are easy to"
        " remember and hard to guess",
        reason=Message(_reason(result, len(password)), {}),
    )


def _reason(result: Mapping[str, Any], length: int) -> str:
    """The English msgid of why zxcvbn found a password of ``length`` characters weak."""
    sequence = result.get("sequence")
    if isinstance(sequence, list) and sequence:
        longest = max(sequence, key=lambda match: len(str(match.get("token", ""))))
        if longest.get("dictionary_name") == "user_inputs":
            return PERSONAL
    feedback = result.get("feedback")
    warning = feedback.get("warning", "") if isinstance(feedback, dict) else ""
    if not warning and length < SHORT_LENGTH:
        return SHORT
    return REASONS.get(str(warning), GENERAL)
