"""A fault behind a message (the database unreachable) is answered with ``server_error``; nothing changes."""

from __future__ import annotations

from fastapi.testclient import TestClient

from meeple.server.tables import TableService
from tests.server.helpers import create, next_of, seed_where


def test_a_failing_transaction_answers_server_error_and_the_table_goes_on(client: TestClient, monkeypatch) -> None:
    table, tokens = create(client, "caprice", ["human", "human"], seed=seed_where("caprice", 2, 0))
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
        ws.receive_json()
        s = next_of(ws)
        move = {"type": "move", "version": s["version"], "action": s["legal_actions"][0]["code"], "move_id": "m"}
        real = TableService._finish_change

        def broken(self, *args, **kwargs):
            raise OSError("disk unplugged")

        monkeypatch.setattr(TableService, "_finish_change", broken)
        ws.send_json(move)
        error = next_of(ws, "error")
        assert error["code"] == "server_error" and "disk" not in error["message"] and error["move_id"] == "m"
        monkeypatch.setattr(TableService, "_finish_change", real)
        ws.send_json({"type": "sync"})
        assert next_of(ws)["version"] == s["version"]  # the failed move was rolled back, the cache rebuilt
        ws.send_json(move)
        assert next_of(ws)["version"] == s["version"] + 1


def test_a_bot_pool_whose_worker_died_is_replaced() -> None:
    import asyncio
    import os
    import signal

    from meeple.core.registry import load_game
    from meeple.server.bots import BotPool

    state = load_game("caprice", players=2).new_initial_state(3)
    pool = BotPool(1)

    async def run() -> tuple[dict, dict]:
        first = await pool.choose("caprice", {"players": 2}, state.to_json(), state.current_player(), "random", 1)
        assert pool._pool is not None
        for pid in list(pool._pool._pool_manager.worker_manager.workers):
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(1.0)
        second = await pool.choose("caprice", {"players": 2}, state.to_json(), state.current_player(), "random", 1)
        return first, second

    try:
        first, second = asyncio.run(run())
    finally:
        pool.close()
    assert first == second and state.game.action_from_json(first) in state.legal_actions()
    assert pool.timeouts == 0  # the second move was the bot's own, from a new worker
