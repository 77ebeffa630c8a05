"""Per-address quotas count an IPv6 client by its /56 network and an IPv4-mapped address as its IPv4 one.

Security review, finding 4: every IPv6 address counted as its own client, so one host with a /64 had unlimited
sign-ups, log-ins, tables and sockets. Issue 41, item 3: ISPs delegate a /56 to each customer, so a /64 key still gave
one home 256 times every quota. :func:`meeple.server.quotas.quota_address` is the one key all quotas use.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig
from meeple.server.quotas import Quotas, quota_address
from meeple.web import create_web_app

PASSWORD = "correct horse battery"


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("1.2.3.4", "1.2.3.4"),
        ("::ffff:1.2.3.4", "1.2.3.4"),
        ("2001:db8::64", "2001:db8::/56"),
        ("2001:db8:0:0:ffff:ffff:ffff:ffff", "2001:db8::/56"),
        ("2001:db8:0:1::1", "2001:db8::/56"),  # another /64 of the same /56: the same customer
        ("2001:db8:0:ff::1", "2001:db8::/56"),
        ("2001:db8:0:100::1", "2001:db8:0:100::/56"),  # the next /56
        ("fe80::1%eth0", "fe80::/56"),
        ("testclient", "testclient"),
    ],
)
def test_the_quota_key_of_an_address(host: str, key: str) -> None:
    assert quota_address(host) == key


def _from(running: TestClient, host: str) -> TestClient:
    other = TestClient(running.app, client=(host, 5000))
    other.portal = running.portal
    return other


def _sign_up(client: TestClient, username: str) -> int:
    return client.post("/api/accounts", json={"username": username, "password": PASSWORD}).status_code


def test_sign_ups_from_one_ipv6_56_share_one_quota(tmp_path: Path) -> None:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'a.db'}", bot_workers=0)  # the default: 5 sign-ups a minute
    with TestClient(create_web_app(config), client=("2001:db8:1::1", 5000)) as running:
        # addresses of several /64 networks of one /56: one customer
        codes = [_sign_up(_from(running, f"2001:db8:0:{i:x}::1"), f"spam{i}") for i in range(0x64, 0x70)]
        assert codes == [201] * 5 + [429] * 7
        # another /56 of the same /48 is another client
        assert _sign_up(_from(running, "2001:db8:0:100::1"), "other1") == 201
        # the web form counts the same way
        r = _from(running, "2001:db8::99").post("/signup", data={"username": "webspam", "password": PASSWORD})
        assert r.status_code == 429


def test_an_ipv4_mapped_address_is_its_ipv4_address(tmp_path: Path) -> None:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'b.db'}", bot_workers=0)
    with TestClient(create_web_app(config), client=("1.2.3.4", 5000)) as running:
        codes = [_sign_up(running, f"four{i}") for i in range(3)]
        codes += [_sign_up(_from(running, "::ffff:1.2.3.4"), f"mapped{i}") for i in range(3)]
        assert codes == [201] * 5 + [429]
        assert _sign_up(_from(running, "1.2.3.5"), "neighbour") == 201


def test_tables_created_count_the_56_too(tmp_path: Path) -> None:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'c.db'}", bot_workers=0)  # 10 tables a minute
    with TestClient(create_web_app(config), client=("2001:db8::1", 5000)) as running:
        body = {"game": "caprice", "seats": ["human", "open"]}
        codes = [_from(running, f"2001:db8:0:{i:x}::1").post("/api/tables", json=body).status_code for i in range(11)]
        assert codes == [201] * 10 + [429]
        assert _from(running, "2001:db8:0:100::1").post("/api/tables", json=body).status_code == 201


def test_websockets_of_one_56_share_one_quota(tmp_path: Path) -> None:
    from starlette.testclient import WebSocketDenialResponse

    config = ServerConfig(db=f"sqlite:///{tmp_path / 'd.db'}", bot_workers=0, quotas=Quotas(max_sockets_per_address=2))
    with TestClient(create_web_app(config), client=("2001:db8::1", 5000)) as running:
        table = running.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"]}).json()["table"]
        url = f"/api/tables/{table}/ws"
        with (
            _from(running, "2001:db8::a").websocket_connect(url),
            _from(running, "2001:db8:0:1::b").websocket_connect(url),
        ):
            with pytest.raises(WebSocketDenialResponse) as denied:
                with _from(running, "2001:db8:0:ff::c").websocket_connect(url):
                    pass
            assert denied.value.status_code == 429
            with _from(running, "2001:db8:0:100::c").websocket_connect(url) as ws:  # another /56
                assert ws.receive_json()["type"] == "hello"
