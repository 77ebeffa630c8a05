"""A table's rules and ending in words, for the lobby, the table page and "My tables".

Whoever joins a table sees its clock, how long an away player's turn waits before a bot plays it, which bot that is,
and whether it is rated (a rated table plays by the server's rules: an away or timed-out player forfeits). An
aborted table says why; a table whose bots wait for their creator's bot budget says until when.

Rules: issue 41, items 3 ("an aborted table must say so to whoever opens it later") and 7 ("rated tables get the
server's rules, shown in the lobby and on the table").
"""

from __future__ import annotations

import contextlib
import math
import time
from datetime import UTC, datetime
from typing import Any

from meeple.i18n import Translator
from meeple.server.clock import clock_view
from meeple.server.endings import ABORTS
from meeple.server.live import LiveTable
from meeple.server.rated import ClaimRefused, RatedRules, claim_time
from meeple.server.services import maybe_services
from meeple.web.boards import BOT_LEVELS


def span(seconds: float, reader: Translator) -> str:
    """A length of time in words: ``45 s``, ``2 min``, ``1 h 30 min``, ``3 days`` (translated)."""
    left = max(0, round(seconds))
    if left >= 86_400 and left % 3_600 == 0:
        days, hours = divmod(left // 3_600, 24)
        text = reader.ngettext("{n} day", "{n} days", days).format(n=days)
        return text if not hours else reader.gettext("{days} {hours} h").format(days=text, hours=hours)
    if left >= 3_600:
        hours, minutes = divmod(left // 60, 60)
        return reader.gettext("{h} h {m} min").format(h=hours, m=minutes) if minutes else f"{hours} h"
    if left >= 60:
        minutes, rest = divmod(left, 60)
        return reader.gettext("{m} min {s} s").format(m=minutes, s=rest) if rest else f"{minutes} min"
    return f"{left} s"


def clock_words(clock: dict[str, Any] | None, reader: Translator) -> str:
    """A clock in words: ``10 min + 5 s a move``, ``2 min per move``, ``3 days per move``, or ``no clock``."""
    if clock is None:
        return reader.gettext("no clock")
    spec = clock["spec"]
    initial, increment, per_move = spec.get("initial"), spec.get("increment") or 0, spec.get("per_move")
    if initial is None:
        return reader.gettext("{time} per move").format(time=span(float(per_move), reader))
    text = span(float(initial), reader)
    if increment:
        text = reader.gettext("{bank} + {increment} a move").format(bank=text, increment=span(float(increment), reader))
    if per_move is not None:
        text = reader.gettext("{clock}, at most {time} per move").format(clock=text, time=span(float(per_move), reader))
    return text


def bot_words(substitute: str, reader: Translator) -> str:
    """The substitute bot in words: ``the medium bot`` (another spec: ``a bot``)."""
    level = BOT_LEVELS.get(substitute)
    if level is None:
        return reader.gettext("a bot")
    return reader.gettext("the {level} bot").format(level=reader.gettext(level))


def rules_words(
    clock: dict[str, Any] | None, grace: float | None, substitute: str, rated: bool, reader: Translator
) -> list[str]:
    """The rules a player accepts by sitting at a table, one short phrase each (for a line joined by `` · ``).

    Args:
        clock: the table's clock (``clock_view`` or the stored state), or None.
        grace: seconds an away player's turn waits before the substitute plays it (None: it waits for them).
        substitute: the substitute's spec.
        rated: a rated table (a player out of time or away forfeits).
        reader: the page's language.
    """
    bot = bot_words(substitute, reader)
    if rated:
        if grace is None:
            return [clock_words(clock, reader), reader.gettext("out of time: forfeit, {bot} plays on").format(bot=bot)]
        away = reader.gettext("out of time or {time} away: forfeit, {bot} plays on")
        return [clock_words(clock, reader), away.format(time=span(grace, reader), bot=bot)]
    if clock is not None and grace is not None:
        text = reader.gettext("{bot} plays a turn out of time, or after {time} away")
    elif clock is not None:
        text = reader.gettext("{bot} plays a turn out of time")
    elif grace is not None:
        text = reader.gettext("{bot} plays after {time} away")
    else:
        text = reader.gettext("an away player's turn waits for them")
    return [clock_words(clock, reader), text.format(bot=bot, time=span(grace or 0, reader))]


def ending_words(status: str, ended: str | None, reader: Translator) -> str | None:
    """Why a table was aborted, in words (None: it was not)."""
    if status != "aborted":
        return None
    message = ABORTS.get(ended or "")
    return reader.message(message) if message is not None else reader.gettext("aborted")


def board_extras(
    live: LiveTable | None, seat: int | None, rated: RatedRules | None, reader: Translator
) -> dict[str, Any]:
    """What the board shows of the table itself: its rules, why it was aborted, forfeits, a claim, a bots' wait.

    ``claim_at``: when the reader (a seat) may claim against the seat to move (Unix seconds; None: no claim can come
    of waiting). ``bots_wait``: until when the table's bots wait for their creator's bot budget (None: they do not).
    """
    none: dict[str, Any] = {"claim_at": None, "claim_in": 0, "bots_wait": None, "bots_wait_at": None}
    if live is None:
        return {"rules": [], "ending": None, "forfeits": [], **none}
    now = time.time()
    claim_at = None
    if rated is not None and seat is not None:
        with contextlib.suppress(ClaimRefused):
            claim_at = claim_time(live, seat, rated, now)
    wait = live.bots_wait if live.bots_wait is not None and live.bots_wait > now else None
    return {
        "rules": rules_words(clock_view(live.clock), live.grace, live.substitute, live.rated, reader),
        "ending": ending_words(live.status, live.ended, reader),
        "forfeits": [s.forfeit is not None for s in live.seats],
        "claim_at": claim_at,
        "claim_in": max(0, math.ceil(claim_at - now)) if claim_at is not None else 0,
        "bots_wait": wait,
        "bots_wait_at": datetime.fromtimestamp(wait, UTC).strftime("%H:%M:%S UTC") if wait is not None else None,
    }


def rated_words(request: Any, reader: Translator) -> list[str]:
    """The server's rules of rated tables in words (the lobby's rated boxes), from the app behind ``request``."""
    services = maybe_services(request.app)
    rules = services.tables.rated if services is not None else RatedRules()
    clock = {"spec": rules.clock.model_dump()}
    return rules_words(clock, rules.grace, rules.substitute, True, reader)
