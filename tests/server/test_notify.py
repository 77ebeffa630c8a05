"""Turn e-mails (issue #34 item 7, meeple.server.notify), sent to a real local SMTP server (aiosmtpd).

An e-mail goes when it becomes a seat's turn at a turn-based table and no connection holds the seat: one per table,
seat and turn, none when SMTP is not configured, through a worker thread whose failures are logged, not raised.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig, create_app
from meeple.server.notify import Notifier, Recipient, SmtpSettings, TurnNotice
from meeple.server.services import services_of
from tests.server.conftest import OPEN
from tests.server.helpers import acked, create, free_port, next_of, seed_where
from tests.server.mail import Inbox, self_signed, smtp_server

DAY = 86_400.0
ADDRESSES = {0: Recipient("ann@example.org", "fr"), 1: Recipient("bob@example.org")}
NOTICE = TurnNotice(
    "T1", "caprice", 1, (("human", "Ann"), ("human", "Bob")), 1_800_000_000.0, 1_799_900_000.0, ("Ann", "Bob")
)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("smtp://mail.example.org", ("mail.example.org", 25, "plain", None, None)),
        ("smtp+starttls://me:s%40cret@mail.example.org", ("mail.example.org", 587, "starttls", "me", "s@cret")),
        ("smtps://me:pw@mail.example.org:2465", ("mail.example.org", 2465, "tls", "me", "pw")),
    ],
)
def test_the_smtp_url_names_host_port_security_and_login(url: str, expected: tuple[Any, ...]) -> None:
    s = SmtpSettings.from_url(url, "games@example.org")
    assert (s.host, s.port, s.security, s.username, s.password) == expected and s.sender == "games@example.org"


@pytest.mark.parametrize(
    ("url", "sender", "words"),
    [
        ("http://mail.example.org", None, "smtp://, smtp+starttls://, smtps://"),
        ("mail.example.org", None, "smtp://"),
        ("smtp://", None, "no host"),
        ("smtp://host:99999", None, "1 to 65535"),
        ("smtp://host", "not an address", "--mail-from"),
        ("smtp://host", "a@b\r\nBcc: x@y", "--mail-from"),
    ],
)
def test_a_bad_smtp_url_or_sender_is_refused_naming_what_is_allowed(url: str, sender: str | None, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("+", r"\+")):
        SmtpSettings.from_url(url, sender)


def _notifier(port: int, security: str = "plain", login: bool = False, host: str = "127.0.0.1") -> Notifier:
    user = ("meeple", "p@ss:word") if login else (None, None)
    settings = SmtpSettings(host, port, security, *user, "games@example.org")  # type: ignore[arg-type]
    return Notifier(settings, lambda table, seat: ADDRESSES.get(seat), "https://games.example.org/")


def test_an_e_mail_says_whose_turn_at_which_table_with_one_link_in_the_recipients_language() -> None:
    with smtp_server() as (inbox, port):
        notifier = _notifier(port)
        assert notifier.deliver(NOTICE) == "sent"
        assert notifier.deliver(dataclasses.replace(NOTICE, seat=0)) == "sent"
        english, french = inbox.wait(2)
    assert inbox.recipients == [["bob@example.org"], ["ann@example.org"]]
    assert english["Subject"] == "Your turn at Caprice" and english["From"] == "games@example.org"
    assert english["Auto-Submitted"] == "auto-generated"
    body = english.get_content()
    assert "Bob, it is your turn at the Caprice table with Ann." in body
    assert "https://games.example.org/tables/T1?lang=en" in body and body.count("https://") == 1
    assert "2027-01-15 08:00 UTC" in body  # the deadline, in UTC
    assert french["Subject"] == "À vous de jouer\u202f: Caprice"
    assert "https://games.example.org/tables/T1?lang=fr" in french.get_content()


def test_a_failed_e_mail_is_logged_and_counted_never_raised(caplog: pytest.LogCaptureFixture) -> None:
    outcomes: list[str] = []
    notifier = _notifier(free_port())  # nobody listens there
    notifier.count = outcomes.append
    with caplog.at_level(logging.WARNING, "meeple.server"):
        assert notifier.deliver(NOTICE) == "failed"
    assert outcomes == ["failed"] and "not sent: ConnectionRefusedError" in caplog.text
    notifier.addresses = lambda table, seat: None  # a guest's seat: no address, nothing sent
    assert notifier.deliver(NOTICE) == "no_address"


def test_the_queue_is_bounded_and_the_worker_sends_in_its_own_thread(caplog: pytest.LogCaptureFixture) -> None:
    with smtp_server() as (inbox, port):
        notifier = _notifier(port)
        notifier.queue.maxsize = 2
        dropped: list[str] = []
        notifier.count = dropped.append
        assert notifier.submit(NOTICE) and notifier.submit(NOTICE)  # not started: both wait
        with caplog.at_level(logging.WARNING, "meeple.server"):
            assert not notifier.submit(NOTICE)
        assert dropped == ["dropped"] and "dropped" in caplog.text
        notifier.start()
        inbox.wait(2)
        notifier.stop()
        assert notifier.thread is not None and not notifier.thread.is_alive()


@pytest.mark.parametrize("security", ["starttls", "tls"])
def test_starttls_and_implicit_tls_with_a_login(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, security: str) -> None:
    certs = self_signed(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(certs / "cert.pem"))  # trust the test's own certificate authority
    with smtp_server(security, certs) as (inbox, port):
        assert _notifier(port, security, login=True, host="localhost").deliver(NOTICE) == "sent"
        assert inbox.wait(1)[0]["To"] == "bob@example.org"
        wrong = _notifier(port, security, login=False, host="localhost")
        assert wrong.deliver(NOTICE) == "failed"  # the server asks for a login
    with smtp_server(security, certs) as (inbox, port):
        monkeypatch.delenv("SSL_CERT_FILE")
        monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path / "none"))
        untrusted = _notifier(port, security, login=True, host="localhost")
        assert untrusted.deliver(NOTICE) == "failed"  # a certificate nobody vouches for: nothing is sent
        assert inbox.messages == []


# ---------------------------------------------------------------------------------------------- through the server
@pytest.fixture
def mailbox() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as found:
        yield found


def _server(tmp_path: Path, port: int | None, **extra: Any) -> TestClient:
    tmp_path.mkdir(exist_ok=True)
    mail = SmtpSettings("127.0.0.1", port, "plain", None, None, "games@example.org") if port else None
    config = ServerConfig(
        db=f"sqlite:///{tmp_path / 's.db'}",
        bot_workers=0,
        allow_seed=True,
        smtp=mail,
        site="https://games.example.org",
        addresses=lambda table, seat: ADDRESSES.get(seat),
        **{**OPEN, **extra},
    )
    return TestClient(create_app(config))


def _turn_based(client: TestClient, seats: list[Any] | None = None) -> tuple[str, dict[int, str]]:
    seats = seats or [{"player": "human", "name": "Ann"}, {"player": "human", "name": "Bob"}]
    seed = seed_where("caprice", 2, 0)
    table, tokens = create(client, "caprice", seats, clock={"per_move": DAY}, seed=seed)
    client.portal.call(services_of(client.app).tables.evaluate, table)
    return table, tokens


def test_an_away_player_gets_one_e_mail_per_turn_and_a_connected_one_none(
    tmp_path: Path, mailbox: tuple[Inbox, int]
) -> None:
    inbox, port = mailbox
    with _server(tmp_path, port) as client:
        table, tokens = _turn_based(client)
        (first,) = inbox.wait(1)  # seat 0's first turn: nobody is connected
        assert first["To"] == "ann@example.org" and first["Subject"] == "À vous de jouer\u202f: Caprice"
        assert f"https://games.example.org/tables/{table}?lang=fr" in first.get_content()
        with (
            client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ann,
            client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[1]}") as bob,
        ):
            state = next_of(ann)
            next_of(bob)
            action = state["legal_actions"][0]["code"]
            ann.send_json({"type": "move", "version": state["version"], "action": action, "move_id": "a1"})
            acked(ann, "a1")
            time.sleep(0.5)
            assert len(inbox.messages) == 1  # Bob's turn began while he was connected: no e-mail
        client.portal.call(services_of(client.app).tables.evaluate, table)
        time.sleep(0.5)
        assert len(inbox.messages) == 1  # he left during his turn: still that turn, still none
        _wait_away(client, table, 0)
        with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[1]}") as bob:
            state = next_of(bob)
            while state["seat"] != state["current_player"] or not state["legal_actions"]:
                state = next_of(bob)
            action = state["legal_actions"][0]["code"]
            bob.send_json({"type": "move", "version": state["version"], "action": action, "move_id": "b1"})
            acked(bob, "b1")
        second = inbox.wait(2)[1]  # Ann's turn again, and she is away
        assert second["To"] == "ann@example.org"
        time.sleep(0.5)
        assert len(inbox.messages) == 2


def _wait_away(client: TestClient, table: str, seat: int) -> None:
    """Until no connection holds ``seat`` (the server notes a closed connection a moment after it closed)."""
    deadline = time.monotonic() + 20
    while client.get(f"/api/tables/{table}").json()["seats"][seat]["connected"]:
        assert time.monotonic() < deadline, f"seat {seat} still connected"
        time.sleep(0.05)


def test_no_e_mail_without_smtp_nor_at_a_real_time_table(tmp_path: Path, mailbox: tuple[Inbox, int]) -> None:
    inbox, port = mailbox
    with _server(tmp_path / "a", None) as client:
        table, _tokens = _turn_based(client)
        assert services_of(client.app).tables.notifier is None
        live = client.portal.call(services_of(client.app).tables.get, table)
        assert "mailed" not in live.clock  # nothing decided either
    with _server(tmp_path / "b", port) as client:
        seed = seed_where("caprice", 2, 0)
        table, _tokens = create(client, "caprice", ["human", "human"], clock={"per_move": 600}, seed=seed)
        client.portal.call(services_of(client.app).tables.evaluate, table)
        time.sleep(0.5)
    assert inbox.messages == []


def test_an_e_mail_goes_to_exactly_the_stored_address_whatever_its_to_header_reads() -> None:
    # an address stored before addresses were checked strictly: the envelope still holds that one string
    legacy = Recipient("postmaster,abuse,x@victim.example")
    with smtp_server() as (inbox, port):
        notifier = _notifier(port)
        notifier.addresses = lambda table, seat: Recipient("o.k+turns@example.org")
        assert notifier.deliver(NOTICE) == "sent"
        notifier.addresses = lambda table, seat: legacy
        assert notifier.deliver(NOTICE) == "bad_address"  # smtplib would have sent it to "postmaster" alone
        inbox.wait(1)
        time.sleep(0.2)
    assert inbox.recipients == [["o.k+turns@example.org"]]


def test_turn_e_mails_are_capped_per_recipient_address_and_utc_day() -> None:
    """Two accounts giving one address (in another case, with a +tag) share its cap: addresses are not confirmed."""
    outcomes: list[str] = []
    shared = {7: "Ann@Example.org", 8: "ann+games@example.ORG", 9: "bob@example.org"}
    with smtp_server() as (inbox, port):
        notifier = _notifier(port)
        notifier.settings = dataclasses.replace(notifier.settings, mails_per_day=2)
        notifier.count = outcomes.append
        account = {"T0": 7, "T1": 8, "T2": 7, "T3": 8, "T9": 9}
        notifier.addresses = lambda table, seat: Recipient(shared[account[table]], None, account[table])
        for table in ("T0", "T1", "T2", "T3"):  # two accounts, one mailbox: two e-mails in all
            notifier.deliver(dataclasses.replace(NOTICE, table=table))
        notifier.deliver(dataclasses.replace(NOTICE, table="T9"))  # another address is not held back
        inbox.wait(3)
        assert outcomes == ["sent", "sent", "capped", "capped", "sent"]
        later = notifier.now() + DAY
        notifier.now = lambda: later  # the next UTC day starts a new count
        assert notifier.deliver(dataclasses.replace(NOTICE, table="T1")) == "sent"
        inbox.wait(4)
    assert len(inbox.messages) == 4


def test_the_cap_is_shared_by_every_process_through_the_database(tmp_path: Path) -> None:
    """Two servers' notifiers on one PostgreSQL, twenty e-mails to one address at once: exactly the cap goes."""
    import threading

    from meeple.server.db import make_engine, migrate
    from meeple.server.notify import MailCounts
    from tests.server.helpers import postgres

    with postgres(tmp_path / "pg") as url:
        engines = [make_engine(url), make_engine(url)]
        migrate(engines[0])
        sent: list[str] = []
        notifiers = []
        for engine in engines:
            settings = SmtpSettings("127.0.0.1", 1, "plain", None, None, "games@example.org", mails_per_day=5)
            notifier = Notifier(
                settings, lambda table, seat: Recipient("ann@example.org"), "https://x.org", counts=MailCounts(engine)
            )
            notifier.send = lambda message, address: sent.append(address)  # type: ignore[method-assign]
            notifiers.append(notifier)
        outcomes: list[str] = []
        threads = [
            threading.Thread(target=lambda n=n: outcomes.append(n.deliver(NOTICE)))
            for n in notifiers
            for _ in range(10)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        for engine in engines:
            engine.dispose()
    assert sorted(outcomes) == ["capped"] * 15 + ["sent"] * 5 and len(sent) == 5


def test_an_e_mail_names_a_guest_a_guest_never_by_the_text_they_chose() -> None:
    from meeple.server.notify import compose

    notice = TurnNotice(
        "T1",
        "caprice",
        0,
        (("human", "Ann"), ("human", "WIN A PRIZE at evil.example"), ("bot:medium", None), ("human", None)),
        1_800_000_000.0,
        1_799_900_000.0,
        ("Ann", None, None, None),
    )
    english = compose(notice, Recipient("ann@example.org"), "games@example.org", "https://games.example.org")
    body = english.get_content()
    assert "Ann, it is your turn at the Caprice table with a guest, medium bot, a guest." in body
    assert "evil" not in english.as_string() and "PRIZE" not in english.as_string()
    french = compose(notice, Recipient("ann@example.org", "fr"), "games@example.org", "https://games.example.org")
    assert "un invité" in french.get_content() and "evil" not in french.as_string()
