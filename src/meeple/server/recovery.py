"""Getting an account back: password reset by e-mail, e-mail verification, the operator's reset link (issue #44).

- **Reset.** ``request_reset(username or e-mail)`` mails each matching live account a one-time link to
  ``/reset/{token}`` (:data:`RESET_MINUTES` minutes, single use, only the SHA-256 of the token stored), if the server
  sends e-mail (``--smtp``) and the account's address is *verified*; whoever asks gets the same answer (no
  enumeration). :meth:`Recovery.reset` sets the new password (checked like any new one), ends every session, voids
  every other reset link and opens a session. Without ``--smtp`` the operator prints a link (``meeple admin
  reset-password USER``: :meth:`Recovery.reset_link`).
- **Verification.** A new or changed address is sent a link to ``/verify/{token}`` (:data:`VERIFY_HOURS` hours,
  single use, void once the address changes again); opening it and confirming marks the address verified. Turn and
  invitation e-mails go only to verified addresses (:func:`meeple.server.notify.account_addresses`), and so do
  reset links: a mistyped address must not let its mailbox's owner take the account.

The e-mails say what they are for and hold the one link, nothing of any game; they are in the account's language
(else English) and go through the turn e-mails' sender (its queue, thread and daily cap per mailbox).

Rules: issue #44 "People who come back", item 5; docs/server.md ("Password reset and e-mail verification").
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from meeple.i18n import DEFAULT_LANGUAGE, LANGUAGES, M, translator
from meeple.server.accounts import BANNED, Account, AccountRefused, Accounts, account_row
from meeple.server.db import AccountRow, LinkRow, SessionRow
from meeple.server.notify import Notifier, Outgoing
from meeple.server.quotas import Limiter, QuotaExceeded

log = logging.getLogger("meeple.server")

RESET_MINUTES = 30
"""A password-reset link lapses this many minutes after it was made."""
VERIFY_HOURS = 24
"""A verification link lapses this many hours after it was made."""
MAX_ACCOUNTS_PER_ADDRESS = 5
"""Reset e-mails one request may send when several accounts give the address asked for (the oldest first)."""
TOKEN_CHARS = 43
"""The length of a link's token (``secrets.token_urlsafe(32)``); a longer one is refused before any lookup."""
BAD_LINK = M("this link is not valid: it was used already, it expired, or it was never sent")


def hash_link(token: str) -> str:
    """The stored form of a link's token (SHA-256: the token is random, so no slow hash is needed)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class LinkInfo:
    """A valid link as its page shows it: whose account, what for, and (verification) which address."""

    username: str
    purpose: str
    email: str | None
    expires: float


class Recovery:
    """Reset and verification links of the server's accounts.

    Args:
        accounts: the accounts (their engine, clock and password rules).
        limiter: the quotas (reset e-mails per account, verification e-mails per account).
        notifier: the e-mail sender (None: the server sends no e-mail, ``--smtp`` not given).
        site: the server's public address, for the links (``--public-url``).
    """

    def __init__(self, accounts: Accounts, limiter: Limiter, notifier: Notifier | None, site: str) -> None:
        self.accounts = accounts
        self.engine = accounts.engine
        self.limiter = limiter
        self.notifier = notifier
        self.site = site.rstrip("/")

    @property
    def now(self) -> Callable[[], float]:
        """The accounts' clock (Unix seconds)."""
        return self.accounts.now

    # ------------------------------------------------------------------ links
    def _new_link(self, s: Session, account_id: int, purpose: str, email: str | None, seconds: float) -> str:
        token = secrets.token_urlsafe(32)
        now = self.now()
        s.execute(delete(LinkRow).where(LinkRow.expires < now))  # lapsed links of anyone go
        s.add(
            LinkRow(
                token_hash=hash_link(token),
                account_id=account_id,
                purpose=purpose,
                email=email,
                created=now,
                expires=now + seconds,
            )
        )
        return token

    def link(self, token: str, purpose: str) -> LinkInfo | None:
        """The live account and details of a valid ``purpose`` link (``reset`` or ``verify``), else None."""
        if not 0 < len(token) <= TOKEN_CHARS:
            return None
        with Session(self.engine) as s:
            found = s.execute(
                select(LinkRow, AccountRow)
                .join(AccountRow, AccountRow.id == LinkRow.account_id)
                .where(
                    LinkRow.token_hash == hash_link(token),
                    LinkRow.purpose == purpose,
                    LinkRow.expires > self.now(),
                    AccountRow.deleted.is_(None),
                    AccountRow.banned.is_(None),
                )
            ).first()
            if found is None:
                return None
            link, row = found
            if purpose == "verify" and link.email != row.email:
                return None  # the address changed since: this link confirms nothing
            return LinkInfo(row.username, purpose, link.email, link.expires)

    # ------------------------------------------------------------------ reset
    def request_reset(self, who: str) -> int:
        """Mail a reset link to each live, unbanned account named ``who`` (a username, or a verified address).

        Returns how many e-mails were queued (never told to the asker: the route answers 202 whatever happens).
        Nothing is sent without ``--smtp``, to an unverified address, or past :attr:`Quotas.resets_per_hour`
        e-mails to one account an hour.
        """
        if self.notifier is None:
            return 0
        live = (AccountRow.deleted.is_(None), AccountRow.banned.is_(None), AccountRow.email_verified.is_not(None))
        key = func.lower(AccountRow.email) if "@" in who else AccountRow.username_key
        with Session(self.engine) as s:
            rows = list(
                s.scalars(
                    select(AccountRow)
                    .where(key == who.lower(), *live)
                    .order_by(AccountRow.id)
                    .limit(MAX_ACCOUNTS_PER_ADDRESS)
                )
            )
        sent = 0
        for row in rows:
            try:
                self.limiter.hit("reset_mails", str(row.id), "reset e-mails")
            except QuotaExceeded:
                continue
            token = self.link_for(row.id, "reset")
            mail = self._mail(row, "reset", f"{self.site}/reset/{token}")
            sent += int(self.notifier.submit(Outgoing(mail, str(row.email), "reset")))
        return sent

    def link_for(self, account_id: int, purpose: str, email: str | None = None) -> str:
        """A new ``reset`` (:data:`RESET_MINUTES`) or ``verify`` (:data:`VERIFY_HOURS`, for ``email``) link's token."""
        seconds = RESET_MINUTES * 60 if purpose == "reset" else VERIFY_HOURS * 3600
        with Session(self.engine) as s, s.begin():
            return self._new_link(s, account_id, purpose, email, seconds)

    def reset_link(self, username: str) -> str:
        """The operator's reset link for ``username`` (``meeple admin reset-password``): the whole URL.

        Raises:
            AccountRefused: 404, no live account of that name; 403, it is banned.
        """
        account = self.accounts.by_username(username)
        if account is None:
            raise AccountRefused(404, M("no account named {name}", name=username[:40]))
        if self.accounts.is_banned(account.id):
            raise AccountRefused(403, BANNED)
        return f"{self.site}/reset/{self.link_for(account.id, 'reset')}"

    def reset(self, token: str, password: str) -> tuple[Account, str]:
        """Set a new password through a reset link; end every session; return the account and a new session's token.

        The link is used up (and every other reset link of the account voided) only when the password is accepted.

        Raises:
            AccountRefused: 404, the link is not valid (used, lapsed, never sent, its account deleted or banned);
                422, the password is too easy to guess (the message says why; the link stays valid).
        """
        info = self.link(token, "reset")
        if info is None:
            raise AccountRefused(404, BAD_LINK)
        account = self.accounts.by_username(info.username)
        if account is None:
            raise AccountRefused(404, BAD_LINK)
        self.accounts.check_strength(password, account.username, account.email)
        digest = self.accounts.hasher.hash(password)
        with Session(self.engine) as s, s.begin():
            used = s.execute(
                delete(LinkRow).where(LinkRow.token_hash == hash_link(token), LinkRow.expires > self.now())
            )
            if getattr(used, "rowcount", 0) != 1:  # another request used it meanwhile
                raise AccountRefused(404, BAD_LINK)
            s.execute(delete(LinkRow).where(LinkRow.account_id == account.id, LinkRow.purpose == "reset"))
            s.execute(update(AccountRow).where(AccountRow.id == account.id).values(password_hash=digest))
            s.execute(delete(SessionRow).where(SessionRow.account_id == account.id))
        log.info("account %s: password reset through a link", account.id)
        return account, self.accounts.open_session(account.id)

    # ------------------------------------------------------------------ verification
    def send_verification(self, account_id: int) -> bool:
        """Mail the account's address a verification link; whether one was queued.

        Nothing is sent without ``--smtp``, without an address, or to one verified already.

        Raises:
            QuotaExceeded: past :attr:`Quotas.verifications_per_hour` for this account.
        """
        if self.notifier is None:
            return False
        with Session(self.engine) as s:
            row = account_row(s, account_id)
        if row is None or row.email is None or row.email_verified is not None:
            return False
        self.limiter.hit("verifications", str(account_id), "verification e-mails")
        token = self.link_for(account_id, "verify", row.email)
        mail = self._mail(row, "verify", f"{self.site}/verify/{token}")
        return self.notifier.submit(Outgoing(mail, row.email, "verify"))

    def verify(self, token: str) -> str:
        """Mark the address a verification link was sent to as verified; return the account's username.

        Raises:
            AccountRefused: 404, the link is not valid (used, lapsed, never sent, or the address changed since).
        """
        info = self.link(token, "verify")
        if info is None:
            raise AccountRefused(404, BAD_LINK)
        with Session(self.engine) as s, s.begin():
            link = s.scalars(select(LinkRow).where(LinkRow.token_hash == hash_link(token))).first()
            if link is None:
                raise AccountRefused(404, BAD_LINK)
            s.execute(delete(LinkRow).where(LinkRow.account_id == link.account_id, LinkRow.purpose == "verify"))
            s.execute(
                update(AccountRow)
                .where(AccountRow.id == link.account_id, AccountRow.email == link.email)
                .values(email_verified=self.now())
            )
        return info.username

    # ------------------------------------------------------------------ e-mails
    def _mail(self, row: AccountRow, purpose: str, link: str) -> EmailMessage:
        """The reset or verification e-mail to ``row``'s address, in its language (else English)."""
        lang = row.lang if row.lang in LANGUAGES else DEFAULT_LANGUAGE
        reader = translator(lang)
        link = f"{link}?lang={lang}"
        if purpose == "reset":
            subject = reader.gettext("Reset your meeple password")
            body = [
                reader.gettext("Someone asked to reset the password of the account {name}.").format(name=row.username),
                "",
                reader.gettext("Choose a new password: {link}").format(link=link),
                "",
                reader.gettext("This link works once, for {minutes} minutes.").format(minutes=RESET_MINUTES),
                reader.gettext("If you did not ask for it, ignore this e-mail: your password stays as it is."),
            ]
        else:
            subject = reader.gettext("Confirm your e-mail address for meeple")
            body = [
                reader.gettext("Confirm that this address is the one of the account {name}: {link}").format(
                    name=row.username, link=link
                ),
                "",
                reader.gettext("This link works once, for {hours} hours.").format(hours=VERIFY_HOURS),
                reader.gettext("Until then no e-mail about games is sent to this address."),
            ]
        sender = self.notifier.settings.sender if self.notifier is not None else "meeple@localhost"
        message = EmailMessage()
        message["Subject"] = subject
        message["From"] = sender
        message["To"] = str(row.email)
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = make_msgid(purpose, sender.rpartition("@")[2] or None)
        message["Auto-Submitted"] = "auto-generated"
        message.set_content("\n".join(body) + "\n")
        return message
