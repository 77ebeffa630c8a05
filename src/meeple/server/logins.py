"""Who may try a password, how often, and whose password work comes first: the log-in gate and device cookies.

Per-address quotas do not stop guesses spread over many addresses, and a flood of log-ins from many addresses
filled the one password queue (6 of 8 genuine log-ins answered 503). Three rules, after OWASP's "device cookies"
and lichess (10 password checks per username per 10 minutes):

- **Per username, across addresses.** A log-in at one username from a device it does not know costs one of
  ``--logins-per-username`` attempts per 10 minutes (any address, any outcome, the username existing or not); past
  them such attempts get 429 before any password work. Guesses at one account no longer grow with the attacker's
  addresses.
- **Known devices.** A successful log-in (or sign-up, or password change) sets ``meeple_device``: a cookie signed
  with the server's key (itsdangerous; the key is in the database, shared by every process) naming the account and
  its password's generation. A log-in carrying it for that username is not held back by the per-username limit (an
  attacker failing at the account cannot lock its owner out), and its password check waits in its own lane
  (:mod:`.hashing`), so a flood from other addresses cannot starve it. A device that fails too often loses that
  trust for the window (the same number of failures), so a stolen device cookie is no free pass for guessing. A
  password change gives the account's passwords a new generation: older device cookies no longer count.
- **Per address** (as before): ``--logins-per-minute`` attempts, and three times as many failures per hour for one
  username from one address.

Rules: issue 41, item 4 (the log-in queue); OWASP "Slow Down Online Guessing Attacks with Device Cookies".
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection
from starlette.responses import Response

from meeple.i18n import M
from meeple.server.db import AccountRow, KeyRow
from meeple.server.quotas import Limiter, QuotaExceeded, failure_key

DEVICE_COOKIE = "meeple_device"
DEVICE_DAYS = 365
"""How long a device stays known after its last successful log-in."""
MAX_COOKIE = 256
"""A device cookie longer than this is not looked at (a real one has about 100 characters)."""
KEY_NAME = "device-cookies"
"""The row of ``server_keys`` that holds the device cookies' signing key."""


def server_key(engine: Engine, name: str = KEY_NAME) -> str:
    """The server's secret ``name`` (``server_keys``), created at first use; every process reads the same one."""
    with Session(engine) as s:
        found = s.get(KeyRow, name)
        if found is not None:
            return found.value
    try:
        with Session(engine) as s, s.begin():
            s.add(KeyRow(name=name, value=secrets.token_urlsafe(48), created=time.time()))
    except IntegrityError:
        pass  # another process created it first: read its own
    with Session(engine) as s:
        row = s.get(KeyRow, name)
        assert row is not None
        return row.value


def password_generation(password_hash: str) -> str:
    """A short digest of an account's stored password hash: it changes with every new password (a new salt)."""
    return hashlib.sha256(password_hash.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Attempt:
    """A log-in attempt let through: its username and address, and the known device it came from (None: unknown)."""

    username: str
    address: str
    device: str | None = None

    @property
    def trusted(self) -> bool:
        """Whether it came from a device the account logged in from before (its own password lane)."""
        return self.device is not None


class LoginGate:
    """The log-in rules of one process (see the module's docstring).

    Args:
        engine: the migrated database (the signing key, the accounts' password generations).
        limiter: the process's quotas (``login``, ``login_user``, ``login_username`` and ``login_device`` windows).
    """

    def __init__(self, engine: Engine, limiter: Limiter) -> None:
        self.engine = engine
        self.limiter = limiter
        self._signer = URLSafeTimedSerializer(server_key(engine), salt="meeple-device")

    async def begin(self, connection: HTTPConnection, username: str, address: str) -> Attempt:
        """Let a log-in attempt at ``username`` from ``address`` through, or refuse it.

        Raises:
            QuotaExceeded: past the address's attempts, its failures at this username, or (from an unknown device)
                the username's attempts across addresses.
        """
        self.limiter.hit("login", address, "log-in attempts")
        wait = self.limiter.blocked("login_user", failure_key(username, address))
        if wait is not None:
            text = M("too many failed log-ins for this username; try again in {seconds} s", seconds=wait)
            raise QuotaExceeded(
                f"too many failed log-ins for this username; try again in {wait} s", wait, "login", text
            )
        cookie = connection.cookies.get(DEVICE_COOKIE)
        device = await asyncio.to_thread(self.known_device, username, cookie) if cookie else None
        if device is not None and self.limiter.blocked("login_device", device) is None:
            return Attempt(username, address, device)
        try:
            self.limiter.hit("login_username", username.lower(), "log-in attempts at this username")
        except QuotaExceeded as exc:
            exc.text = M(
                "too many log-in attempts at this username from devices it has not logged in from; try again in"
                " {seconds} s, or from a device where you logged in before",
                seconds=exc.retry_after,
            )
            raise
        return Attempt(username, address)

    def failed(self, attempt: Attempt) -> None:
        """Count a failed attempt (a wrong password or an unknown username).

        Raises:
            QuotaExceeded: this failure passed the address's failures at this username (as before).
        """
        if attempt.device is not None:
            self.limiter.count("login_device", attempt.device)
        key = failure_key(attempt.username, attempt.address)
        self.limiter.hit("login_user", key, "failed log-ins for this username")

    def known_device(self, username: str, cookie: str | None) -> str | None:
        """The device id in ``cookie`` if it is a device cookie of ``username``'s account and password, else None.

        Blocking (one indexed read of the account): call it in a thread.
        """
        if not cookie or len(cookie) > MAX_COOKIE:
            return None
        try:
            account_id, generation, device = self._signer.loads(cookie, max_age=DEVICE_DAYS * 86_400)
        except (BadSignature, ValueError, TypeError):
            return None
        with Session(self.engine) as s:
            row = s.execute(
                select(AccountRow.id, AccountRow.password_hash).where(
                    AccountRow.username_key == username.lower(), AccountRow.deleted.is_(None)
                )
            ).first()
        if row is None or row[0] != account_id or password_generation(row[1]) != generation:
            return None
        return str(device)

    def device_cookie(self, account_id: int, device: str | None = None) -> str:
        """A new device cookie for ``account_id`` at its current password (``device``: keep the device's id).

        Blocking (one read): call it in a thread.
        """
        with Session(self.engine) as s:
            digest = s.scalar(select(AccountRow.password_hash).where(AccountRow.id == account_id)) or ""
        return str(self._signer.dumps([account_id, password_generation(digest), device or secrets.token_urlsafe(12)]))


def set_device_cookie(response: Response, secure: bool, value: str) -> None:
    """Set the device cookie on ``response``: HttpOnly, SameSite=Strict, the whole site, :data:`DEVICE_DAYS` days."""
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=DEVICE_DAYS * 86_400,
        path="/",
        httponly=True,
        samesite="strict",
        secure=secure,
    )


async def remember_device(gate: LoginGate | None, response: Response, secure: bool, account_id: int) -> None:
    """Set a fresh device cookie for ``account_id`` on ``response`` (after a successful log-in, sign-up or change).

    ``gate``: the server's log-in gate (nothing is set without one).
    """
    if gate is not None:
        set_device_cookie(response, secure, await asyncio.to_thread(gate.device_cookie, account_id))
