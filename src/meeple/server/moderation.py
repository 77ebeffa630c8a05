"""Reports and the operator's actions: ban, unban, delete a chat line, a reset link (issue #44, item 6).

- **Reports.** A logged-in player reports an account (``POST /api/reports {username, table?, reason}``): the
  reason (1-:data:`MAX_REASON` characters, cleaned like a chat line) and, with a table, its latest
  :data:`REPORT_CHAT` chat lines (public to everyone at the table: no hand, seed or token) are stored for the
  operator, who lists them with ``meeple admin reports``.
- **Ban.** ``meeple admin ban USER``: the account cannot log in (its sessions end at once: every process asks the
  database), its address (its mailbox: :func:`~meeple.server.accounts.mailbox_key`) cannot sign up or be given
  again, its seats at waiting tables open again, and every seat it holds gets a new token nobody is told (the
  revocation path of a log-out everywhere): each process drops that seat's connections when it reads the ban in the
  log (:meth:`Moderation.since`; on PostgreSQL at once through ``revoke:`` notifications), and the substitute bot
  plays its live games as for any seat whose player is away. ``unban`` lifts it.
- **Chat.** ``delete-chat TABLE LINE`` removes one stored line (pages and new connections no longer show it).
- Every action is written to ``moderation_log`` with who (``--as``, else the system user) and when.

Rules: issue #44 "People who come back", item 6; docs/server.md ("Reports and moderation").
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from meeple.i18n import M, Message
from meeple.server.accounts import AccountRefused, Accounts, account_seats, mailbox_key
from meeple.server.db import (
    AccountRow,
    BannedMailboxRow,
    ChatRow,
    LinkRow,
    ModerationRow,
    ReportRow,
    SeatRow,
    SessionRow,
    TableRow,
    is_postgresql,
)
from meeple.server.people import clean_text
from meeple.server.tables import NOTIFY_CHANNEL, REVOKE_PREFIX, hash_token

log = logging.getLogger("meeple.server")

MAX_REASON = 500
"""A report's reason, in characters (once cleaned)."""
REPORT_CHAT = 100
"""Chat lines of the table a report keeps (the newest)."""
NO_REASON = M("a report needs a reason: at least one visible character, at most {n}")


@dataclass(frozen=True)
class Report:
    """A stored report as the operator reads it."""

    id: int
    created: float
    reporter: str
    username: str
    table: str | None
    reason: str
    chat: list[dict[str, Any]]


class Moderation:
    """The reports and the operator's actions on the server's database.

    Args:
        accounts: the accounts (their engine and clock).
    """

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.engine = accounts.engine
        self.postgres = is_postgresql(self.engine)

    @property
    def now(self) -> Callable[[], float]:
        """The accounts' clock (Unix seconds)."""
        return self.accounts.now

    # ------------------------------------------------------------------ reports
    def report(self, reporter_id: int, username: str, table: str | None, reason: str) -> int:
        """Store a report of ``username`` by ``reporter_id`` (with ``table``'s latest chat lines); return its id.

        Raises:
            AccountRefused: 422, an empty or too long reason, or reporting oneself; 404, no such account or table.
        """
        text = clean_text(reason)
        if not text or len(text) > MAX_REASON:
            raise AccountRefused(422, Message(NO_REASON.msgid, {"n": MAX_REASON}))
        target = self.accounts.by_username(username)
        if target is None:
            raise AccountRefused(404, M("no account named {name}", name=username[:40]))
        if target.id == reporter_id:
            raise AccountRefused(422, M("you cannot report yourself"))
        with Session(self.engine) as s, s.begin():
            chat: list[dict[str, Any]] = []
            if table is not None:
                if s.get(TableRow, table) is None:
                    raise AccountRefused(404, M("no table {table}", table=table[:40]))
                chat = _table_chat(s, table)
            row = ReportRow(
                reporter_id=reporter_id,
                account_id=target.id,
                table_id=table,
                reason=text,
                chat=chat,
                created=self.now(),
            )
            s.add(row)
            s.flush()
            log.info("report %d: account %d reported account %d", row.id, reporter_id, target.id)
            return int(row.id)

    def reports(self, limit: int = 50, after: int = 0) -> list[Report]:
        """The newest ``limit`` reports with an id above ``after``, newest first."""
        reporter = AccountRow.__table__.alias("reporter")
        with Session(self.engine) as s:
            rows = s.execute(
                select(ReportRow, AccountRow.username, reporter.c.username)
                .join(AccountRow, AccountRow.id == ReportRow.account_id)
                .join(reporter, reporter.c.id == ReportRow.reporter_id)
                .where(ReportRow.id > after)
                .order_by(ReportRow.id.desc())
                .limit(limit)
            )
            return [Report(r.id, r.created, by, name, r.table_id, r.reason, list(r.chat)) for r, name, by in rows]

    # ------------------------------------------------------------------ the operator's actions
    def ban(self, username: str, actor: str, reason: str = "") -> list[tuple[str, int]]:
        """Ban ``username``: no log-in, no sign-up with its address, its waiting seats open again, its seats revoked.

        Returns the ``(table, seat)`` pairs it held (their connections are dropped by each process: :meth:`since`).

        Raises:
            AccountRefused: 404, no live account of that name; 409, it is banned already.
        """
        account = self._account(username)
        now = self.now()
        with Session(self.engine) as s, s.begin():
            row = s.get(AccountRow, account.id)
            if row is None or row.banned is not None:
                raise AccountRefused(409, M("{name} is banned already", name=account.username))
            row.banned = now
            if row.email:
                key = mailbox_key(row.email)
                if s.get(BannedMailboxRow, key) is None:
                    s.add(BannedMailboxRow(address_key=key, account_id=account.id, at=now))
            s.execute(delete(SessionRow).where(SessionRow.account_id == account.id))
            s.execute(delete(LinkRow).where(LinkRow.account_id == account.id))
            seats = account_seats(s, account.id)
            self._revoke(s, seats)
            self._reopen_waiting(s, account.id)
            self._log(s, actor, "ban", account.username, reason, account.id)
        return seats

    def unban(self, username: str, actor: str, reason: str = "") -> None:
        """Lift ``username``'s ban (its address may be given again; it logs in with its password).

        Raises:
            AccountRefused: 404, no live account of that name; 409, it is not banned.
        """
        account = self._account(username)
        with Session(self.engine) as s, s.begin():
            row = s.get(AccountRow, account.id)
            if row is None or row.banned is None:
                raise AccountRefused(409, M("{name} is not banned", name=account.username))
            row.banned = None
            s.execute(delete(BannedMailboxRow).where(BannedMailboxRow.account_id == account.id))
            self._log(s, actor, "unban", account.username, reason, account.id)

    def delete_chat(self, table: str, line: int, actor: str, reason: str = "") -> str:
        """Delete chat line ``line`` of ``table``; return its text (for the operator's confirmation).

        Raises:
            AccountRefused: 404, no such line at that table.
        """
        with Session(self.engine) as s, s.begin():
            row = s.scalars(select(ChatRow).where(ChatRow.id == line, ChatRow.table_id == table)).first()
            if row is None:
                raise AccountRefused(404, M("table {table} has no chat line {line}", table=table[:40], line=line))
            text = row.text
            s.delete(row)
            self._log(s, actor, "delete-chat", f"{table}#{line}", reason, None)
        return text

    def log_reset(self, username: str, actor: str) -> None:
        """Write the operator's reset link for ``username`` (``meeple admin reset-password``) to the log."""
        account = self._account(username)
        with Session(self.engine) as s, s.begin():
            self._log(s, actor, "reset-password", account.username, "", account.id)

    def actions(self, limit: int = 50) -> list[dict[str, Any]]:
        """The newest ``limit`` actions of the operator, newest first: ``{id, at, actor, action, target, detail}``."""
        with Session(self.engine) as s:
            rows = s.scalars(select(ModerationRow).order_by(ModerationRow.id.desc()).limit(limit))
            return [
                {"id": r.id, "at": r.at, "actor": r.actor, "action": r.action, "target": r.target, "detail": r.detail}
                for r in rows
            ]

    def last_action(self) -> int:
        """The id of the newest action (0: none): a process reads the bans after it (:meth:`since`)."""
        with Session(self.engine) as s:
            return int(s.scalar(select(func.max(ModerationRow.id))) or 0)

    def since(self, after: int) -> tuple[int, list[str]]:
        """The bans written after action ``after``: ``(the newest action's id, the banned usernames)``."""
        with Session(self.engine) as s:
            rows = list(
                s.execute(
                    select(ModerationRow.id, ModerationRow.action, ModerationRow.target)
                    .where(ModerationRow.id > after)
                    .order_by(ModerationRow.id)
                )
            )
        newest = max([after, *(int(r.id) for r in rows)])
        return newest, [str(r.target) for r in rows if r.action == "ban"]

    # ------------------------------------------------------------------ helpers
    def _account(self, username: str) -> Any:
        account = self.accounts.by_username(username)
        if account is None:
            raise AccountRefused(404, M("no account named {name}", name=username[:40]))
        return account

    def _log(self, s: Session, actor: str, action: str, target: str, detail: str, account_id: int | None) -> None:
        s.add(
            ModerationRow(
                at=self.now(),
                actor=actor[:64],
                action=action,
                target=target[:80],
                detail=clean_text(detail)[:500],
                account_id=account_id,
            )
        )
        log.info("moderation: %s %s %s", actor[:64], action, target[:80])

    def _revoke(self, s: Session, seats: list[tuple[str, int]]) -> None:
        """New tokens nobody is told for ``seats``; on PostgreSQL every process drops their connections at once."""
        for table_id, seat in seats:
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(token_hash=hash_token(secrets.token_urlsafe(24)))
            )
            if self.postgres:
                s.execute(select(func.pg_notify(NOTIFY_CHANNEL, f"{REVOKE_PREFIX}{table_id} {seat}")))

    def _reopen_waiting(self, s: Session, account_id: int) -> None:
        """The account's seats at waiting tables become open seats again (the tables are told to refresh)."""
        waiting = list(
            s.execute(
                select(SeatRow.table_id, SeatRow.seat)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.account_id == account_id, TableRow.status == "waiting")
            )
        )
        for table_id, seat in waiting:
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(player="open", name=None, token_hash=None, joined=None, account_id=None, arrived=None)
            )
        for table_id in sorted({t for t, _ in waiting}):
            s.execute(update(TableRow).where(TableRow.id == table_id).values(rev=TableRow.rev + 1))
            if self.postgres:
                s.execute(select(func.pg_notify(NOTIFY_CHANNEL, table_id)))


def _table_chat(s: Session, table: str) -> list[dict[str, Any]]:
    """The newest :data:`REPORT_CHAT` lines of ``table``, oldest first, each with its seat's public name."""
    rows = list(
        s.execute(
            select(ChatRow.id, ChatRow.seat, ChatRow.text, ChatRow.at)
            .where(ChatRow.table_id == table)
            .order_by(ChatRow.id.desc())
            .limit(REPORT_CHAT)
        )
    )
    names = {
        seat: (username or name)
        for seat, name, username in s.execute(
            select(SeatRow.seat, SeatRow.name, AccountRow.username)
            .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
            .where(SeatRow.table_id == table)
        )
    }
    return [
        {"line": i, "seat": seat, "name": names.get(seat) if seat is not None else None, "text": text, "time": at}
        for i, seat, text, at in reversed(rows)
    ]
