"""A real local SMTP server for the tests (aiosmtpd): it keeps every e-mail it receives, as parsed messages."""

from __future__ import annotations

import email
import email.policy
import re
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from tests.server.helpers import free_port


class Inbox:
    """The e-mails an :func:`smtp_server` received, in order (``messages``), and their envelopes' recipients."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802 - aiosmtpd
        content = envelope.original_content or b""
        message = email.message_from_bytes(content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self.lock:
            self.messages.append(message)
            self.recipients.append(list(envelope.rcpt_tos))
        return "250 OK"

    def wait(self, count: int, seconds: float = 20.0) -> list[EmailMessage]:
        """The first ``count`` e-mails, once they came (AssertionError after ``seconds``)."""
        deadline = time.monotonic() + seconds
        while len(self.messages) < count:
            assert time.monotonic() < deadline, f"{len(self.messages)} e-mails came, not {count}"
            time.sleep(0.05)
        return self.messages[:count]


def _authenticator(
    server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any
) -> AuthResult:  # pragma: no cover - called by aiosmtpd
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"meeple", b"p@ss:word")
    return AuthResult(success=ok)


@contextmanager
def smtp_server(tls: str = "plain", certs: Path | None = None) -> Iterator[tuple[Inbox, int]]:
    """An SMTP server on a free loopback port: ``plain``, ``starttls`` (required) or ``tls`` (implicit).

    With TLS it needs ``certs`` (:func:`self_signed`) and asks for the login ``meeple`` / ``p@ss:word``.
    """
    inbox = Inbox()
    port = free_port()
    options: dict[str, Any] = {}
    if tls != "plain":
        assert certs is not None
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(certs / "cert.pem", certs / "key.pem")
        options = {"authenticator": _authenticator, "auth_required": True}
        if tls == "starttls":
            options.update(tls_context=context, require_starttls=True)
        else:
            options.update(ssl_context=context, auth_require_tls=False)
    controller = Controller(inbox, hostname="127.0.0.1", port=port, server_hostname="localhost", **options)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


def self_signed(where: Path) -> Path:
    """A self-signed certificate for ``localhost`` (``cert.pem``, ``key.pem``), made with Debian's openssl."""
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost",
            "-keyout", str(where / "key.pem"), "-out", str(where / "cert.pem"),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return where


def open_verification(client: Any, inbox: Inbox) -> None:
    """Open the newest e-mail's verification link (``POST /api/verification/{token}``) and forget every e-mail so far.

    Turn and invitation e-mails go only to verified addresses (issue #44, item 5): a test signs up with an address,
    then verifies it as its owner would.
    """
    message = inbox.wait(len(inbox.messages) or 1)[-1]
    (token,) = re.findall(r"/verify/([A-Za-z0-9_-]+)", message.get_content())
    r = client.post(f"/api/verification/{token}")
    assert r.status_code == 200, r.text
    with inbox.lock:
        inbox.messages.clear()
        inbox.recipients.clear()
