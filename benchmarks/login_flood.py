"""A log-in flood from many addresses against genuine log-ins (issue 41, item 4), measured as the issue did.

Run: ``python benchmarks/login_flood.py [--src OTHER/src]`` (``--src``: another source tree, e.g. main before the
fix). It starts ``meeple serve`` with ``--forwarded-allow-ips 127.0.0.1`` (loopback is the proxy, so
``X-Forwarded-For`` names the client: documentation addresses, only loopback is reached) and the default quotas and
password threads, signs a player up (keeping the device cookie the server sets, if any), then runs the flood of
``tests/server/test_logins.flood_log_ins`` (120 addresses, each within its own quota of 10 log-ins a minute, at many
usernames) while the player logs in 8 times, a second apart, from its own address and device. It prints the 8
answers (the 503s are the issue's figure) and the count of each answer the flood got. Bounded: at most 60 s of flood.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.helpers import ServerProcess  # noqa: E402
from tests.server.test_logins import measure  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=None, help="another source tree to measure (its src/ folder)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    options = ("--forwarded-allow-ips", "127.0.0.1")
    server = ServerProcess(f"sqlite:///{folder / 'f.db'}", options=options, src=args.src).start()
    try:
        codes, flood = measure(server.url)
    finally:
        server.stop()
    print(f"source: {args.src or 'this tree'}")
    print(f"genuine log-ins during the flood: {codes} ({codes.count(503)} of {len(codes)} answered 503)")
    print(f"the flood's answers: {dict(sorted(flood.items()))}")


if __name__ == "__main__":
    main()
