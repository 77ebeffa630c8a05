"""``meeple play --server URL --table ID [--token T]``: a seat (or a spectator) of a server's table in the terminal.

The terminal draws the observation the server sends with the game's renderer, prints the new log lines under the
seats' names, and at the seat's turn reads a move exactly as ``meeple play`` does (number, text, prefix or the game's
shortcuts), matched against the legal actions the server listed. It knows nothing the server did not send to that
seat. It shows the table's chat as it comes; ``say TEXT`` sends a line, ``mute`` and ``unmute`` hide or show the
spectators' lines, at the move prompt and also while the others play (the terminal's lines are read by a thread into
a queue, :class:`LineReader`, and the socket with a timeout, :data:`TICK`, so that a line typed meanwhile is seen; a
move typed out of turn is refused with a word, ``board`` and ``quit`` work too; piped input, not a terminal, still
answers the move prompts in order). A table still waiting for players is
shown as such until it starts.

It does the client's duties of docs/server.md: it pings the server (WebSocket pings), reconnects after a lost
connection (for up to :data:`RECONNECT_FOR` seconds), and keeps a move until its ``ack`` comes, resending it with
the same ``move_id`` after a reconnection or a ``server_error``.

Rules: issue "Play online" (the terminal at the same table); docs/server.md (the protocol); issue "Survive the
database and the other process" (the client's duties); issue #34 (names, chat, open seats).
"""

from __future__ import annotations

import collections
import json
import queue
import secrets
import sys
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from rich.console import Console
from rich.markup import escape

from meeple.cli.moves import BOARD_WORDS, HELP_WORDS, QUIT_WORDS, Command, Moves, Problem, interpret
from meeple.cli.render import Renderer, renderer_for
from meeple.i18n import Message, _, current, known, ngettext
from meeple.server.accounts import SESSION_COOKIE
from meeple.server.endings import ABORTS
from meeple.server.protocol import PROTOCOL_VERSION as PROTOCOL

RECONNECT_FOR = 120.0
"""Seconds the terminal keeps trying to reconnect to a server it lost before giving up."""
PING = 5.0
"""Seconds between WebSocket pings, and how long a pong may take before the connection counts as lost."""
TICK = 0.2
"""Seconds a wait for the server's next message lasts before the lines typed meanwhile are looked at."""
_NO_RECONNECT = {1008, 4401, 4404}
"""Close codes after which reconnecting cannot help (a refused token, no such table, a policy violation)."""


class OnlineError(Exception):
    """The server could not be reached, refused the token, or broke the protocol (the message says which)."""


def socket_url(server: str, table: str, token: str | None, lang: str | None = None) -> str:
    """The WebSocket URL of a table: ``http(s)://host:port`` becomes ``ws(s)://host:port/api/tables/ID/ws``.

    ``lang`` asks the server for its texts in that language (``?lang=``).
    """
    parts = urlsplit(server if "://" in server else f"http://{server}")
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise OnlineError(
            _("--server takes an address like http://127.0.0.1:8000, not {server!r}").format(server=server)
        )
    query = "&".join(f"{k}={quote(v)}" for k, v in (("token", token), ("lang", lang)) if v)
    return urlunsplit((scheme, parts.netloc, f"/api/tables/{quote(table)}/ws", query, ""))


class _Quit(Exception):
    """The user typed ``quit`` or ended the input while the others played."""


class LineReader:
    """The terminal's lines, read by a daemon thread into :attr:`lines` (None once the input has ended).

    Args:
        ask: reads one line (``input``; called with an empty prompt); raises ``EOFError`` when input ends.
    """

    def __init__(self, ask: Callable[[str], str]) -> None:
        self.ask = ask
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, name="meeple-terminal-lines", daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                line = self.ask("")
            except (EOFError, KeyboardInterrupt, OSError):
                self.lines.put(None)
                return
            self.lines.put(line)


class OnlineSession:
    """One terminal at a server's table.

    Args:
        console: where to draw.
        ask: reads one line (``input``); raises ``EOFError`` when input ends. Used at the move prompt only, when
            ``lines`` is None.
        socket: a connected ``websockets.sync`` client connection.
        reconnect: opens a new connection after the last one was lost (None: a lost connection ends the session).
        lines: the user's lines as a :class:`LineReader` queues them (None at the end of input). When given, the
            move prompt reads from it, and while the session waits for the server (the others' turns, a move's
            ack, a table still waiting for players) it reads the socket with a :data:`TICK` s timeout and handles
            the lines typed meanwhile: ``say``, ``mute``, ``unmute``, ``board``, ``help``, ``quit``.
    """

    def __init__(
        self,
        console: Console,
        ask: Any,
        socket: Any,
        reconnect: Callable[[], Any] | None = None,
        lines: queue.Queue[str | None] | None = None,
    ) -> None:
        self.console = console
        self.ask = ask
        self.lines = lines
        self.socket = socket
        self.reconnect = reconnect
        self.seat: int | None = None
        self.renderer: Renderer | None = None
        self.last: dict[str, Any] | None = None
        self.pending: list[str] = []
        self.names: list[str] = []
        """The seats' names from the last state frame (texts sent by strangers: always escaped when shown)."""
        self.chat_seen: list[tuple[Any, ...]] = []
        """The last chat lines shown (time, seat, text): a reconnection's history is not shown twice."""
        self.backoff = 0.5
        """Seconds before the next reconnection attempt (doubles up to 5 s; back to 0.5 s once a state comes)."""
        self.unacked: dict[str, Any] | None = None
        """The move sent and not yet acknowledged: resent, with its ``move_id``, after a reconnection."""
        self.muted: bool | None = None
        """The last ``mute``/``unmute`` typed (None: never): the server keeps it per connection, so it is sent again
        after a reconnection."""
        self.held: collections.deque[dict[str, Any]] = collections.deque()
        """Frames that came while the move prompt waited (other than chat lines, shown at once): handled next."""
        self.note: str | None = None
        """Why a ``--user`` who asked for a seat watches as a spectator (the server's refusal), shown at the hello."""

    def receive(self) -> dict[str, Any]:
        """The next message from the server (with ``lines``: the lines typed while it comes are handled).

        Raises:
            _Quit: the user typed ``quit`` or ended the input meanwhile.
        """
        if self.held:
            return self.held.popleft()
        if self.lines is None:
            message: dict[str, Any] = json.loads(self.socket.recv())
            return message
        while True:
            self._typed_while_waiting()
            try:
                text = self.socket.recv(timeout=TICK)
            except TimeoutError:
                continue
            message = json.loads(text)
            return message

    def _typed_while_waiting(self) -> None:
        """Handle the lines typed since the last look: chat commands, ``board``, ``help``; a move is not asked for.

        Raises:
            _Quit: ``quit``, or the input has ended.
        """
        assert self.lines is not None
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None or line.strip().lower() in QUIT_WORDS:
                raise _Quit
            if not line.strip() or self._chat_command(line):
                continue
            word = line.strip().lower()
            if word in BOARD_WORDS and self.last is not None and self.renderer is not None:
                self.console.print(self.renderer.render(self.last["observation"], self.seat))
            elif word in HELP_WORDS:
                self._help()
            else:
                note = _("Not your turn: while the others play, type say TEXT, mute, unmute, board or quit.")
                self.console.print(f"[yellow]{escape(note)}[/]")

    def _ask(self, prompt: str) -> str:
        """One line at the move prompt: ``ask``, or the next line of ``lines`` (EOFError at the end of input)."""
        if self.lines is None:
            return str(self.ask(prompt))
        self.console.print(escape(prompt), end="")
        while True:
            try:
                line = self.lines.get(timeout=TICK)
            except queue.Empty:
                if self._chat_meanwhile():
                    self.console.print(escape(prompt), end="")
                continue
            if line is None:
                raise EOFError
            return line

    def _chat_meanwhile(self) -> bool:
        """Read what came while the move prompt waits; True if a chat line was shown (the prompt is shown again).

        Chat lines are shown at once (issue #44: they waited for the move), other frames are kept for :meth:`receive`.
        """
        shown = False
        while True:
            try:
                text = self.socket.recv(timeout=0)
            except TimeoutError:
                return shown
            message = json.loads(text)
            if message.get("type") == "chat":
                if not shown:
                    self.console.print()
                self._chat(message)
                shown = True
            else:
                self.held.append(message)

    def run(self) -> int:
        """Play until the game is over (0) or the user quits (1), reconnecting after a lost connection.

        Raises:
            OnlineError: the server refused, broke the protocol, or stayed unreachable for :data:`RECONNECT_FOR` s.
            websockets.exceptions.ConnectionClosed: the connection was lost and ``reconnect`` is None.
        """
        from websockets.exceptions import ConnectionClosed

        while True:
            try:
                return self._connection()
            except _Quit:
                return 1
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
                if self.reconnect is None or code in _NO_RECONNECT:
                    raise
                self._reconnect()

    def _reconnect(self) -> None:
        """Open a new connection (the server's table goes on meanwhile); wait longer after each failed attempt."""
        from websockets.exceptions import InvalidHandshake

        assert self.reconnect is not None
        lost = _("Connection lost; reconnecting...")
        self.console.print(f"[yellow]{escape(lost)}[/]")
        end = time.monotonic() + RECONNECT_FOR
        while True:
            time.sleep(self.backoff)  # a server closing with 1013 ("try again later") is not hammered
            self.backoff = min(2 * self.backoff, 5.0)
            try:
                self.socket = self.reconnect()
                self.held.clear()  # the new connection sends the state again
                return
            except (OSError, InvalidHandshake):
                if time.monotonic() + self.backoff > end:
                    raise OnlineError(_("the server stayed unreachable; the game goes on without you")) from None

    def _connection(self) -> int:
        """One connection: the hello, then the frames until the game is over or the user quits."""
        hello = self.receive()
        if hello.get("type") == "error":
            raise OnlineError(_("the server refused: {message}").format(message=hello.get("message")))
        if hello.get("type") != "hello" or hello.get("protocol") != PROTOCOL:
            raise OnlineError(
                _("not a meeple server (protocol {got!r}, expected {expected!r})").format(
                    got=hello.get("protocol"), expected=PROTOCOL
                )
            )
        self.seat = hello["seat"]
        self.renderer = renderer_for(hello["game"])
        who = _("a spectator") if self.seat is None else _("seat {seat}").format(seat=self.seat)
        line = _("{game} at table {table}: you are {who}.").format(game=hello["game"], table=hello["table"], who=who)
        if self.last is None:
            self.console.print(f"[bold]{escape(line)}[/]")
            if self.seat is None and self.note:
                self.console.print(f"[yellow]{escape(self.note)}[/]")
        if self.muted is not None:  # the server's mute lasts one connection
            self.socket.send(json.dumps({"type": "mute", "spectators": self.muted}))
        fresh = True
        while True:
            message = self.receive()
            if message["type"] == "error":
                self._error(message)
                continue
            if message["type"] == "ack":
                if self.unacked is not None and message["move_id"] == self.unacked["move_id"]:
                    if self.unacked["type"] == "undo":
                        done = _("Taken back: you are at your previous decision again.")
                        self.console.print(f"[yellow]{escape(done)}[/]")
                    sent_at, self.unacked = self.unacked["version"], None
                    last = self.last
                    # a move raises the version, an undo lowers it: either way the state after it came first
                    if last is not None and last["legal_actions"] and last["version"] != sent_at:
                        if not self._turn(last):  # the state after the move came before its ack
                            return 1
                continue
            if message["type"] == "chat":
                self._chat(message)
                continue
            if message["type"] == "undone":
                who = _("{name} took back a move.").format(name=self._name(message["seat"]))
                self.console.print(f"[yellow]{escape(who)}[/]")
                continue
            if message["type"] != "state":
                continue
            if fresh and self.unacked is not None:  # reconnected: the move may not have reached the server
                self.socket.send(json.dumps(self.unacked))
            fresh, self.backoff = False, 0.5
            self._show(message)
            if message["status"] == "waiting":
                continue
            if message["status"] != "live":  # finished, abandoned (nobody moved for --idle-days) or aborted
                self._final(message)
                return 0
            if message["legal_actions"] and self.unacked is None:
                if not self._turn(message):
                    return 1

    def _name(self, seat: int) -> str:
        """What ``seat`` is called: "You", its name from the last frame, or "Seat N"."""
        if seat == self.seat:
            return _("You")
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return _("Seat {seat}").format(seat=seat)

    def _chat(self, message: dict[str, Any]) -> None:
        """Print a chat line: its sender's name (marked as a spectator's when it is one) and its text, escaped."""
        key = (message.get("time"), message.get("seat"), message.get("text"))
        if key in self.chat_seen:  # the history sent again after a reconnection
            return
        self.chat_seen = [*self.chat_seen[-99:], key]
        name = str(message.get("name", ""))
        if message.get("seat") is None:
            name = _("{name} (watching)").format(name=name)
        self.console.print(f"[cyan]{escape(name)}[/] » {escape(str(message.get('text', '')))}")

    def _error(self, message: dict[str, Any]) -> None:
        """Show a refusal; a move the server could not commit (``server_error``) is sent again a moment later."""
        self.console.print(f"[red]{escape(message['message'])}[/]")
        if self.unacked is None or message.get("move_id") != self.unacked["move_id"]:
            return
        if message["code"] == "server_error":
            time.sleep(1.0)
            self.socket.send(json.dumps(self.unacked))
        else:
            self.unacked = None  # refused: the state that follows asks again

    def _show(self, message: dict[str, Any]) -> None:
        self.names = [str(s.get("name") or _("Seat {seat}").format(seat=s["seat"])) for s in message["seats"]]
        if message["status"] == "waiting" and (self.last is None or self.last["seats"] != message["seats"]):
            free = sum(1 for s in message["seats"] if s.get("open"))
            line = _("Waiting for players: {free} open seats. The game starts when they are taken.").format(free=free)
            self.console.print(f"[yellow]{escape(line)}[/]")
        for actor, text in message["log"]:
            self.console.print(f"  {escape(self._name(actor))}: {escape(text)}")
        changed_turn = self.last is None or self.last["current_player"] != message["current_player"]
        for s in message["seats"]:
            if s["bot_played"] and (self.last is None or not self.last["seats"][s["seat"]]["bot_played"]):
                if s["reason"] == "time":
                    why = _("{name} is out of time: a bot plays it until they return.")
                else:
                    why = _("{name} is away: a bot plays it until they return.")
                self.console.print(f"[yellow]{escape(why.format(name=self._name(s['seat'])))}[/]")
        self.last = message
        mine = bool(message["legal_actions"]) and not self.pending
        if mine or message["status"] != "live" or (self.seat is None and changed_turn):
            assert self.renderer is not None
            self.console.print(self.renderer.render(message["observation"], self.seat))

    def _turn(self, message: dict[str, Any]) -> bool:
        """Ask for a move and send it; False if the user quits."""
        legal = message["legal_actions"]
        texts = [a["text"] for a in legal]
        english = [str(Message.from_json(a["message"])) for a in legal]
        if self.pending:
            wanted = self.pending.pop(0).lower()
            for a, source in zip(legal, english, strict=True):
                if wanted in (a["text"].lower(), source.lower()):
                    self._send(message, a)
                    return True
            self.pending.clear()
            again = _("{move} is no longer legal: choose again.").format(move=wanted)
            self.console.print(f"[red]{escape(again)}[/]")
        for k, text in enumerate(texts, 1):
            self.console.print(f"  {k:>3}. {escape(text)}")
        assert self.renderer is not None
        while True:
            try:
                line = self._ask(_("Your move: "))
            except EOFError:
                return False
            if self._chat_command(line):
                continue
            parsed = interpret(line, texts, self.renderer.parse_input, english)
            if isinstance(parsed, Problem):
                self.console.print(f"[red]{escape(parsed.message)}[/]")
                continue
            if isinstance(parsed, Command):
                if parsed.name == "quit":
                    return False
                if parsed.name == "board":
                    self.console.print(self.renderer.render(message["observation"], self.seat))
                elif parsed.name == "undo":  # the server decides (its engine's undo: within your turn, no reveal)
                    self.unacked = {"type": "undo", "version": message["version"], "move_id": secrets.token_hex(8)}
                    self.socket.send(json.dumps(self.unacked))
                    return True
                else:
                    self._help()
                continue
            assert isinstance(parsed, Moves)
            first, *rest = parsed.texts
            self.pending = list(rest)
            first = first.lower()
            self._send(
                message, next(a for a, e in zip(legal, english, strict=True) if first in (a["text"].lower(), e.lower()))
            )
            return True

    def _help(self) -> None:
        """What can be typed: moves, commands, chat."""
        self.console.print(
            _("Type a move number, its text or a unique prefix; board; undo (your moves of this turn); quit.")
        )
        self.console.print(_("Chat: say TEXT; mute or unmute the spectators."))
        if self.renderer is not None and self.renderer.shortcuts:
            self.console.print(escape(known(self.renderer.shortcuts)), soft_wrap=True)

    def _chat_command(self, line: str) -> bool:
        """``say TEXT`` (send a chat line), ``mute`` or ``unmute`` (spectators' lines); False for anything else."""
        words = line.strip().split(maxsplit=1)
        if not words:
            return False
        command = words[0].lower()
        if command in ("say", _("say")) and len(words) == 2:
            self.socket.send(json.dumps({"type": "chat", "text": words[1]}))
            return True
        if command in ("mute", "unmute", _("mute"), _("unmute")) and len(words) == 1:
            muted = self.muted = command in ("mute", _("mute"))
            self.socket.send(json.dumps({"type": "mute", "spectators": muted}))
            note = _("Spectators' chat is hidden.") if muted else _("Spectators' chat is shown.")
            self.console.print(escape(note))
            return True
        return False

    def _send(self, message: dict[str, Any], action: dict[str, Any]) -> None:
        self.unacked = {
            "type": "move",
            "version": message["version"],
            "action": action["code"],
            "move_id": secrets.token_hex(8),
        }
        self.socket.send(json.dumps(self.unacked))

    def _headline(self, returns: list[float]) -> str:
        """The headline, by the players' names: "You win", "Ann wins", "Winners: Ann, Bob" or "Winner: nobody"."""
        best = max(returns)
        winners = [s for s, value in enumerate(returns) if value == best and best > 0]
        if len(winners) == 1 and winners[0] == self.seat:
            return _("You win")
        if len(winners) == 1:
            return _("{player} wins").format(player=self._name(winners[0]))
        names = ", ".join(self._name(s) for s in winners) or _("nobody")
        return ngettext("Winner: {names}", "Winners: {names}", max(1, len(winners))).format(names=names)

    def _final(self, message: dict[str, Any]) -> None:
        """The end: who won, by the players' names ("Ann wins", "You win"), then each seat's name and result.

        The board above names seats by number; the lines here tie each number to its player's name (issue #41,
        item 18).
        """
        if message["status"] == "abandoned":
            self.console.print(escape(_("Nobody moved at this table for too long: the server ended it as abandoned.")))
        if message["status"] == "aborted":
            why = ABORTS.get(message.get("ended") or "")
            reason = current().message(why) if why is not None else _("aborted")
            self.console.print(escape(_("The server aborted this table ({reason}): no result.").format(reason=reason)))
        returns = message.get("returns") or []
        if returns:
            self.console.print(f"[bold]{escape(self._headline(returns))}[/]")
        for seat, value in enumerate(returns):
            name = self.names[seat] if seat < len(self.names) else self._name(seat)
            if seat == self.seat:
                name = _("{seat} (you)").format(seat=name)
            label = _("seat {seat}").format(seat=seat)
            self.console.print(f"  {escape(label)} {escape(name)}: {value:g}")
        self.console.print(escape(_("The game is over. Its record: GET /api/tables/<id>/record.")))


def _base(server: str) -> tuple[str, str]:
    """``(scheme, netloc)`` of ``--server``.

    Raises:
        OnlineError: not an http(s) address.
    """
    base = urlsplit(server if "://" in server else f"http://{server}")
    if base.scheme not in ("http", "https") or not base.netloc:
        raise OnlineError(
            _("--server takes an address like http://127.0.0.1:8000, not {server!r}").format(server=server)
        )
    return base.scheme, base.netloc


def _post(server: str, path: str, body: dict[str, Any], session: str | None = None) -> tuple[dict[str, Any], Any]:
    """POST ``body`` as JSON to ``path`` of ``server`` (with the session cookie if any): the answer and its headers.

    Raises:
        OnlineError: the server refused (its message says why) or is unreachable.
    """
    import urllib.error
    import urllib.request

    url = urlunsplit((*_base(server), path, "", ""))
    headers = {"Content-Type": "application/json"}
    if session is not None:
        headers["Cookie"] = f"{SESSION_COOKIE}={session}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read()), answer.headers
    except urllib.error.HTTPError as exc:
        detail = json.loads(exc.read() or b"{}").get("detail", exc.reason)
        raise OnlineError(_("the server refused: {message}").format(message=detail)) from None
    except OSError as exc:
        raise OnlineError(_("cannot reach {server}: {error}").format(server=server, error=exc)) from None


def log_in(server: str, username: str, password: str) -> str:
    """Log in to ``server`` (``POST /api/session``); return the session token (the ``meeple_session`` cookie).

    Raises:
        OnlineError: a wrong username or password, a quota, or an unreachable server (the server's message).
    """
    from http.cookies import SimpleCookie

    _answer, headers = _post(server, "/api/session", {"username": username, "password": password})
    for value in headers.get_all("Set-Cookie") or []:
        cookie = SimpleCookie(value)
        if SESSION_COOKIE in cookie:
            return cookie[SESSION_COOKIE].value
    raise OnlineError(_("the server sent no session cookie"))


def take_seat(
    server: str,
    table: str | None,
    name: str | None,
    game: str | None = None,
    players: int = 0,
    session: str | None = None,
) -> tuple[str, str]:
    """Take a seat: the first open seat of ``table``, or else a quick-match seat of ``game``.

    Args:
        server: the server's address (``http://HOST:PORT``).
        table: the table id, or None for a quick match.
        name: the player's name (None with a ``session``: the account's username).
        game: the quick match's game (with ``table`` None).
        players: the quick match's player count.
        session: a session token (:func:`log_in`): the seat is bound to the account.

    Returns:
        ``(table, token)``.

    Raises:
        OnlineError: the server refused (full or started table, bad name: its message says which) or is unreachable.
    """
    body: dict[str, Any] = {} if name is None else {"name": name}
    if table is not None:
        path = f"/api/tables/{quote(table)}/join"
    else:
        path, body = "/api/quickmatch", {**body, "game": game, "players": players}
    data, _headers = _post(server, path, body, session)
    return str(data["table"]), str(data["token"])


def play_online(
    console: Console, server: str, table: str, token: str | None, login: str | None = None, note: str | None = None
) -> int:
    """Connect to a server's table and play it in the terminal; return the exit code.

    ``login`` (a :func:`log_in` session token) goes as the session cookie: a seat bound to the account opens without a
    token. ``note``: why the user watches as a spectator, printed if the server gives no seat.

    Raises:
        OnlineError: bad address, unreachable server, refused token, or a protocol error.
    """
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
    from websockets.sync.client import connect

    url = socket_url(server, table, token, current().lang)

    headers = {"Cookie": f"{SESSION_COOKIE}={login}"} if login is not None else None

    def open_socket() -> Any:
        return connect(
            url,
            additional_headers=headers,
            open_timeout=10,
            max_size=2**24,
            ping_interval=PING,
            ping_timeout=PING,
            close_timeout=2,
        )

    try:
        with open_socket() as socket:
            # at a terminal, lines typed while the others play are read too (chat); piped input keeps answering the
            # move prompts in order (a script's moves are not refused as typed out of turn)
            typed = LineReader(console.input).lines if sys.stdin.isatty() else None
            session = OnlineSession(console, console.input, socket, reconnect=open_socket, lines=typed)
            session.note = note
            try:
                return session.run()
            finally:
                if session.socket is not socket:
                    session.socket.close()
    except (OSError, InvalidHandshake, InvalidURI) as exc:
        raise OnlineError(_("cannot reach {server}: {error}").format(server=server, error=exc)) from None
    except ConnectionClosed as exc:
        raise OnlineError(_("the server closed the connection ({error})").format(error=exc)) from None
