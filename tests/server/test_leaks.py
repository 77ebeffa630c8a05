"""Hidden information on the wire: every payload a receiver gets is identical across worlds it cannot tell apart.

The conformance suite's method applied to the server's payloads: at many positions of random games of every game
and player count, the world is re-dealt for a seat (``resample_from_infostate``), and everything the server would
send that seat (the ``state`` frame with its whole log, the seats and clock, the browser page's slim frame, its
refusals, the ``ack`` of its move) and a spectator (every seat's re-deal keeps the public view), and the e-mail of a
turn-based table's turn, must not change; nor may its entry in ``GET /api/me/tables``. Issue "Play online" (hidden
information); issue #34 (the turn e-mail, "My tables"); issue #44 (invitations, rematch messages and answers,
resignations, blocks: none carries a hand, a seed or a token that is not the receiver's own).
"""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.core import game_class
from meeple.core.errors import MeepleError
from meeple.core.registry import load_game
from meeple.core.rng import Rng
from meeple.core.state import SPECTATOR, State
from meeple.i18n import translator
from meeple.server.chat import ChatEntry, chat_frame
from meeple.server.clock import new_clock, pass_turn
from meeple.server.hub import Connection, rematch_messages, state_frames
from meeple.server.live import LiveTable, MoveRefused, SeatState, check_move
from meeple.server.mytables import table_entry
from meeple.server.notify import Recipient, compose, turn_notice
from meeple.server.protocol import ClockSpec
from meeple.server.rated import ClaimRefused, RatedRules, claim_wait
from meeple.server.services import services_of
from meeple.server.socket import ack_message
from meeple.server.views import LogCache

CASES = [
    (name, n)
    for name in meeple.registered_games()
    for n in range(game_class(name).min_players, game_class(name).max_players + 1)
]


class _Capture:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []


def _table(state: State[Any]) -> LiveTable:
    n = state.game.num_players
    seats = [
        SeatState("human" if s % 2 == 0 else "bot:random", connected=s == 0, name="Ann" if s == 0 else None)
        for s in range(n)
    ]
    clock = new_clock(ClockSpec(initial=300, increment=5), n)
    return LiveTable(
        id="t",
        game=state.game.name,
        params=state.game.params_dict(),
        seed=0,
        created=0.0,
        grace=60.0,
        substitute="easy",
        state=state,
        seats=seats,
        clock=clock,
        version=len(state.history),
    )


def _frame(state: State[Any], seat: int | None, lang: str = "en", view: str = "full") -> dict[str, Any]:
    """The exact ``state`` message a new connection of ``seat`` is sent (whole log), texts in ``lang``."""
    conn = Connection(None, seat, lang, view=view)
    state_frames(_table(state), [conn], force={conn})
    return _decoded(conn)


def _decoded(conn: Connection) -> dict[str, Any]:
    import json

    waiting = conn.frame if conn.frame is not None else conn.pending.popleft()
    conn.frame = None
    message: dict[str, Any] = json.loads(json.dumps(waiting))  # what the writer would send
    return message


def _turn_mail(state: State[Any], lang: str) -> tuple[str, str] | None:
    """The subject and text of the e-mail a turn-based table sends the seat to move (None: no e-mail is due)."""
    live = _table(state)
    live.clock = new_clock(ClockSpec(per_move=86_400), state.game.num_players)
    mover = live.mover()
    if mover is None or not live.seats[mover].is_human:
        return None
    live.seats[mover].connected = False
    pass_turn(live.clock, mover, now=1_000.0)
    notice = turn_notice(live)
    assert notice is not None
    message = compose(notice, Recipient("someone@example.org", lang), "games@example.org", "https://example.org")
    return str(message["Subject"]), message.get_content()


def _refusals(state: State[Any], seat: int, rng: Rng) -> list[str]:
    """What the server answers ``seat`` for a stale version, and for a few wrong or illegal actions."""
    live = _table(state)
    out = []
    for version in (0, 10**6):
        try:
            check_move(live, seat, version, by_bot=False)
            out.append("accepted")
        except MoveRefused as exc:
            out.append(f"{exc.code}: {exc}")
    codes = [rng.randrange(state.game.codec.num_distinct_actions) for _ in range(3)]
    for action in [*codes, 10**12, {"type": "nonsense"}]:
        copy = state.clone()
        try:
            copy.apply_action(action, player=seat)
            out.append("applied")
        except MeepleError as exc:
            out.append(f"{type(exc).__name__}: {exc}")
    return out


def _claim(state: State[Any], seat: int) -> str:
    """What ``POST /api/tables/{id}/claim`` answers ``seat`` at a rated table whose other seats came and left."""
    live = _table(state)
    live.rated = True
    for i, s in enumerate(live.seats):
        s.player, s.arrived, s.connected, s.away_since = "human", 10.0, i == seat, 20.0
    try:
        return f"forfeit {claim_wait(live, seat, RatedRules(claim_after=60.0), now=50.0)}"
    except ClaimRefused as exc:
        return f"{exc.status} {translator('en').message(exc.message)} {exc.retry_after}"


def _rematch(state: State[Any], seat: int) -> list[dict[str, Any]]:
    """The ``rematch`` messages a connection of ``seat`` is sent (issue #44, item 1), decoded."""
    live = _table(state)
    live.rematch = {"table": "r", "status": "waiting", "ended": None, "offered_by": 0, "accepted": [0]}
    conn = Connection(None, seat)
    rematch_messages(live, [conn])
    return [dict(m) for m in conn.pending]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_no_payload_differs_across_worlds_the_receiver_cannot_tell_apart(name: str, players: int) -> None:
    game = load_game(name, players=players)
    checked = 0
    for seed in range(2):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        caches = {p: LogCache(p) for p in [SPECTATOR, *range(players)]}
        step = 0
        while not state.is_terminal():
            for p, cache in caches.items():  # the incremental log is always the whole redacted log
                assert cache.update(state) == state.history_messages(p)
            if step % 5 == 0:
                public = _frame(state, None)
                for seat in range(players):
                    world = state.resample_from_infostate(seat, rng.fork())
                    assert _frame(world, seat) == _frame(state, seat), f"{name} seat {seat} step {step}"
                    assert _frame(world, None) == public, f"{name} spectator step {step}"
                    french = _frame(world, seat, "fr")
                    assert french == _frame(state, seat, "fr"), f"{name} seat {seat} step {step} (French)"
                    slim = _frame(world, seat, view="web")  # the browser page's frame (?view=web)
                    assert slim == _frame(state, seat, view="web"), f"{name} seat {seat} step {step} (web)"
                    ack = ack_message(_table(world), seat, "m1")  # the ack of the seat's move: its own version
                    assert ack == ack_message(_table(state), seat, "m1"), f"{name} seat {seat} step {step} (ack)"
                    probe = rng.fork()
                    assert _refusals(world, seat, probe.clone()) == _refusals(state, seat, probe.clone())
                    assert _claim(world, seat) == _claim(state, seat), f"{name} seat {seat} step {step} (claim)"
                    line = ChatEntry(step, seat if step % 2 else None, "gl", 1.0)  # names and chat: nothing of the game
                    for lang in ("en", "fr"):
                        said = chat_frame(_table(world), line, translator(lang))
                        assert said == chat_frame(_table(state), line, translator(lang))
                        assert set(said) == {"type", "seat", "name", "text", "time"}
                    assert _rematch(world, seat) == _rematch(state, seat), f"{name} seat {seat} step {step} (rematch)"
                    for lang in ("en", "fr"):  # the turn e-mail: whose turn at which table, nothing of the game
                        assert _turn_mail(world, lang) == _turn_mail(state, lang), f"{name} step {step} (e-mail)"
                        mine = table_entry(_table(world), seat, translator(lang))  # GET /api/me/tables, My tables
                        assert mine == table_entry(_table(state), seat, translator(lang)), f"{name} step {step}"
                    checked += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            step += 1
    assert checked >= 10


def test_the_lobby_and_a_live_tables_views_hold_no_secret(client) -> None:
    from tests.server.helpers import create

    seed = 987654321987
    table, tokens = create(client, "capitol", ["human", "human", "bot:random"], seed=seed)
    texts = [
        client.get("/api/tables").text,
        client.get(f"/api/tables/{table}").text,
        client.get(f"/api/tables/{table}/record").text,
        client.get(f"/api/tables/{table}/replay").text,
    ]
    for text in texts:
        assert str(seed) not in text
        assert not any(token in text for token in tokens.values())
    assert '"seed"' not in texts[0] and '"token' not in texts[0]


def test_waiting_tables_quick_match_and_joins_show_no_secret(client) -> None:
    from tests.server.helpers import create

    seed = 876543219876
    table, tokens = create(client, "citadels", [{"player": "human", "name": "Host"}, "open", "open"], seed=seed)
    client.cookies.clear()
    joined = client.post(f"/api/tables/{table}/join", json={"name": "Guest"})
    client.cookies.clear()
    quick = client.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "Q"})
    client.cookies.clear()
    assert set(joined.json()) == {"table", "seat", "token"} and set(quick.json()) == {"table", "seat", "token"}
    secrets_ = [str(seed), *tokens.values(), joined.json()["token"], quick.json()["token"]]
    texts = [
        client.get("/api/tables").text,
        client.get(f"/api/tables/{table}").text,
        client.get(f"/api/tables/{quick.json()['table']}").text,
    ]
    for route in ("record", "replay"):  # a waiting table's deal is dealt already: as secret as a live one's
        answer = client.get(f"/api/tables/{table}/{route}")
        assert answer.status_code == 409
        texts.append(answer.text)
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        texts += [ws.receive_text(), ws.receive_text()]
    for text in texts:
        assert not any(secret in text for secret in secrets_)
        assert '"seed"' not in text and '"token' not in text
    assert joined.json()["token"] not in quick.text and tokens[0] not in joined.text


def test_profiles_leaderboards_and_me_show_nothing_of_a_live_game(client) -> None:
    """Issue #34: accounts' pages never show a live game's hidden cards, seed, tokens or sessions.

    Two accounts play a rated game: while it runs, their profiles, the leaderboard and ``/api/me`` do not change as
    moves (hidden cards included) are played, and hold no seed, seat token, session token or the table's id.
    """
    from tests.server.helpers import next_of
    from tests.server.test_accounts import person, sign_up

    people = [sign_up(person(client), name) for name in ("Lia", "Max", "Ned")]
    seats = [p.post("/api/quickmatch", json={"game": "citadels", "players": 3, "rated": True}).json() for p in people]
    table = seats[0]["table"]
    live = services_of(client.app).tables.tables[table]
    secrets_ = [str(live.seed), table, *(s["token"] for s in seats), *(p.cookies["meeple_session"] for p in people)]

    def pages() -> list[str]:
        return [
            client.get("/api/players/Lia").text,
            client.get("/api/players/Max").text,
            client.get("/api/leaderboard/citadels").text,
            *(p.get("/api/me").text for p in people),
        ]

    before = pages()
    moved = 0
    for p in people:  # each seat plays what it can now (hidden choices: Citadels' character draft)
        with p.websocket_connect(f"/api/tables/{table}/ws") as ws:
            ws.receive_json()
            frame = next_of(ws)
            while frame["legal_actions"] and moved < 6:
                code = frame["legal_actions"][0]["code"]
                ws.send_json({"type": "move", "version": frame["version"], "action": code, "move_id": f"m{moved}"})
                moved += 1
                frame = next_of(ws)
    assert moved > 0 and live.status == "live"
    after = pages()
    assert after == before  # nothing of the live game reached them
    for text in after:
        assert not any(secret in text for secret in secrets_)
        assert '"seed"' not in text and '"token' not in text and '"observation"' not in text


def test_a_finished_rated_games_profile_entry_holds_only_public_fields(client) -> None:
    """A profile's game entry names the table, its players and the links to its record and replay (public once the
    game is over): nothing more than the record already gives."""
    from sqlalchemy.orm import Session

    from meeple.server.ratings import recent_games
    from tests.server.test_accounts import person, sign_up

    people = [sign_up(person(client), name) for name in ("Noa", "Ozzy")]
    seats = [p.post("/api/quickmatch", json={"game": "caprice", "players": 2, "rated": True}).json() for p in people]
    table = seats[0]["table"]
    live = services_of(client.app).tables.tables[table]
    assert client.get("/api/players/Noa").json()["games"] == []  # live: not listed
    live.status = "finished"
    service = services_of(client.app).tables
    with Session(service.engine) as s, s.begin():
        from sqlalchemy import update

        from meeple.server.db import TableRow

        s.execute(update(TableRow).where(TableRow.id == table).values(status="finished"))
    with Session(service.engine) as s:
        account = services_of(client.app).accounts.by_username("Noa")
        entry = recent_games(s, account.id)[0]
    assert set(entry) == {"table", "game", "created", "rated", "seat", "rank", "players", "record", "replay"}
    assert all(set(p) == {"seat", "player", "name", "account", "rank"} for p in entry["players"])
    text = client.get("/api/players/Noa").text
    assert str(live.seed) not in text and not any(s["token"] in text for s in seats)


def test_the_data_export_shows_nothing_of_a_live_game_and_no_token(client) -> None:
    """Issue #44 item 8: ``GET /api/me/export`` does not change as a live game's hidden moves are played, and holds
    no seed, seat token or session token (the receiver's own included: nothing in it opens anything)."""
    import json

    from tests.server.helpers import next_of
    from tests.server.test_accounts import person, sign_up

    people = [sign_up(person(client), name) for name in ("Pia", "Quin", "Rex")]
    seats = [p.post("/api/quickmatch", json={"game": "citadels", "players": 3, "rated": True}).json() for p in people]
    table = seats[0]["table"]
    live = services_of(client.app).tables.tables[table]
    secrets_ = [str(live.seed), *(s["token"] for s in seats), *(p.cookies["meeple_session"] for p in people)]

    def exports() -> list[dict[str, Any]]:
        documents = [json.loads(p.get("/api/me/export").text) for p in people]
        for document in documents:
            document.pop("exported")
        return documents

    before = exports()
    moved = 0
    for p in people:
        with p.websocket_connect(f"/api/tables/{table}/ws") as ws:
            ws.receive_json()
            frame = next_of(ws)
            while frame["legal_actions"] and moved < 6:
                code = frame["legal_actions"][0]["code"]
                ws.send_json({"type": "move", "version": frame["version"], "action": code, "move_id": f"m{moved}"})
                moved += 1
                frame = next_of(ws)
    assert moved > 0 and live.status == "live"
    after = exports()
    assert after == before
    for document in after:
        text = json.dumps(document)
        assert not any(secret in text for secret in secrets_)
        assert '"seed"' not in text and '"token' not in text and '"observation"' not in text and '"hand' not in text


def test_a_report_and_the_reset_and_verification_e_mails_hold_no_secret(tmp_path) -> None:
    """Issue #44 items 5 and 6: a report keeps the table's chat as everyone at the table saw it (nothing of the game);
    the reset and verification e-mails hold their one link (the receiver's own token) and nothing of any game."""
    import re

    from fastapi.testclient import TestClient

    from meeple.server.app import ServerConfig, create_app
    from meeple.server.notify import SmtpSettings
    from tests.server.conftest import OPEN
    from tests.server.helpers import create, next_of
    from tests.server.mail import open_verification, smtp_server
    from tests.server.test_accounts import person, sign_up

    with smtp_server() as (inbox, port):
        mail = SmtpSettings("127.0.0.1", port, "plain", None, None, "games@example.org")
        config = ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, allow_seed=True, smtp=mail, **OPEN)
        with TestClient(create_app(config)) as ann:
            sign_up(ann, "Sam", email="sam@example.org")
            verification = inbox.wait(1)[0].get_content()
            open_verification(ann, inbox)
            bob = sign_up(person(ann), "Tom")
            table, tokens = create(ann, "citadels", ["human", "open", "bot:random"], seed=918273645546)
            joined = bob.post(f"/api/tables/{table}/join", json={}).json()
            with bob.websocket_connect(f"/api/tables/{table}/ws") as ws:
                next_of(ws)
                ws.send_json({"type": "chat", "text": "hello"})
                next_of(ws, "chat")
            live = services_of(ann.app).tables.tables[table]
            secrets_ = [str(live.seed), tokens[0], joined["token"], ann.cookies["meeple_session"]]
            answer = ann.post("/api/reports", json={"username": "Tom", "table": table, "reason": "spam"})
            (report,) = services_of(ann.app).moderation.reports()
            assert set(answer.json()) == {"report"}
            assert [(line["seat"], line["name"], line["text"]) for line in report.chat] == [(1, "Tom", "hello")]
            assert all(set(line) == {"line", "seat", "name", "text", "time"} for line in report.chat)
            assert ann.post("/api/password-reset", json={"username": "Sam"}).status_code == 202
            reset = inbox.wait(1)[0].get_content()
            for text in (answer.text, repr(report), verification, reset):
                assert not any(secret in text for secret in secrets_)
            for text in (verification, reset):
                assert table not in text and len(re.findall(r"https?://\S+", text)) == 1


def test_friends_lists_and_profiles_show_a_live_table_but_nothing_of_its_game(client) -> None:
    """Issue #44, item 3: a follower sees a friend's live table (its id and game, what any spectator may open) and
    whether the friend is online: the list does not change as moves (hidden ones included) are played, and holds no
    seed, seat token, session token, hand or observation."""
    from tests.server.helpers import next_of
    from tests.server.test_accounts import person, sign_up

    fan = sign_up(person(client), "Fan")
    people = [sign_up(person(client), name) for name in ("Lia", "Max", "Ned")]
    for name in ("Lia", "Max", "Ned"):
        assert fan.put(f"/api/me/friends/{name}").status_code == 200
    seats = [p.post("/api/quickmatch", json={"game": "citadels", "players": 3, "rated": True}).json() for p in people]
    table = seats[0]["table"]
    live = services_of(client.app).tables.tables[table]
    secrets_ = [str(live.seed), *(s["token"] for s in seats), *(p.cookies["meeple_session"] for p in [fan, *people])]

    def seen() -> list[str]:
        return [fan.get("/api/me/friends").text, client.get("/api/players/Lia").text]

    before = seen()
    assert all(f["table"] == {"table": table, "game": "citadels"} for f in fan.get("/api/me/friends").json())
    moved = 0
    for p in people:  # each seat plays what it can now (Citadels' hidden character draft)
        with p.websocket_connect(f"/api/tables/{table}/ws") as ws:
            ws.receive_json()
            frame = next_of(ws)
            while frame["legal_actions"] and moved < 6:
                code = frame["legal_actions"][0]["code"]
                ws.send_json({"type": "move", "version": frame["version"], "action": code, "move_id": f"m{moved}"})
                moved += 1
                frame = next_of(ws)
    assert moved > 0 and live.status == "live"
    assert seen() == before  # nothing of the moves reached them
    for text in before:
        assert not any(secret in text for secret in secrets_)
        assert '"seed"' not in text and '"token' not in text and '"observation"' not in text and '"hand' not in text


def test_a_rating_settled_while_its_game_goes_on_names_no_live_table_on_profiles(client) -> None:
    """Issue #44, item 7: a two-player rated game is rated as soon as one seat forfeits, while it goes on; the
    profile's rating history names the table only once the game is over (a profile never shows a live game)."""
    from sqlalchemy import update

    from meeple.server.db import TableRow
    from meeple.server.ratings import rate_table
    from tests.server.test_accounts import person, sign_up

    people = [sign_up(person(client), name) for name in ("Noa", "Ozzy")]
    seats = [p.post("/api/quickmatch", json={"game": "caprice", "players": 2, "rated": True}).json() for p in people]
    table = seats[0]["table"]
    service = services_of(client.app).tables
    with service.engine.begin() as conn:  # settled early, as a forfeit settles it (tables.py, endings.settle)
        assert rate_table(conn, table, "caprice", [1, 2], service.now())
    # two human seats, nobody connected: no bot moves, so nothing of the server writes the row the test ends below
    created = people[0].post("/api/tables", json={"game": "caprice", "seats": ["human", "human"]})
    assert created.status_code == 201, created.text
    done = created.json()["table"]
    with service.engine.begin() as conn:  # another game of Noa's is over: her caprice statistics are shown
        conn.execute(update(TableRow).where(TableRow.id == done).values(status="finished"))
    text = client.get("/api/players/Noa").text
    assert client.get("/api/players/Noa").json()["stats"]["caprice"]["history"] == [] and table not in text
    with service.engine.begin() as conn:
        conn.execute(update(TableRow).where(TableRow.id == table).values(status="finished"))
    history = client.get("/api/players/Noa").json()["stats"]["caprice"]["history"]
    assert [p["table"] for p in history] == [table]


def test_invitations_rematches_resignations_and_blocks_carry_no_secret(client) -> None:
    """Issue #44: the new channels carry no seed, and no token that is not the receiver's own.

    An invitation (its live message, ``GET /api/me/invitations``, "My tables"), the rematch (the offer's and the
    acceptance's answers, the ``rematch`` messages of the finished table), a resignation's answer and the blocks'.
    """
    from sqlalchemy import select

    from meeple.server.db import TableRow
    from tests.server.helpers import create, next_of
    from tests.server.test_accounts import person, sign_up
    from tests.server.test_ratings import _play_both

    ann, bea = (sign_up(person(client), n) for n in ("Ann", "Bea"))
    seed = 765432198765
    elsewhere, mine = create(bea, "caprice", ["human", "bot:random"])
    with bea.websocket_connect(f"/api/tables/{elsewhere}/ws") as ws:
        next_of(ws)
        table, tokens = create(ann, "caprice", ["human", {"invite": "Bea"}], seed=seed)
        while (told := ws.receive_json())["type"] != "invitation":
            pass
    heard = [str(told), bea.get("/api/me/invitations").text, bea.get("/api/me/tables").text]
    joined = bea.post(f"/api/tables/{table}/join", json={}).json()
    heard += [ann.put("/api/me/blocks/Bea").text, ann.get("/api/me/blocks").text, bea.get("/api/me/blocks").text]
    ann.delete("/api/me/blocks/Bea")
    for text in heard:
        assert str(seed) not in text and tokens[0] not in text and joined["token"] not in text, text
        assert mine[0] not in text and '"seed"' not in text
    _play_both(client, table, [ann, bea])
    with bea.websocket_connect(f"/api/tables/{table}/ws") as ws:
        next_of(ws)
        offer = ann.post(f"/api/tables/{table}/rematch").json()
        while (message := ws.receive_json())["type"] != "rematch":
            pass
        accept = bea.post(f"/api/tables/{table}/rematch").json()
        while (started := ws.receive_json())["type"] != "rematch" or started["status"] != "live":
            pass
    engine = services_of(client.app).engine
    with engine.connect() as conn:
        new_seed = conn.scalar(select(TableRow.seed).where(TableRow.id == offer["table"]))
    assert set(message) == {
        "type",
        "of",
        "table",
        "status",
        "ended",
        "offered_by",
        "accepted",
        "waiting_for",
        "lapse_at",
    }
    for text in (str(message), str(started), str(accept), client.get(f"/api/tables/{offer['table']}").text):
        assert offer["token"] not in text and str(new_seed) not in text and joined["token"] not in text
    assert accept["token"] not in str(offer) and set(accept) == {"table", "seat", "token"}
    resigned = ann.post(f"/api/tables/{offer['table']}/resign")
    assert set(resigned.json()) == {"table", "seat", "status"} and str(new_seed) not in resigned.text
