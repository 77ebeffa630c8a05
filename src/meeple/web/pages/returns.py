"""Coming back to the page one came from after logging in (issue #44, item 9).

The e-mail of a turn links to the table; on a device that is not logged in the table page is a spectator's, and
offers to log in. The lobby's log-in and sign-up forms then carry ``next`` (the table's path) and answer 303 to it
instead of the lobby. Only a path of this site is followed (:func:`safe_next`): never another site (no open
redirect), never a scheme, a ``//host`` or a backslash.

Rules: issue #44 "People who come back", item 9; docs/web.md.
"""

from __future__ import annotations

import re

from meeple.server.live import LiveTable

MAX_NEXT = 200
"""Characters of a ``next`` path at most."""
_PATH = re.compile(r"/(?:[A-Za-z0-9_-]+(?:/[A-Za-z0-9_.-]+)*)?")
"""A path of this site: ``/``, ``/tables/ID``, ``/me/tables``... (letters, digits, ``_ - .``; no ``//``, no query)."""


def safe_next(value: str | None) -> str | None:
    """``value`` if it is a path of this site to come back to after logging in, else None."""
    if not value or len(value) > MAX_NEXT or not _PATH.fullmatch(value):
        return None
    return value


def log_in_to_play(live: LiveTable, seat: int | None, logged_in: bool) -> bool:
    """Whether a table page offers to log in: a spectator not logged in, at a table of accounts not over yet."""
    return seat is None and not logged_in and not live.over and any(s.account for s in live.seats)
