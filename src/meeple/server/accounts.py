"""Accounts and log-in sessions: optional, for people who want a history and ratings (guests keep playing).

An account is a username (3-24 characters ``[A-Za-z0-9_.-]``, unique whatever its case) and an argon2id password
hash (argon2-cffi, RFC 9106's low-memory profile). Logging in opens a *session*: a random token (``secrets``) sent
as the ``meeple_session`` cookie (HttpOnly, SameSite=Lax, Secure over https) and stored as its SHA-256 only.

A seat taken while logged in (``POST /api/tables``, ``/join``, ``/api/quickmatch``) is *bound* to the account
(``seats.account_id``): the account's session opens it on any device, without the seat's token. Requests that
change something are refused from another site's pages by the Origin check (:mod:`meeple.server.hardening`), so a
session cookie sent from a foreign page does not act.

Log-in attempts are counted per address and per username (:class:`~meeple.server.quotas.Limiter`); a wrong
password and an unknown username get the same 401 after the same work (an unknown username verifies a dummy hash).
Deleting an account unbinds and anonymises its seats (its name leaves every game and record), drops its sessions
and ratings, and keeps a tombstone row with no username, password or e-mail.

Rules: issue #34 "People at the table" (item 5).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.headerregistry import Address
from typing import Annotated

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, model_validator
from sqlalchemy import Connection, Engine, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meeple.core.errors import MeepleError
from meeple.i18n import M, Message
from meeple.server.db import AccountRow, BannedMailboxRow, FollowRow, RatingHistoryRow, RatingRow, SeatRow, SessionRow
from meeple.server.names import skeleton
from meeple.server.passwords import MIN_SCORE, weakness

USERNAME_CHARS = re.compile(r"[A-Za-z0-9_.-]+")
"""The characters of a username (ASCII: no look-alike letters)."""
MIN_USERNAME, MAX_USERNAME = 3, 24
MIN_PASSWORD, MAX_PASSWORD = 8, 128
"""Password length bounds, in characters (the upper one keeps argon2's work bounded)."""
MAX_EMAIL = 254
"""RFC 5321's longest forward path, in characters."""
SESSION_COOKIE = "meeple_session"
SESSION_DAYS = 30
"""A session ends this many days after it was opened (log in again then)."""
SEEN_EVERY = 300.0
"""Seconds between two writes of a session's ``last_seen`` (not one write per request)."""
PRESENCE_EVERY = 60.0
"""Seconds between two writes of an account's ``seen_at`` (its presence: :mod:`meeple.server.friends`)."""
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_EMAIL = re.compile(
    rf"(?=[^@]{{1,64}}@){_ATOM}(?:\.{_ATOM})*"
    r"@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+"
)
"""``local@domain.tld``: the local part an RFC 5322 dot-atom (no quotes, commas, brackets, spaces), 1-64 characters."""


def check_username(value: str) -> str:
    """``value`` if it is a valid username.

    Raises:
        ValueError: it has fewer than 3 or more than 24 characters, or one outside ``A-Z a-z 0-9 _ . -``.
    """
    if not MIN_USERNAME <= len(value) <= MAX_USERNAME or not USERNAME_CHARS.fullmatch(value):
        raise ValueError(
            f"a username has {MIN_USERNAME} to {MAX_USERNAME} characters, each a letter A-Z or a-z, a digit, '_', '.'"
            " or '-'"
        )
    return value


def check_email(value: str | None) -> str | None:
    """``value`` (None: no address) if it is one plain e-mail address, which is where a turn e-mail then goes.

    The local part is an RFC 5322 §3.2.3 dot-atom (letters, digits, ``!#$%&'*+/=?^_`{|}~-`` and single dots: no
    quotes, commas, semicolons, brackets or spaces), without an RFC 2047 encoded word (``=?``); the domain is
    ``name.tld`` in ASCII. The standard library must read back exactly one address, equal to ``value``: so an
    address can never fan out to several recipients or be delivered elsewhere than it is stored.

    Raises:
        ValueError: anything else.
    """
    if value is None:
        return None
    if not _EMAIL.fullmatch(value) or "=?" in value or not _one_address(value):
        raise ValueError(f"an e-mail address looks like name@example.org (at most {MAX_EMAIL} characters)")
    return value


def _one_address(value: str) -> bool:
    """Whether :mod:`email.headerregistry` parses ``value`` as exactly one address, written the same."""
    try:
        return Address(addr_spec=value).addr_spec == value
    except (ValueError, IndexError, TypeError):
        return False


Username = Annotated[str, StringConstraints(max_length=4 * MAX_USERNAME), AfterValidator(check_username)]
Password = Annotated[str, StringConstraints(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)]
Email = Annotated[str, StringConstraints(max_length=MAX_EMAIL), AfterValidator(check_email)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewAccount(_Strict):
    """``POST /api/accounts``: sign up."""

    username: Username = Field(description=f"{MIN_USERNAME}-{MAX_USERNAME} characters: A-Z a-z 0-9 _ . -")
    password: Password = Field(description=f"{MIN_PASSWORD}-{MAX_PASSWORD} characters")
    email: Email | None = Field(default=None, description="optional: where turn reminders go")


class LogIn(_Strict):
    """``POST /api/session``: log in."""

    username: Annotated[str, StringConstraints(min_length=1, max_length=4 * MAX_USERNAME)]
    password: Annotated[str, StringConstraints(min_length=1, max_length=MAX_PASSWORD)]


class MeUpdate(_Strict):
    """``PATCH /api/me``: change the account's e-mail address (null removes it)."""

    email: Email | None


class DeleteMe(_Strict):
    """``DELETE /api/me``: the password again, so that a borrowed session cannot delete the account."""

    password: Annotated[str, StringConstraints(min_length=1, max_length=MAX_PASSWORD)]


class ResetAsk(_Strict):
    """``POST /api/password-reset``: the account's username or its (verified) e-mail address, one of them."""

    username: Annotated[str, StringConstraints(min_length=1, max_length=4 * MAX_USERNAME)] | None = None
    email: Annotated[str, StringConstraints(min_length=3, max_length=MAX_EMAIL)] | None = None

    @model_validator(mode="after")
    def _one(self) -> ResetAsk:
        if (self.username is None) == (self.email is None):
            raise ValueError("give the account's username or its e-mail address (one of them)")
        return self


class NewPassword(_Strict):
    """``POST /api/password-reset/{token}``: the new password."""

    password: Password = Field(description=f"{MIN_PASSWORD}-{MAX_PASSWORD} characters")


class PasswordChange(_Strict):
    """``POST /api/me/password``: the current password again, and the new one."""

    old: Annotated[str, StringConstraints(min_length=1, max_length=MAX_PASSWORD)]
    new: Password = Field(description=f"{MIN_PASSWORD}-{MAX_PASSWORD} characters")


@dataclass(frozen=True)
class Account:
    """A live account as the server sees it (never its password hash)."""

    id: int
    username: str
    email: str | None
    created: float
    verified: bool = False
    """Whether ``email`` was verified (its owner opened the link sent to it): only then do e-mails go to it."""
    banned: bool = False
    """Whether the operator banned it (``meeple admin ban``): it cannot log in."""


class AccountRefused(MeepleError):
    """An account cannot be created or changed; ``status`` is the HTTP status (401, 409)."""

    def __init__(self, status: int, message: Message) -> None:
        super().__init__(message)
        self.status = status


def hash_session(token: str) -> str:
    """The stored form of a session token (SHA-256: the token is random, so no slow hash is needed)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def deleted_username(account_id: int) -> str:
    """The username a deleted account's tombstone keeps (not a valid username: nobody logs in with it)."""
    return f"~deleted-{account_id}"


def account_seats(conn: Connection | Session, account_id: int) -> list[tuple[str, int]]:
    """The ``(table id, seat)`` pairs bound to ``account_id``, oldest table first.

    ``conn`` is any open SQLAlchemy connection or session (the caller's transaction).
    """
    stmt = (
        select(SeatRow.table_id, SeatRow.seat)
        .where(SeatRow.account_id == account_id)
        .order_by(SeatRow.table_id, SeatRow.seat)
    )
    return [(str(t), int(s)) for t, s in conn.execute(stmt)]


class Accounts:
    """The accounts and sessions in the server's database.

    Args:
        engine: the migrated engine.
        now: the clock (Unix seconds), replaceable in tests.
        hasher: argon2's hasher (default: argon2-cffi's RFC 9106 low-memory profile).
        min_score: the lowest zxcvbn score of a new password (``--min-password-score``; :mod:`.passwords`).
    """

    def __init__(
        self,
        engine: Engine,
        now: Callable[[], float] = time.time,
        hasher: PasswordHasher | None = None,
        min_score: int = MIN_SCORE,
    ) -> None:
        self.engine = engine
        self.now = now
        self.min_score = min_score
        self.hasher = hasher or PasswordHasher()
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))  # verified for unknown usernames: same work

    # ------------------------------------------------------------------ accounts
    def create(self, username: str, password: str, email: str | None = None) -> Account:
        """Create an account (the username checked by :func:`check_username`).

        Raises:
            AccountRefused: 422, the password is too easy to guess (:func:`meeple.server.passwords.weakness`: the
                message says why); 409, the username is taken (whatever its case); 403, ``email`` is a banned
                account's (issue #44, item 6).
        """
        self.check_strength(password, username, email)
        self._check_address(email)
        digest = self.hasher.hash(password)
        row = AccountRow(
            username=username,
            username_key=username.lower(),
            skeleton=skeleton(username),
            password_hash=digest,
            email=email,
            created=self.now(),
        )
        try:
            with Session(self.engine) as s, s.begin():
                s.add(row)
                s.flush()
                return _account(row)
        except IntegrityError:
            raise AccountRefused(409, M("this username is taken")) from None

    def authenticate(self, username: str, password: str) -> Account | None:
        """The account whose username (any case) and password these are, or None; the same work either way."""
        with Session(self.engine) as s:
            row = s.scalars(
                select(AccountRow).where(AccountRow.username_key == username.lower(), AccountRow.deleted.is_(None))
            ).first()
            if row is not None:
                s.expunge(row)
        if row is None:
            _verify(self.hasher, self._dummy, password)
            return None
        if not _verify(self.hasher, row.password_hash, password):
            return None
        if self.hasher.check_needs_rehash(row.password_hash):
            with Session(self.engine) as s, s.begin():
                s.execute(
                    update(AccountRow).where(AccountRow.id == row.id).values(password_hash=self.hasher.hash(password))
                )
        return _account(row)

    def by_username(self, username: str) -> Account | None:
        """The live account of ``username`` (any case), or None."""
        with Session(self.engine) as s:
            row = s.scalars(
                select(AccountRow).where(AccountRow.username_key == username.lower(), AccountRow.deleted.is_(None))
            ).first()
            return _account(row) if row is not None else None

    def set_email(self, account_id: int, email: str | None) -> bool:
        """Set (or with None remove) the account's e-mail address; whether it changed.

        A new address is not verified (no e-mail goes to it until its link is opened: :mod:`.recovery`); the same
        address again keeps its verification.

        Raises:
            AccountRefused: 403, ``email`` is a banned account's.
        """
        self._check_address(email)
        with Session(self.engine) as s, s.begin():
            now = s.scalar(select(AccountRow.email).where(AccountRow.id == account_id))
            if now == email:
                return False
            s.execute(update(AccountRow).where(AccountRow.id == account_id).values(email=email, email_verified=None))
            return True

    def _check_address(self, email: str | None) -> None:
        with Session(self.engine) as s:
            if banned_address(s, email):
                raise AccountRefused(403, BANNED_ADDRESS)

    def is_banned(self, account_id: int) -> bool:
        """Whether the operator banned ``account_id`` (``meeple admin ban``)."""
        with Session(self.engine) as s:
            return s.scalar(select(AccountRow.banned).where(AccountRow.id == account_id)) is not None

    def delete(self, account: Account, password: str) -> list[str]:
        """Delete ``account`` if ``password`` is its own; return the tables whose seats it held.

        Its seats are unbound and lose their name (records then call them ``human``, pages "Seat N"); its sessions,
        ratings, rating history and follows (both ways) go; the row stays as a tombstone without username, password
        or e-mail.

        Raises:
            AccountRefused: 401, a wrong password.
        """
        if self.authenticate(account.username, password) is None:
            raise AccountRefused(401, M("wrong password"))
        with Session(self.engine) as s, s.begin():
            tables = sorted({t for t, _ in account_seats(s, account.id)})
            s.execute(update(SeatRow).where(SeatRow.account_id == account.id).values(account_id=None, name=None))
            s.execute(delete(SessionRow).where(SessionRow.account_id == account.id))
            s.execute(delete(RatingRow).where(RatingRow.account_id == account.id))
            s.execute(delete(RatingHistoryRow).where(RatingHistoryRow.account_id == account.id))
            mine = (FollowRow.follower_id == account.id) | (FollowRow.followee_id == account.id)
            s.execute(delete(FollowRow).where(mine))
            gone = deleted_username(account.id)
            s.execute(
                update(AccountRow)
                .where(AccountRow.id == account.id)
                .values(
                    username=gone, username_key=gone, skeleton=None, password_hash="", email=None, deleted=self.now()
                )
            )
        return tables

    def change_password(self, account: Account, old: str, new: str) -> str:
        """Set ``account``'s password to ``new`` if ``old`` is its current one; close every session; open one.

        Returns:
            The new session's token (the caller's cookie: this device stays logged in, every other one is out).

        Raises:
            AccountRefused: 422, ``new`` is too easy to guess (checked first: nothing else is tried); 401, a wrong
                ``old`` password.
        """
        self.check_strength(new, account.username, account.email)
        if self.authenticate(account.username, old) is None:
            raise AccountRefused(401, M("wrong password"))
        digest = self.hasher.hash(new)
        with Session(self.engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account.id).values(password_hash=digest))
            s.execute(delete(SessionRow).where(SessionRow.account_id == account.id))
        return self.open_session(account.id)

    def check_strength(self, password: str, username: str, email: str | None) -> None:
        """Refuse ``password`` if it is too easy to guess for this account.

        Raises:
            AccountRefused: 422, the message says why (:func:`meeple.server.passwords.weakness`).
        """
        weak = weakness(password, [username, email or ""], self.min_score)
        if weak is not None:
            raise AccountRefused(422, weak)

    # ------------------------------------------------------------------ sessions
    def open_session(self, account_id: int) -> str:
        """Open a session for ``account_id``; return its token (shown once: the cookie's value)."""
        token = secrets.token_urlsafe(32)
        now = self.now()
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.expires < now))  # expired sessions of anyone go
            s.add(
                SessionRow(
                    token_hash=hash_session(token),
                    account_id=account_id,
                    created=now,
                    expires=now + SESSION_DAYS * 86_400,
                    last_seen=now,
                )
            )
            s.execute(update(AccountRow).where(AccountRow.id == account_id).values(seen_at=now))  # a log-in is a visit
        return token

    def account_of(self, token: str) -> Account | None:
        """The account of a live session token, or None (unknown, expired, or its account deleted)."""
        now = self.now()
        with Session(self.engine) as s:
            found = s.execute(
                select(SessionRow, AccountRow)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(
                    SessionRow.token_hash == hash_session(token),
                    AccountRow.deleted.is_(None),
                    AccountRow.banned.is_(None),
                )
            ).first()
            if found is None or found[0].expires <= now:
                return None
            session, row = found
            account = _account(row)
            stale = now - session.last_seen > SEEN_EVERY
            unseen = row.seen_at is None or now - row.seen_at > PRESENCE_EVERY
        if stale or unseen:
            with Session(self.engine) as s, s.begin():
                if stale:
                    seen = update(SessionRow).where(SessionRow.token_hash == session.token_hash)
                    s.execute(seen.values(last_seen=now))
                s.execute(update(AccountRow).where(AccountRow.id == account.id).values(seen_at=now))
        return account

    def close_sessions(self, account_id: int) -> int:
        """End every session of ``account_id`` (log out everywhere); return how many there were."""
        with Session(self.engine) as s, s.begin():
            gone = s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            return int(getattr(gone, "rowcount", 0) or 0)

    def close_session(self, token: str) -> None:
        """End a session (log out); an unknown token changes nothing."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.token_hash == hash_session(token)))


def account_row(conn: Session, account_id: int) -> AccountRow | None:
    """The row of account ``account_id`` (detached from ``conn``: readable after it closes), or None."""
    row = conn.get(AccountRow, account_id)
    if row is not None:
        conn.expunge(row)
    return row


def _account(row: AccountRow) -> Account:
    verified = row.email is not None and row.email_verified is not None
    return Account(
        id=row.id,
        username=row.username,
        email=row.email,
        created=row.created,
        verified=verified,
        banned=row.banned is not None,
    )


BANNED_ADDRESS = M("this e-mail address belongs to a banned account: give another one")
BANNED = M("this account is banned")


def banned_address(conn: Connection | Session, email: str | None) -> bool:
    """Whether ``email``'s mailbox (:func:`mailbox_key`: case and a ``+tag`` aside) is a banned account's."""
    if email is None:
        return False
    found = conn.execute(select(BannedMailboxRow.address_key).where(BannedMailboxRow.address_key == mailbox_key(email)))
    return found.first() is not None


def mailbox_key(address: str) -> str:
    """The key of the mailbox ``address`` reaches: a SHA-256 of its canonical form.

    The canonical form is lower-cased (domains are case-blind, and providers treat local parts so) and drops a
    ``+tag`` of the local part (RFC 5233 sub-addressing: ``ann+games@example.org`` reaches ``ann@example.org``), so
    that neither makes another mailbox (the daily e-mail cap, a banned account's address).
    """
    local, _at, domain = address.strip().lower().rpartition("@")
    canonical = f"{local.split('+', 1)[0] or local}@{domain}"
    return hashlib.sha256(canonical.encode("utf-8", "replace")).hexdigest()


def _verify(hasher: PasswordHasher, digest: str, password: str) -> bool:
    try:
        return bool(hasher.verify(digest, password))
    except (VerificationError, InvalidHashError):
        return False
