"""A request sent twice does its work once: "Play now" clicked twice seats the browser once (issue #44, item 9).

The lobby's "Play now" form carries a random key drawn when the page was rendered; the API's ``POST /api/quickmatch``
takes an ``Idempotency-Key`` header. :class:`Once` remembers the result of each key (with the client's address,
account and request body: :func:`request_key`) for
:data:`KEPT_SECONDS`: the same key again — a double click, a resent form — waits for the first request's work and
gets its result (the same seat, the same token: the requester's own), never a second seat or table. A key is
:data:`MAX_KEY` characters of ``A-Z a-z 0-9 _ -`` at most (another is refused 422); at most :data:`MAX_KEYS` are
kept (the oldest go first). The memory is this process's: two processes behind a load balancer could each do the
work of one double click (docs/decisions.md).

Rules: issue #44 "People who come back", item 9 ("clicking 'Play now' twice opens two tables").
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from meeple.core.errors import MeepleError
from meeple.i18n import M
from meeple.server.accounts import Account

T = TypeVar("T")

KEPT_SECONDS = 600.0
"""How long a key's result is kept."""
MAX_KEYS = 10_000
"""Keys kept at most (each a few hundred bytes)."""
MAX_KEY = 64
"""Characters of a key at most."""
_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


class KeyRefused(MeepleError, ValueError):
    """A request key that is not 1-64 characters ``A-Z a-z 0-9 _ -`` (422)."""


def check_key(key: str) -> str:
    """``key`` if it is a well-formed request key.

    Raises:
        KeyRefused: any other text.
    """
    if not _KEY.fullmatch(key):
        raise KeyRefused(M("a request key has 1 to {n} characters: letters, digits, _ or -", n=MAX_KEY))
    return key


def request_key(key: str, address: str, account: Account | None, body: dict[str, Any]) -> str:
    """What :class:`Once` remembers a keyed request by: the key, the client's address, its account and its body.

    Two people who send the same key (copied from another's page) with another name, account or address each get
    their own seat: a result is only ever given back to the request that could have made it.

    Raises:
        KeyRefused: a malformed ``key`` (:func:`check_key`).
    """
    fields = json.dumps(body, sort_keys=True, default=str)
    who = account.id if account is not None else None
    digest = hashlib.sha256(f"{address}\n{who}\n{fields}".encode()).hexdigest()
    return f"{check_key(key)} {digest}"


class Once:
    """The results of keyed requests, so that a request sent again gets the first one's result."""

    def __init__(self, seconds: float = KEPT_SECONDS, most: int = MAX_KEYS) -> None:
        self.seconds = seconds
        self.most = most
        self._done: OrderedDict[str, tuple[float, asyncio.Future[Any]]] = OrderedDict()

    async def run(self, key: str | None, work: Callable[[], Awaitable[T]]) -> T:
        """``work()``, or the result (or error) of the work already started under ``key`` (None: no key, always work).

        A failed work is not kept: the same key may try again.
        """
        if key is None:
            return await work()
        now = time.monotonic()
        while self._done and (len(self._done) > self.most or next(iter(self._done.values()))[0] < now - self.seconds):
            self._done.popitem(last=False)
        found = self._done.get(key)
        if found is not None:
            result: T = await asyncio.shield(found[1])
            return result
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._done[key] = (now, future)
        try:
            value = await work()
        except BaseException as exc:
            self._done.pop(key, None)
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning when nobody else waited
            raise
        future.set_result(value)
        return value
