"""E-mail a player when it becomes their turn at a turn-based table and they are away (issue #34 item 7).

Only when the operator configured SMTP (``meeple serve --smtp URL``): otherwise nothing is decided, queued or sent.

- **When.** A turn of a turn-based table (:func:`meeple.server.clock.is_turn_based`) starts for a human seat that no
  connection holds (presence). The decision is taken once per turn, in the transaction that starts it, and stored in
  the table's clock (``clock["mailed"]``: the start of the turn decided), so at most one e-mail goes per table, seat
  and turn, whichever process commits the turn and however often it restarts.
- **How.** :class:`Notifier` sends through the standard library's :mod:`smtplib` in a worker thread of its own: the
  event loop only puts a :class:`TurnNotice` in a bounded queue (:data:`QUEUE`; a full queue drops the notice and
  says so in the log). A failure to send is logged (one line) and counted (``meeple_emails{outcome}``), never
  raised.
- **What.** :func:`compose` writes whose turn it is, at which table (the game and its players' names), until
  when, and one link back to the table's page (no token: the player's browser holds the seat's cookie, a logged-in
  account its session), in the recipient's language (else English). Nothing of the game's hidden information: the
  notice is built from the seats' public names and the clock only (``tests/server/test_leaks.py``). A player is
  named by their account's username; a guest is "a guest", never the text they chose (anyone may type anything as
  a guest's name, and the e-mail goes to someone else's mailbox).
- **How many.** At most ``--mails-per-day`` e-mails go to one recipient address per UTC day, whichever accounts give
  it (addresses are not confirmed: anyone may type someone else's) and whichever process sends: the count is in the
  database (``mail_days``). An address counts as its mailbox (:func:`mailbox_key`: case and a ``+tag`` do not make
  another one).

Rules: issue #34 "People at the table", item 7 (turn-based play); issue #41, item 8 (the cap per recipient
address; guests' names).
"""

from __future__ import annotations

import logging
import queue
import smtplib
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

from sqlalchemy import Engine, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meeple.core.registry import game_class
from meeple.i18n import DEFAULT_LANGUAGE, LANGUAGES, M, Translator, translator
from meeple.server.accounts import check_email, mailbox_key
from meeple.server.clock import is_turn_based, turn_deadline
from meeple.server.db import AccountRow, MailDayRow, SeatRow
from meeple.server.live import LiveTable
from meeple.server.people import display_name

log = logging.getLogger("meeple.server")

QUEUE = 1_000
"""E-mails waiting to be sent at most; past it a notice is dropped (and logged)."""
SMTP_TIMEOUT = 20.0
"""Seconds an SMTP connection or command may take before the e-mail counts as failed."""
SCHEMES: dict[str, tuple[Literal["plain", "starttls", "tls"], int]] = {
    "smtp": ("plain", 25),
    "smtp+starttls": ("starttls", 587),
    "smtps": ("tls", 465),
}
"""``--smtp`` URL schemes: the connection's security and its default port."""
MAILS_PER_DAY = 50
"""Turn e-mails one recipient address may be sent per UTC day by default (``--mails-per-day``)."""
GUEST = M("a guest")
"""How an e-mail names a seat that no account holds (never the name its guest chose)."""


@dataclass(frozen=True)
class SmtpSettings:
    """Where and how e-mails are sent (``meeple serve --smtp URL --mail-from ADDRESS``).

    Attributes:
        host: the SMTP server.
        port: its port.
        security: ``plain``, ``starttls`` (upgrade with STARTTLS, certificate checked) or ``tls`` (implicit TLS).
        username: the login, or None for no authentication.
        password: its password.
        sender: the ``From`` address.
        mails_per_day: turn e-mails one recipient address may be sent per UTC day (``--mails-per-day``), whichever
            accounts give it; past it nothing is sent to it until the next day (counted ``capped``), so that an
            address nobody confirmed cannot be flooded through the server.
    """

    host: str
    port: int
    security: Literal["plain", "starttls", "tls"]
    username: str | None
    password: str | None
    sender: str
    mails_per_day: int = MAILS_PER_DAY

    @classmethod
    def from_url(cls, url: str, sender: str | None = None) -> SmtpSettings:
        """Parse ``smtp://[USER[:PASSWORD]@]HOST[:PORT]`` (also ``smtp+starttls://``, ``smtps://``).

        Args:
            url: the URL; user and password percent-encoded.
            sender: the ``From`` address (default: ``meeple@`` this machine's name).

        Raises:
            ValueError: another scheme, no host, a bad port or sender (the message names what is allowed).
        """
        parts = urlsplit(url)
        if parts.scheme not in SCHEMES:
            allowed = ", ".join(f"{s}://" for s in SCHEMES)
            raise ValueError(f"--smtp takes a URL starting with {allowed}, e.g. smtps://user:password@host:465")
        security, default_port = SCHEMES[parts.scheme]
        try:
            port = parts.port or default_port
        except ValueError:
            raise ValueError("--smtp: the port is a number from 1 to 65535") from None
        if not parts.hostname:
            raise ValueError("--smtp: the URL names no host (smtp://host:port)")
        sender = sender or f"meeple@{socket.getfqdn()}"
        if "@" not in sender or any(c in sender for c in "\r\n<>"):
            raise ValueError("--mail-from is an e-mail address (name@host)")
        username = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else None
        return cls(parts.hostname, port, security, username, password, sender)


@dataclass(frozen=True)
class Recipient:
    """Where a seat's e-mails go: an address, the language to write in (None: English) and the account's id.

    The e-mail goes to ``address`` only (the SMTP envelope's one recipient), whatever its ``To`` header says.
    """

    address: str
    lang: str | None = None
    account: int | None = None


@dataclass(frozen=True)
class TurnNotice:
    """It became ``seat``'s turn at a turn-based table while nobody held the seat: public facts only.

    Attributes:
        table: the table id.
        game: the game's registered name.
        seat: the seat whose turn it is.
        seats: each seat's ``(player, name)`` as created and joined (public: the lobby shows them).
        deadline: when the turn runs out (Unix seconds), after which the substitute bot plays it.
        turn: when the turn started (Unix seconds): with ``table`` and ``seat`` it names the turn.
        accounts: each seat's account's username, or None (a guest, a bot, an open seat); missing ones are None.
    """

    table: str
    game: str
    seat: int
    seats: tuple[tuple[str, str | None], ...]
    deadline: float
    turn: float
    accounts: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class Outgoing:
    """An e-mail other than a turn's (a password reset, a verification link): its message and its one recipient.

    ``kind`` names it in the log (never the address in full, never the message: it holds a one-time link).
    """

    message: EmailMessage
    address: str
    kind: str


@dataclass(frozen=True)
class InvitationNotice:
    """An account was invited by name to a table while it was away (issue #44, item 2): public facts only.

    Attributes:
        table: the table id.
        game: the game's registered name.
        account: the invited account's id (its address is looked up when the e-mail is sent).
        by: the username of the table's creator, who invited them.
    """

    table: str
    game: str
    account: int
    by: str | None


Notice = TurnNotice | InvitationNotice
"""What the notifier sends: a turn e-mail or an invitation e-mail."""


def account_recipient(engine: Engine, account_id: int) -> Recipient | None:
    """Where ``account_id``'s e-mails go: its address and language (None: no verified address, or a deleted account)."""
    stmt = select(AccountRow.email, AccountRow.lang).where(
        AccountRow.id == account_id, AccountRow.deleted.is_(None), AccountRow.email_verified.is_not(None)
    )
    with engine.connect() as conn:
        found = conn.execute(stmt).first()
    if found is None or not found.email:
        return None
    return Recipient(found.email, found.lang, account_id)


def compose_invitation(notice: InvitationNotice, recipient: Recipient, sender: str, site: str) -> EmailMessage:
    """The e-mail of an invitation to ``recipient``, in their language: who invited them, to which game, one link."""
    lang = recipient.lang if recipient.lang in LANGUAGES else DEFAULT_LANGUAGE
    reader = translator(lang)
    game = reader.gettext(game_class(notice.game).title)
    by = notice.by or reader.message(GUEST)
    message = EmailMessage()
    message["Subject"] = reader.gettext("{name} invites you to a table of {game}").format(name=by, game=game)
    message["From"] = sender
    message["To"] = recipient.address
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid("invitation", sender.rpartition("@")[2] or None)
    message["Auto-Submitted"] = "auto-generated"
    body = [
        reader.gettext("{name} invites you to play {game}. A seat is kept for you.").format(name=by, game=game),
        "",
        reader.gettext("Take it, or decline, in My tables: {link}").format(
            link=f"{site.rstrip('/')}/me/tables?lang={lang}"
        ),
        "",
        reader.gettext("This e-mail was sent because you were invited by name while you were away."),
    ]
    message.set_content("\n".join(body) + "\n")
    return message


Addresses = Callable[[str, int], Recipient | None]
"""``(table, seat) -> Recipient | None``: where a seat's e-mails go (None: nowhere; a guest has no address)."""


def account_addresses(engine: Engine) -> Addresses:
    """Where a seat's e-mails go: the e-mail address and language of the account the seat is bound to.

    A guest's seat, an account without an address or whose address is not verified (issue #44, item 5: its owner
    has not opened the verification link), and a deleted account get none.

    Args:
        engine: the server's database.
    """

    def lookup(table: str, seat: int) -> Recipient | None:
        stmt = (
            select(AccountRow.email, AccountRow.lang, AccountRow.id)
            .join(SeatRow, SeatRow.account_id == AccountRow.id)
            .where(
                SeatRow.table_id == table,
                SeatRow.seat == seat,
                AccountRow.deleted.is_(None),
                AccountRow.email_verified.is_not(None),
            )
        )
        with engine.connect() as conn:
            found = conn.execute(stmt).first()
        if found is None or not found.email:
            return None
        return Recipient(found.email, found.lang, found.id)

    return lookup


def remember_lang(engine: Engine, table: str, seat: int, lang: str) -> None:
    """Note ``lang`` as the language of the account bound to ``seat`` (its next e-mails are in it); a guest: nothing.

    Called when a seat's WebSocket opens (its negotiated language). One statement, which writes only a change.
    """
    account = select(SeatRow.account_id).where(SeatRow.table_id == table, SeatRow.seat == seat).scalar_subquery()
    stmt = (
        update(AccountRow)
        .where(AccountRow.id == account, or_(AccountRow.lang.is_(None), AccountRow.lang != lang))
        .values(lang=lang)
    )
    with engine.begin() as conn:
        conn.execute(stmt)


def turn_notice(live: LiveTable) -> TurnNotice | None:
    """Decide, once per turn, whether the running turn's player gets an e-mail; None if not (or decided already).

    Called in the transaction of every change of the table (``TableService``): the first change of a turn decides,
    and marks the turn decided in the table's clock (``clock["mailed"]``), which that transaction stores. A turn is
    mailed when its seat is human, played by its human, and has no connection (presence) as the turn starts.

    Args:
        live: the table, as the transaction changed it (its clock is changed in place).
    """
    clock = live.clock
    if clock is None or live.status != "live" or not is_turn_based(clock):
        return None
    seat, started = clock.get("turn_seat"), clock.get("turn_started")
    if seat is None or started is None or clock.get("mailed") == started:
        return None
    clock["mailed"] = started
    state = live.seats[seat]
    deadline = turn_deadline(clock)
    if not state.is_human or state.bot_played or state.connected or deadline is None:
        return None
    seats = tuple((s.player, s.name) for s in live.seats)
    accounts = tuple(s.account for s in live.seats)
    return TurnNotice(live.id, live.game, seat, seats, deadline, float(started), accounts)


def compose(notice: TurnNotice, recipient: Recipient, sender: str, site: str) -> EmailMessage:
    """The e-mail of ``notice`` to ``recipient``, in their language (else English).

    Args:
        notice: whose turn at which table.
        recipient: the address and language.
        sender: the ``From`` address.
        site: the server's public address (``--public-url``), for the one link back to the table.
    """
    lang = recipient.lang if recipient.lang in LANGUAGES else DEFAULT_LANGUAGE
    reader = translator(lang)
    names = [_mail_name(notice, s, reader) for s in range(len(notice.seats))]
    game = reader.gettext(game_class(notice.game).title)
    others = ", ".join(n for s, n in enumerate(names) if s != notice.seat)
    link = f"{site.rstrip('/')}/tables/{notice.table}?lang={lang}"
    until = _when(notice.deadline, reader)
    message = EmailMessage()
    message["Subject"] = reader.gettext("Your turn at {game}").format(game=game)
    message["From"] = sender
    message["To"] = recipient.address
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid("turn", sender.rpartition("@")[2] or None)
    message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies
    body = [
        reader.gettext("{name}, it is your turn at the {game} table with {others}.").format(
            name=names[notice.seat], game=game, others=others
        ),
        "",
        reader.gettext("Play your move: {link}").format(link=link),
        "",
        reader.gettext("You have until {time}; then a bot plays this turn for you.").format(time=until),
        "",
        reader.gettext("This e-mail was sent because it became your turn while you were away from the table."),
    ]
    message.set_content("\n".join(body) + "\n")
    return message


def _mail_name(notice: TurnNotice, seat: int, reader: Translator) -> str:
    """How an e-mail names ``seat``: its account's username, a bot's level, "open seat", else "a guest".

    A guest's chosen name is never written into an e-mail: it is any text anyone typed, and the e-mail reaches a
    mailbox that is not theirs (issue #41, item 8).
    """
    account = notice.accounts[seat] if seat < len(notice.accounts) else None
    if account:
        return account
    player = notice.seats[seat][0]
    if player == "human":
        return reader.message(GUEST)
    return display_name(player, None, seat, reader)


class MailCounts:
    """E-mails sent per recipient mailbox and UTC day, in the database: shared by every process, kept over restarts.

    Args:
        engine: the server's database (its ``mail_days`` table).
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def take(self, key: str, day: str, cap: int) -> bool:
        """Count one more e-mail to mailbox ``key`` on ``day``; False (nothing counted) if ``cap`` were passed.

        One transaction on the mailbox's row (locked: two processes never both take the last one). Two first
        e-mails of a mailbox inserting its row at once: the second sees the first's row and tries again.
        """
        for _attempt in range(3):
            try:
                with Session(self.engine) as s, s.begin():
                    row = s.scalars(select(MailDayRow).where(MailDayRow.address_key == key).with_for_update()).first()
                    if row is None:
                        s.add(MailDayRow(address_key=key, day=day, sent=1))
                        return True
                    if row.day != day:
                        row.day, row.sent = day, 1
                        return True
                    if row.sent >= cap:
                        return False
                    row.sent += 1
                    return True
            except IntegrityError:
                continue
        return False


class MemoryCounts:
    """:class:`MailCounts` in this process's memory (a notifier without a database: tests, tools)."""

    def __init__(self) -> None:
        self.days: dict[str, tuple[str, int]] = {}

    def take(self, key: str, day: str, cap: int) -> bool:
        """As :meth:`MailCounts.take`."""
        seen, sent = self.days.get(key, (day, 0))
        sent = sent if seen == day else 0
        if sent >= cap:
            return False
        self.days[key] = (day, sent + 1)
        return True


def _when(moment: float, reader: Translator) -> str:
    """A deadline as a reader reads it: ``2026-11-28 15:04 UTC`` (UTC: the server knows no one's time zone)."""
    stamp = datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M")
    return reader.gettext("{time} UTC").format(time=stamp)


class Notifier:
    """Sends turn e-mails from a bounded queue in a worker thread (never in the event loop).

    Args:
        settings: the SMTP server and the sender.
        addresses: where a seat's e-mails go (an account's address; None: nowhere).
        site: the server's public address, for the link back to the table.
        count: called with each e-mail's outcome (``sent``, ``failed``, ``dropped``, ``no_address``, ``capped``,
            ``bad_address``: a stored address that is not one plain address, never sent to): the metric.
        size: the queue's bound.
        counts: the e-mails sent per mailbox and day (:class:`MailCounts`: the database's, shared by the processes;
            default: this process's memory).
        recipient: where an account's invitation e-mails go (:func:`account_recipient`; None: none are sent).
    """

    def __init__(
        self,
        settings: SmtpSettings,
        addresses: Addresses,
        site: str,
        count: Callable[[str], Any] | None = None,
        size: int = QUEUE,
        counts: MailCounts | MemoryCounts | None = None,
        recipient: Callable[[int], Recipient | None] | None = None,
    ) -> None:
        self.settings = settings
        self.addresses = addresses
        self.site = site
        self.count = count or (lambda outcome: None)
        self.queue: queue.Queue[Notice | Outgoing | None] = queue.Queue(maxsize=size)
        self.thread: threading.Thread | None = None
        self.counts = counts if counts is not None else MemoryCounts()
        """E-mails sent per recipient mailbox and UTC day (:meth:`_within_day`)."""
        self.now: Callable[[], float] = time.time
        """The clock (Unix seconds) whose UTC day the cap counts."""
        self.recipient = recipient
        """Where an account's invitation e-mails go (None: none are sent)."""

    def start(self) -> None:
        """Start the worker thread (a daemon: it never holds the process up)."""
        self.thread = threading.Thread(target=self._run, name="meeple-mail", daemon=True)
        self.thread.start()

    def stop(self, seconds: float = 5.0) -> None:
        """Let the worker finish the e-mail under way (at most ``seconds``); the notices still queued are dropped."""
        if self.thread is None:
            return
        while True:
            try:
                self.queue.get_nowait()
            except queue.Empty:
                break
        try:
            self.queue.put(None, timeout=seconds)
        except queue.Full:
            return
        self.thread.join(seconds)

    def submit(self, notice: Notice | Outgoing) -> bool:
        """Queue ``notice`` without waiting; False (logged, counted ``dropped``) if the queue is full."""
        try:
            self.queue.put_nowait(notice)
        except queue.Full:
            log.warning("an e-mail (%s) was dropped: %d e-mails wait", type(notice).__name__, QUEUE)
            self.count("dropped")
            return False
        return True

    def _run(self) -> None:
        while (notice := self.queue.get()) is not None:
            if isinstance(notice, Outgoing):
                self.deliver_mail(notice)
            else:
                self.deliver(notice)

    def deliver_mail(self, mail: Outgoing) -> str:
        """Send an e-mail of :mod:`.recovery` now (the worker thread), within the mailbox's daily cap; never raises."""
        try:
            if not _plain(mail.address):
                outcome = "bad_address"
            elif not self._within_day(Recipient(mail.address)):
                log.warning("%s e-mail to %s not sent: daily cap reached", mail.kind, _masked(mail.address))
                outcome = "capped"
            else:
                self.send(mail.message, mail.address)
                outcome = "sent"
        except Exception as exc:  # noqa: BLE001 - a failed e-mail is logged, never raised
            log.warning("%s e-mail to %s not sent: %s", mail.kind, _masked(mail.address), _one_line(exc))
            outcome = "failed"
        self.count(outcome)
        return outcome

    def deliver(self, notice: Notice) -> str:
        """Look the address up and send the e-mail now (the worker thread); returns the outcome, never raises."""
        if isinstance(notice, InvitationNotice):
            return self.invite(notice)
        try:
            recipient = self.addresses(notice.table, notice.seat)
            if recipient is None:
                outcome = "no_address"
            elif not _plain(recipient.address):
                log.warning(
                    "turn e-mail for table %s seat %s not sent: not one plain address", notice.table, notice.seat
                )
                outcome = "bad_address"
            elif not self._within_day(recipient):
                log.warning("turn e-mail for table %s seat %s not sent: daily cap reached", notice.table, notice.seat)
                outcome = "capped"
            else:
                self.send(compose(notice, recipient, self.settings.sender, self.site), recipient.address)
                outcome = "sent"
        except Exception as exc:  # noqa: BLE001 - a failed e-mail is logged, never raised
            log.warning("turn e-mail for table %s seat %s not sent: %s", notice.table, notice.seat, _one_line(exc))
            outcome = "failed"
        self.count(outcome)
        return outcome

    def invite(self, notice: InvitationNotice) -> str:
        """Send an invitation e-mail now (the worker thread), within the recipient's daily cap; the outcome."""
        try:
            recipient = self.recipient(notice.account) if self.recipient is not None else None
            if recipient is None:
                outcome = "no_address"
            elif not _plain(recipient.address):
                outcome = "bad_address"
            elif not self._within_day(recipient):
                outcome = "capped"
            else:
                self.send(compose_invitation(notice, recipient, self.settings.sender, self.site), recipient.address)
                outcome = "sent"
        except Exception as exc:  # noqa: BLE001 - a failed e-mail is logged, never raised
            log.warning("invitation e-mail for table %s not sent: %s", notice.table, _one_line(exc))
            outcome = "failed"
        self.count(outcome)
        return outcome

    def _within_day(self, recipient: Recipient) -> bool:
        """Count one e-mail to ``recipient``'s mailbox today (UTC); False (nothing counted) past ``mails_per_day``.

        Per recipient address (:func:`mailbox_key`), not per account: two accounts giving one address share its cap.
        """
        day = datetime.fromtimestamp(self.now(), UTC).strftime("%Y-%m-%d")
        return self.counts.take(mailbox_key(recipient.address), day, self.settings.mails_per_day)

    def send(self, message: EmailMessage, address: str) -> None:
        """Send one e-mail through the SMTP server (a connection of its own; STARTTLS or TLS as configured).

        Args:
            message: the e-mail.
            address: its one envelope recipient (``RCPT TO``), the stored address: never read from the headers.

        Raises:
            OSError: the server cannot be reached or refused the e-mail (``smtplib.SMTPException`` included).
        """
        s = self.settings
        started = time.monotonic()
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if s.security == "tls":
            smtp = smtplib.SMTP_SSL(s.host, s.port, timeout=SMTP_TIMEOUT, context=context)
        else:
            smtp = smtplib.SMTP(s.host, s.port, timeout=SMTP_TIMEOUT)
        with smtp:
            if s.security == "starttls":
                smtp.starttls(context=context)
            if s.username is not None:
                smtp.login(s.username, s.password or "")
            smtp.send_message(message, to_addrs=[address])
        log.info("e-mail sent to %s in %.2f s", _masked(address), time.monotonic() - started)


def _plain(address: str) -> bool:
    """Whether ``address`` passes :func:`meeple.server.accounts.check_email`.

    One stored before the check was strict may not: smtplib would read ``a,b@x.org`` as the envelope recipient ``a``.
    """
    try:
        check_email(address)
    except ValueError:
        return False
    return True


def _masked(address: str) -> str:
    """An address as the log shows it: ``a***@example.org`` (logs are read by more people than the mail)."""
    local, _at, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"


def _one_line(exc: BaseException) -> str:
    text = str(exc).replace("\n", " ").strip()
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__
