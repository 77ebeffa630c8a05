"""Storage and migration (issue #34, item 8): a database of the release before accounts (revision 0003) is upgraded
in place to the newest revision at start-up, on SQLite and PostgreSQL, and its tables play on.

The old database is made by the old schema itself (Alembic up to 0003) and filled with SQL as that release wrote it:
a live table with moves played, its seat names, a chat line, and a waiting table with an open seat.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text

from meeple.core.registry import load_game
from meeple.server.app import ServerConfig, create_app
from meeple.server.db import MIGRATIONS, Base, make_engine, migrate
from meeple.server.tables import hash_token
from tests.server.conftest import OPEN
from tests.server.helpers import next_of, postgres, seed_where
from tests.server.test_accounts import person, sign_up

OLD = "0003"
"""The revision of the release before accounts."""


def _upgrade_to(engine: Engine, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, revision)


def _old_release(engine: Engine) -> tuple[int, list[dict[str, Any]]]:
    """Fill a revision-0003 database as that release did; return the live table's seed and its events."""
    seed = seed_where("caprice", 2, 0)
    state = load_game("caprice", players=2).new_initial_state(seed)
    events = []
    for version in range(1, 5):  # four moves played before the upgrade
        seat = state.current_player()
        action = state.legal_actions()[0]
        state.apply_action(action)
        events.append({"version": version, "seat": seat, "action": state.history[-1][1].to_json()})
    now = time.time()
    insert_table = text(
        "INSERT INTO tables (id, game, params, seed, status, version, rev, created, substitute, deadline, creator,"
        " quickmatch, fill_at) VALUES (:id, 'caprice', :params, :seed, :status, :version, 1, :now, 'random', :now,"
        " NULL, NULL, NULL)"
    )
    insert_seat = text(
        "INSERT INTO seats (table_id, seat, player, token_hash, bot_played, name, joined)"
        " VALUES (:table, :seat, :player, :token, false, :name, NULL)"
    )
    params = json.dumps({"players": 2})
    with engine.begin() as conn:
        conn.execute(
            insert_table, {"id": "old", "params": params, "seed": seed, "status": "live", "version": 4, "now": now}
        )
        conn.execute(
            insert_seat, {"table": "old", "seat": 0, "player": "human", "token": hash_token("t0"), "name": "Olga"}
        )
        conn.execute(
            insert_seat, {"table": "old", "seat": 1, "player": "human", "token": hash_token("t1"), "name": "Oleg"}
        )
        for e in events:
            conn.execute(
                text(
                    "INSERT INTO events (table_id, version, seat, action, move_id, by_bot, at)"
                    " VALUES ('old', :version, :seat, :action, NULL, false, :now)"
                ),
                {**e, "action": json.dumps(e["action"]), "now": now},
            )
        conn.execute(
            text("INSERT INTO chat (table_id, seat, text, at) VALUES ('old', 0, 'before the upgrade', :now)"),
            {"now": now},
        )
        conn.execute(
            insert_table, {"id": "wait", "params": params, "seed": 5, "status": "waiting", "version": 0, "now": now}
        )
        conn.execute(
            insert_seat, {"table": "wait", "seat": 0, "player": "human", "token": hash_token("w0"), "name": "Host"}
        )
        conn.execute(insert_seat, {"table": "wait", "seat": 1, "player": "open", "token": None, "name": None})
    return seed, events


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_of_the_release_before_accounts_is_upgraded_in_place_and_plays_on(
    tmp_path: Path, backend: str
) -> None:
    with contextlib.ExitStack() as stack:
        url = f"sqlite:///{tmp_path / 'old.db'}" if backend == "sqlite" else stack.enter_context(postgres(tmp_path))
        engine = make_engine(url)
        _upgrade_to(engine, OLD)
        _, events = _old_release(engine)
        engine.dispose()
        with TestClient(create_app(ServerConfig(db=url, bot_workers=0, **OPEN))) as client:  # migrates to head
            view = client.get("/api/tables/old").json()
            assert view["status"] == "live" and view["rated"] is False
            assert [(s["name"], s["account"]) for s in view["seats"]] == [("Olga", None), ("Oleg", None)]
            with client.websocket_connect("/api/tables/old/ws?token=t0") as ws0:
                assert ws0.receive_json()["seat"] == 0
                frame = next_of(ws0)  # the state first, then the chat history
                assert frame["version"] >= 1 and frame["status"] == "live"
                assert next_of(ws0, "chat")["text"] == "before the upgrade"
            mover = frame["current_player"]
            with client.websocket_connect(f"/api/tables/old/ws?token=t{mover}") as ws:
                ws.receive_json()
                turn = next_of(ws)
                assert turn["legal_actions"], "the old table's seat to move can move"
                ws.send_json(
                    {
                        "type": "move",
                        "version": turn["version"],
                        "action": turn["legal_actions"][0]["code"],
                        "move_id": "after",
                    }
                )
                assert next_of(ws, "ack")["move_id"] == "after"
            # the new features work on the upgraded rows: an account takes the old waiting table's open seat
            joiner = sign_up(person(client), "Newcomer")
            assert joiner.post("/api/tables/wait/join", json={}).status_code == 201
            seats = client.get("/api/tables/wait").json()["seats"]
            assert seats[1]["account"] == "Newcomer" and client.get("/api/tables/wait").json()["status"] == "live"
            assert joiner.get("/api/me").json()["ratings"] == {}
        engine = make_engine(url)
        with engine.connect() as conn:
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
            moves = conn.execute(text("SELECT count(*) FROM events WHERE table_id = 'old'")).scalar_one()
        engine.dispose()
        head = ScriptDirectory(str(MIGRATIONS)).get_current_head()  # 0005_turn_based since issue #34 item 7
        assert version == head and moves == len(events) + 1


def test_the_migrations_build_exactly_the_schema_of_the_models(tmp_path: Path) -> None:
    """Upgraded to head, the database has every table, column and index of meeple.server.db's models."""
    engine = make_engine(f"sqlite:///{tmp_path / 'fresh.db'}")
    migrate(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()
    assert diff == [], diff
