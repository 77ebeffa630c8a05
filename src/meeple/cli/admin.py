"""``meeple admin``: the operator's tools on a server's database (issue #44, item 6).

``meeple admin [--db URL] [--as NAME] COMMAND``: ``reports`` (the players' reports, newest first, with the chat
lines they keep), ``ban USER``, ``unban USER``, ``delete-chat TABLE LINE``, ``reset-password USER`` (prints a
one-time link: for a server without ``--smtp``) and ``log`` (the actions taken). Each action is written to the
database's ``moderation_log`` with who (``--as``, else the system user) and when. The running server applies a ban
within seconds (:mod:`meeple.server.moderation`).

Rules: issue #44 "People who come back", items 5 and 6; docs/server.md ("Reports and moderation").
"""

from __future__ import annotations

import datetime
import getpass
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from meeple.cli.common import fail, stdout_console
from meeple.core.errors import MeepleError
from meeple.i18n import _, tr
from meeple.server.accounts import AccountRefused, Accounts
from meeple.server.moderation import Moderation
from meeple.server.quotas import Limiter, Quotas
from meeple.server.recovery import Recovery

admin = typer.Typer(
    name="admin",
    help="The operator's tools: reports, bans, chat lines, reset links (on the server's database).",
    no_args_is_help=True,
)

DbOption = Annotated[
    str | None,
    typer.Option("--db", envvar="MEEPLE_DB", help="The server's database URL (default: meeple serve's SQLite file)."),
]
ActorOption = Annotated[
    str | None, typer.Option("--as", help="Who acts, as the log writes it (default: the system user).")
]
ReasonOption = Annotated[str, typer.Option("--reason", help="Why (written to the log, at most 500 characters).")]


@contextmanager
def _moderation(db: str | None) -> Iterator[tuple[Moderation, Recovery]]:
    """The moderation and recovery services of the database ``db`` (migrated first)."""
    from meeple.cli.serve import default_db
    from meeple.server.db import make_engine, migrate

    try:
        engine = make_engine(db or default_db())
    except MeepleError as exc:
        fail(exc)
    try:
        migrate(engine)
        accounts = Accounts(engine)
        yield Moderation(accounts), Recovery(accounts, Limiter(Quotas(rate_limits=False)), None, "")
    finally:
        engine.dispose()


def _actor(name: str | None) -> str:
    return (name or getpass.getuser() or "operator")[:64]


def _when(moment: float) -> str:
    return datetime.datetime.fromtimestamp(moment, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


@admin.command("reports")
def reports(
    db: DbOption = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=1000, help="Reports shown at most.")] = 20,
) -> None:
    """List the players' reports, newest first, with the table's chat lines each keeps."""
    console = stdout_console()
    with _moderation(db) as (moderation, _recovery):
        found = moderation.reports(limit)
    if not found:
        console.print(escape(_("No reports.")))
        return
    for report in found:
        head = _("Report {id}, {when}: {reporter} reports {username}").format(
            id=report.id, when=_when(report.created), reporter=report.reporter, username=report.username
        )
        console.print(f"[bold]{escape(head)}[/]", soft_wrap=True)
        if report.table:
            console.print(escape(_("  table {table}").format(table=report.table)), soft_wrap=True)
        console.print(escape(_("  reason: {reason}").format(reason=report.reason)), soft_wrap=True)
        if report.chat:
            table = Table(_("line"), _("seat"), _("name"), _("text"))
            for line in report.chat:
                seat = "-" if line["seat"] is None else str(line["seat"])
                table.add_row(str(line["line"]), seat, escape(str(line["name"] or "")), escape(line["text"]))
            console.print(table)


@admin.command("ban")
def ban(user: str, db: DbOption = None, actor: ActorOption = None, reason: ReasonOption = "") -> None:
    """Ban USER: logged out everywhere, no log-in, no sign-up with its e-mail address, its open seats freed."""
    with _moderation(db) as (moderation, _recovery):
        try:
            seats = moderation.ban(user, _actor(actor), reason)
        except AccountRefused as exc:
            fail(tr(exc.message))
    stdout_console().print(escape(_("{user} is banned ({n} seats revoked).").format(user=user, n=len(seats))))


@admin.command("unban")
def unban(user: str, db: DbOption = None, actor: ActorOption = None, reason: ReasonOption = "") -> None:
    """Lift USER's ban."""
    with _moderation(db) as (moderation, _recovery):
        try:
            moderation.unban(user, _actor(actor), reason)
        except AccountRefused as exc:
            fail(tr(exc.message))
    stdout_console().print(escape(_("{user} is no longer banned.").format(user=user)))


@admin.command("delete-chat")
def delete_chat(
    table: str, line: int, db: DbOption = None, actor: ActorOption = None, reason: ReasonOption = ""
) -> None:
    """Delete chat line LINE of TABLE (the line numbers ``meeple admin reports`` shows)."""
    with _moderation(db) as (moderation, _recovery):
        try:
            text = moderation.delete_chat(table, line, _actor(actor), reason)
        except AccountRefused as exc:
            fail(tr(exc.message))
    stdout_console().print(escape(_("Deleted: {text}").format(text=text)), soft_wrap=True)


@admin.command("reset-password")
def reset_password(
    user: str,
    db: DbOption = None,
    actor: ActorOption = None,
    public_url: Annotated[
        str, typer.Option("--public-url", help="The server's address players use (the link's start).")
    ] = "http://127.0.0.1:8000",
) -> None:
    """Print a one-time link (30 minutes) with which USER chooses a new password: give it to them yourself."""
    with _moderation(db) as (moderation, recovery):
        recovery.site = public_url.rstrip("/")
        try:
            link = recovery.reset_link(user)
            moderation.log_reset(user, _actor(actor))
        except AccountRefused as exc:
            fail(tr(exc.message))
    stdout_console().print(link, soft_wrap=True, markup=False, highlight=False)


@admin.command("log")
def action_log(
    db: DbOption = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=1000, help="Actions shown at most.")] = 50,
) -> None:
    """The operator's actions, newest first: when, who, what, on whom."""
    with _moderation(db) as (moderation, _recovery):
        rows = moderation.actions(limit)
    table = Table(_("when"), _("who"), _("action"), _("target"), _("reason"))
    for row in rows:
        words = (row["actor"], row["action"], row["target"], row["detail"])
        table.add_row(_when(row["at"]), *(escape(w) for w in words))
    stdout_console().print(table)


def register(app: typer.Typer) -> None:
    """Add the ``admin`` command group to ``app``."""
    app.add_typer(admin)
