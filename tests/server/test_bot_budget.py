"""Bot CPU per creator address: a budget, fair lanes at the pool, and the issue's attack on a running server.

Issue 41, item 2: ten tables from one address, each a human seat nobody opens plus ``"grace": 0.001``, were played by
bots from the first turn and took a control table's bot answer from 5 ms to 3.95 s. Now such a seat is never
bot-played (tests/server/test_unplayed.py), a grace is at least ``--min-grace``, each creator address's bots share
the workers fairly (:func:`meeple.server.bots.lane_width`) and think within a budget (``--bot-cpu-per-address``),
past which they wait and the table says so. ``benchmarks/bot_tables.py`` measures the control table before and after.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig
from meeple.server.bots import BUDGET_WINDOW, BotBudget, BotPool, lane_width
from meeple.server.policy import SeatPolicy
from meeple.server.quotas import Quotas
from meeple.web import create_web_app
from tests.server.helpers import ServerProcess, http_json, next_of
from tests.server.test_accounts import person


def test_the_budget_is_a_leaky_bucket_per_creator() -> None:
    now = [0.0]
    budget = BotBudget(60.0, now=lambda: now[0])  # 60 CPU seconds an hour: one a minute
    budget.charge("a", 59.0)
    assert budget.wait("a") == 0.0  # under the budget
    budget.charge("a", 3.0)  # 62: two seconds over
    assert budget.wait("a") == pytest.approx(2 * BUDGET_WINDOW / 60 + 0.05)  # drains one CPU second a minute
    assert budget.wait("b") == 0.0 and budget.wait(None) == 0.0  # another address, the operator
    budget.charge(None, 1e9)
    assert budget.wait(None) == 0.0
    now[0] += 120.0  # two minutes: two seconds drained
    assert budget.wait("a") == pytest.approx(0.05) and budget.used("a") == pytest.approx(60.0)
    now[0] += 3600.0
    assert budget.used("a") == 0.0 and budget.wait("a") == 0.0
    assert BotBudget(0.0).wait("a") == 0.0 and not BotBudget(0.0).limited  # no budget at all


def test_one_creators_moves_wait_in_its_own_lane() -> None:
    """With a lane of one move per creator, a second move of ``a`` waits; ``b``'s move goes past it."""
    assert [lane_width(w) for w in (0, 1, 2, 3, 8)] == [1, 1, 1, 1, 4]

    async def run() -> list[str]:
        pool = BotPool(2)
        order: list[str] = []
        release = asyncio.Event()

        async def move(owner: str, name: str, hold: bool) -> None:
            async with pool.lane(owner):
                order.append(name)
                if hold:
                    await release.wait()

        first = asyncio.create_task(move("a", "a1", hold=True))
        await asyncio.sleep(0.01)
        second = asyncio.create_task(move("a", "a2", hold=False))
        other = asyncio.create_task(move("b", "b1", hold=False))
        await asyncio.sleep(0.01)
        assert order == ["a1", "b1"]  # a2 waits for a1; b1 did not wait for either
        release.set()
        await asyncio.gather(first, second, other)
        assert not pool._lanes  # lanes go once unused
        return order

    assert asyncio.run(run()) == ["a1", "b1", "a2"]


def test_a_heuristic_move_never_waits_behind_another_tables_search() -> None:
    """One worker, busy with a search of one creator: another creator's ``medium`` move is answered first."""
    from meeple.core.registry import load_game
    from meeple.server.bots import is_search

    assert [is_search(s, "caprice", 2) for s in ("random", "easy", "medium", "hard", "ismcts:50")] == [
        False,
        False,
        False,
        True,
        True,
    ]
    state = load_game("caprice", players=2).new_initial_state(3)
    while len(state.legal_actions()) < 3:  # a real choice: the search thinks its whole time
        state.apply_action(state.legal_actions()[0])
    snapshot, seat = state.to_json(), state.current_player()

    async def run() -> list[str]:
        pool = BotPool(1, move_seconds=30)
        done: list[str] = []

        async def move(spec: str, owner: str) -> None:
            await pool.choose("caprice", {"players": 2}, snapshot, seat, spec, 1, owner)
            done.append(spec)

        try:
            await pool.choose("caprice", {"players": 2}, snapshot, seat, "random", 1, "warm")  # the worker is up
            search = asyncio.create_task(move("ismcts:time=3", "a"))
            while pool.in_pool == 0:
                await asyncio.sleep(0.01)
            await move("medium", "b")
            await search
        finally:
            await asyncio.to_thread(pool.close)
        return done

    assert asyncio.run(run()) == ["medium", "ismcts:time=3"]


def test_past_its_budget_a_creators_bots_wait_say_so_and_others_go_on(tmp_path: Path) -> None:
    policy = SeatPolicy(any_bot=True, bot_tables=True, min_grace=0.0)
    quotas = Quotas(bot_cpu_per_address=0.3)  # a third of a CPU second an hour: used within a few moves
    config = ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, policy=policy, quotas=quotas)
    with TestClient(create_web_app(config)) as client:
        greedy = person(client, client=("10.0.0.1", 5000))
        body = {"game": "caprice", "seats": ["bot:ismcts:300", "bot:ismcts:300"]}
        table = greedy.post("/api/tables", json=body).json()["table"]
        with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
            ws.receive_json()
            state = next_of(ws)
            while state["bots_wait"] is None:
                assert state["status"] == "live", "the game ended within the budget"
                state = next_of(ws)
            assert state["bots_wait"] > time.time()  # the budget refills at 0.3 s an hour: each move then waits long
            stopped = state["version"]
            # another address's table is not held back: its bot answers at once
            other = person(client, client=("10.0.0.2", 5000))
            mine = other.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:medium"]}).json()
            with other.websocket_connect(f"/api/tables/{mine['table']}/ws?token={mine['seats'][0]['token']}") as me:
                me.receive_json()
                played = _play_moves(me, 3)
                assert all(f["bots_wait"] is None for f in played)
            assert client.get(f"/api/tables/{table}").json()["version"] == stopped  # the greedy table waits
        for lang, words in (("en", "The bots of this table wait"), ("fr", "Les bots de cette table attendent")):
            assert words in greedy.get(f"/tables/{table}?lang={lang}").text


def _play_moves(ws: Any, moves: int) -> list[dict[str, Any]]:
    """Play ``moves`` first legal moves at a table against a bot; every state seen."""
    seen, state, made = [], next_of(ws), 0
    while made < moves and state["status"] == "live":
        seen.append(state)
        if state["legal_actions"]:
            code = state["legal_actions"][0]["code"]
            ws.send_json({"type": "move", "version": state["version"], "action": code, "move_id": f"x{made}"})
            made += 1
        state = next_of(ws)
    return seen


# ---------------------------------------------------------------------------------------------- a running server


def attack(url: str, tables: int = 10, grace: float | None = 0.001) -> list[tuple[int, str | None]]:
    """The issue's attack: ``tables`` tables from one address, two human seats nobody opens, the ``hard`` substitute.

    Returns the status of each creation and its table (None when refused).
    """
    import urllib.error
    import urllib.request

    out: list[tuple[int, str | None]] = []
    body = {"game": "capital_lux_2", "params": {"players": 2}, "seats": ["human", "human"], "substitute": "hard"}
    if grace is not None:
        body["grace"] = grace
    for _ in range(tables):
        request = urllib.request.Request(
            f"{url}/api/tables",
            data=__import__("json").dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-Forwarded-For": "10.7.0.1"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                out.append((int(r.status), __import__("json").loads(r.read())["table"]))
        except urllib.error.HTTPError as exc:
            out.append((int(exc.code), None))
    return out


def control(url: str, moves: int = 15) -> list[float]:
    """A control table from another address, a human against ``medium``: seconds from each move to the bot's answer.

    The human (this client) plays the first legal move at once; a bot answer is the next state whose seat to move is
    the human again, or the game's end.
    """
    from websockets.sync.client import connect

    created = http_json(f"{url}/api/tables", {"game": "caprice", "seats": ["human", "bot:medium"]})
    table, token = created["table"], created["seats"][0]["token"]
    answers: list[float] = []
    ws_url = f"{url.replace('http', 'ws', 1)}/api/tables/{table}/ws?token={token}"
    with connect(ws_url, additional_headers={"X-Forwarded-For": "10.6.0.1"}) as ws:
        sent: float | None = None
        n = 0
        while len(answers) < moves:
            frame = __import__("json").loads(ws.recv(timeout=120))
            if frame["type"] != "state":
                continue
            if frame["status"] != "live":
                break
            if frame["legal_actions"]:
                if sent is not None:
                    answers.append(time.perf_counter() - sent)
                n += 1
                code = frame["legal_actions"][0]["code"]
                ws.send(
                    __import__("json").dumps(
                        {"type": "move", "version": frame["version"], "action": code, "move_id": str(n)}
                    )
                )
                sent = time.perf_counter()
    return answers


def test_the_issues_attack_on_a_running_server_gets_no_bot_moves(tmp_path: Path) -> None:
    # the defaults otherwise: --min-grace 30, no bot tables; room for the refused attack and the made one in a minute
    options = ("--forwarded-allow-ips", "127.0.0.1", "--tables-per-minute", "30")
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", options=options, log=tmp_path / "s.log").start()
    try:
        refused = attack(server.url)
        assert {code for code, _ in refused} == {422}  # grace 0.001: below --min-grace
        made = attack(server.url, grace=30)
        assert all(code == 201 for code, _ in made)
        answers = control(server.url)
        for _, table in made:
            view = http_json(f"{server.url}/api/tables/{table}")
            assert view["version"] == 0 and not any(s["bot_played"] for s in view["seats"]), view["seats"]
        median = statistics.median(answers)
        print(f"\ncontrol table's bot answer under the attack: median {median * 1000:.1f} ms over {len(answers)} moves")
        assert len(answers) >= 10
    finally:
        server.stop()
