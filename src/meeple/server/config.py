"""How a server runs: :class:`ServerConfig`, everything ``meeple serve``'s options decide.

Rules: issue "Play online: an authoritative game server"; docs/server.md ("Limits", "Running a server").
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from meeple.server.notify import Addresses, SmtpSettings
from meeple.server.ops import LOOPBACK
from meeple.server.policy import SeatPolicy
from meeple.server.quotas import Quotas
from meeple.server.rated import RatedRules


@dataclass(frozen=True)
class ServerConfig:
    """How to run a server.

    Attributes:
        db: SQLAlchemy database URL (``sqlite:///path`` or ``postgresql+psycopg://...``).
        bot_workers: bot processes (0: a thread in the server process).
        allow_seed: accept a ``seed`` when a table is created (known deals: tests, tournaments).
        process: this process's id in presence rows (default: random).
        policy: the seats and bots a table may have, and a bot move's wall-clock cap
            (``--allow-bot-specs``, ``--allow-bot-tables``, ``--bot-move-seconds``).
        quotas: quotas per client address and sizes (``--tables-per-minute``... ``--no-rate-limits``).
        public_urls: the addresses players use (``--public-url``): the invitations' links, and origins pages and
            WebSockets may come from.
        origins: more origins pages and WebSockets may come from (``--allow-origins``; by default this server's own
            address: :func:`meeple.server.hardening.default_origins`).
        trust_host: the ``Host`` a request came to is an origin too (behind a proxy: ``--forwarded-allow-ips``).
        api_docs: serve ``/docs`` and ``/openapi.json`` (``--api-docs``; off by default on a public server).
        metrics_allow_ips: who may read ``/metrics``: comma-separated addresses or CIDR networks, ``*`` for anyone
            (default: loopback; :mod:`meeple.server.ops`).
        smtp: where turn e-mails are sent (``--smtp``, with ``--mail-from``; :mod:`meeple.server.notify`); None:
            no e-mail at all.
        site: the server's public address, for the links in e-mails (``--public-url``, else ``http://HOST:PORT``).
        addresses: where a seat's e-mails go (default: the address of the account that holds the seat).
        password_hash_workers: threads that check or hash passwords at once (``--password-hash-workers``; each
            argon2 check holds 64 MiB for ~0.3 s; :mod:`meeple.server.hashing`).
        password_hash_queue: password calls that may wait for those threads; past it 503 (``--password-hash-queue``).
        rated: the rules every rated table plays by (``--rated-clock``, ``--rated-grace``, ``--rated-substitute``,
            ``--claim-after``; :mod:`meeple.server.rated`).
    """

    db: str
    bot_workers: int = max(1, (os.cpu_count() or 2) - 1)
    allow_seed: bool = False
    process: str | None = None
    policy: SeatPolicy = SeatPolicy()
    quotas: Quotas = Quotas()
    public_urls: tuple[str, ...] = ()
    origins: tuple[str, ...] = ()
    trust_host: bool = False
    api_docs: bool = False
    metrics_allow_ips: str = LOOPBACK
    smtp: SmtpSettings | None = None
    site: str = "http://127.0.0.1:8000"
    addresses: Addresses | None = None
    password_hash_workers: int = 2
    password_hash_queue: int = 8
    rated: RatedRules = RatedRules()
