"""The messages of the game server, as pydantic models (REST bodies and WebSocket frames).

Every message the server reads is validated by one of these models; every message it writes is built from one, so
the OpenAPI schema FastAPI serves (``/openapi.json``) documents the whole protocol. docs/server.md explains it.

Rules: issue "Play online: an authoritative game server" (the protocol); architecture "Playing online".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StringConstraints,
    model_validator,
)

from meeple.core.params import MAX_TEXT
from meeple.server.people import MAX_CHAT, MAX_NAME, RAW_FACTOR, clean_chat, clean_name

PROTOCOL_VERSION = "meeple-server/1"
"""Sent in the ``hello`` frame; a client refuses a server speaking another protocol."""

TableStatus = Literal["waiting", "live", "finished", "abandoned", "aborted"]
"""``waiting``: open seats are free, the game has not started; ``abandoned``: nobody moved for ``--idle-days`` (or
nobody took the open seats within a day); the game is over without a result; ``aborted``: it was never really played
(a seat that never came, a rated seat gone before its first move, a server full of unstarted tables: ``ended``
says which), no result and nobody rated."""
AbortReason = Literal["no_show", "no_move", "server_full", "lapsed", "declined", "resigned"]
"""Why a table was aborted (:data:`meeple.server.endings.ABORTS`: ``lapsed`` and ``declined`` are rematch offers that
not everyone accepted), or ``resigned``: a finished table that ended when a player resigned (issue #44, item 4)."""
INVITE_PATTERN = r"^[A-Za-z0-9_.-]{3,24}$"
"""A username as an invitation names it (:data:`meeple.server.accounts.USERNAME_CHARS`, 3-24 characters)."""


MAX_PARAMS = 16
"""Entries of ``CreateTable.params`` (the games have at most 14 parameters)."""
MAX_VALUE = 64
"""Characters of a parameter's name, of a seat spec and of the substitute's spec."""

ShortText = Annotated[str, StringConstraints(max_length=MAX_VALUE)]
ParamText = Annotated[str, StringConstraints(max_length=MAX_TEXT)]
ParamValue = StrictBool | StrictInt | StrictFloat | ParamText
"""A parameter's value: a string of at most :data:`meeple.core.params.MAX_TEXT` characters; each parameter's own
range (every game's ``params.py``: integers, string lengths, what a value expands to) is checked when the table is
made (:func:`meeple.core.params.build_params`) and when a stored table is loaded."""
PlayerName = Annotated[str, StringConstraints(max_length=RAW_FACTOR * MAX_NAME), AfterValidator(clean_name)]
"""A player's name: at most :data:`MAX_NAME` characters once stripped of control characters
(:func:`meeple.server.people.clean_name`); the raw input at most four times that."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


MAX_PER_MOVE = 14 * 86_400
"""Seconds at most per turn (``ClockSpec.per_move``): 14 days, the longest turn of a turn-based table."""
TURN_BASED = 3_600
"""Seconds per turn from which a clock without a bank is *turn-based*: an hour or more per move."""


def _check_per_move(value: float | None) -> float | None:
    if value is not None and not 0 < value <= MAX_PER_MOVE:
        raise ValueError(f"per_move is more than 0 and at most {MAX_PER_MOVE} seconds (14 days)")
    return value


class ClockSpec(_Strict):
    """A table's clock: a bank per seat with a Fischer increment, and an optional cap per turn (seconds).

    A *turn* is a run of consecutive decisions of one seat (a Citadels turn, a sealed bid entered card by card): the
    increment is added once when the turn passes, so the number of hidden steps in a turn changes no clock.

    Without ``initial`` there is no bank: each turn has ``per_move`` seconds, whatever the turns before took. Such a
    clock of an hour or more per move (:data:`TURN_BASED`) is *turn-based* (``{"per_move": 259200}``: three days a
    move): players come and go, and a player away on their turn may get an e-mail (:mod:`meeple.server.notify`).
    """

    initial: float | None = Field(
        default=None, gt=0, le=86_400, description="seconds in each seat's bank at the start (None: no bank)"
    )
    increment: float = Field(default=0, ge=0, le=3_600, description="seconds added to a bank after each turn")
    per_move: Annotated[float | None, AfterValidator(_check_per_move)] = Field(
        default=None,
        description=f"at most this many seconds per turn (more than 0, at most {MAX_PER_MOVE}: 14 days)",
        json_schema_extra={"exclusiveMinimum": 0, "maximum": MAX_PER_MOVE},
    )

    @model_validator(mode="after")
    def _a_limit(self) -> ClockSpec:
        if self.initial is None and self.per_move is None:
            raise ValueError("a clock needs initial (a bank, at most 86400 s) or per_move (at most 1209600 s)")
        if self.initial is None and self.increment:
            raise ValueError("increment adds to a bank: give initial too, or no increment with per_move alone")
        return self

    @property
    def turn_based(self) -> bool:
        """No bank and at least an hour per move (:data:`TURN_BASED`): a game played over hours or days."""
        return self.initial is None and self.per_move is not None and self.per_move >= TURN_BASED


class SeatRequest(_Strict):
    """One seat of a new table as an object: ``{"player": "human", "name": "Alice"}``.

    Only a ``human`` seat takes a name: a bot's name is its level, and an open seat is named by whoever takes it.
    """

    player: ShortText = Field(default="human", description='"human", "open" or "bot:<level>"')
    name: PlayerName | None = Field(default=None, description=f"the player's name (at most {MAX_NAME} characters)")
    invite: Annotated[str, StringConstraints(pattern=INVITE_PATTERN)] | None = Field(
        default=None,
        description="the username of the account invited to this seat: only it may take the seat (issue #44, item 2)",
    )

    @model_validator(mode="after")
    def _name_only_for_humans(self) -> SeatRequest:
        if self.invite is not None:
            if self.name is not None or "player" in self.model_fields_set:
                raise ValueError('an invited seat is {"invite": "USERNAME"} alone: the invited player names it')
            return self
        if self.name is not None and self.player != "human":
            raise ValueError(
                'only a "human" seat takes a name (a bot is named by its level, an open seat by its taker)'
            )
        return self


class CreateTable(_Strict):
    """``POST /api/tables``: a new table.

    ``seats`` has one entry per player: ``"human"``, ``"open"`` (a human seat anyone may take with
    ``POST /api/tables/{id}/join``), ``"bot:random"``, ``"bot:easy"``, ``"bot:medium"`` or ``"bot:hard"`` (a server
    started with ``--allow-bot-specs`` takes any bounded spec of :func:`meeple.bots.make_bot`, such as
    ``"bot:ismcts:500"``; :mod:`meeple.server.policy`), or an object :class:`SeatRequest` naming a human. Every field
    is bounded in size: at most :data:`MAX_PARAMS` parameters, strings of at most :data:`MAX_VALUE` characters.
    """

    game: ShortText = Field(description="a registered game name (GET /api/games lists them)")
    params: dict[ShortText, ParamValue] = Field(
        default_factory=dict, max_length=MAX_PARAMS, description='"players" and variant flags'
    )
    seats: Sequence[ShortText | SeatRequest] = Field(min_length=1, max_length=16)
    clock: ClockSpec | None = None
    grace: float | None = Field(
        default=None,
        gt=0,
        le=86_400,
        description="seconds a human seat may stay disconnected on its turn before a bot plays it (None: never)",
    )
    substitute: ShortText = Field(default="medium", description="bot spec playing a seat out of time or away")
    seed: int | None = Field(default=None, ge=0, lt=1 << 62, description="deal seed (default: random, secret)")
    rated: bool = Field(
        default=False,
        description="a rated table: its end updates the players' ratings; only logged-in players sit at it, so its"
        ' seats are one "human" (the creator, logged in) and "open" seats (no bots)',
    )

    def seat_specs(self) -> list[str]:
        """The seats' specs (``human``, ``open``, ``bot:...``), whichever form they were given in (invited: open)."""
        return [s if isinstance(s, str) else "open" if s.invite is not None else s.player for s in self.seats]

    def seat_invites(self) -> list[str | None]:
        """The username invited to each seat (None: no invitation)."""
        return [None if isinstance(s, str) else s.invite for s in self.seats]

    def seat_names(self) -> list[str | None]:
        """The name given for each seat (None: none)."""
        return [None if isinstance(s, str) else s.name for s in self.seats]


class JoinTable(_Strict):
    """``POST /api/tables/{id}/join``: take a free open seat under a name (a logged-in player's is their username)."""

    name: PlayerName | None = Field(
        default=None, description=f"the player's name (at most {MAX_NAME} characters); needed unless logged in"
    )


class QuickMatch(_Strict):
    """``POST /api/quickmatch``: a seat at the oldest waiting quick-match table of that game and player count."""

    game: ShortText = Field(description="a registered game name")
    players: int = Field(ge=1, le=16, description="the number of players")
    name: PlayerName | None = Field(
        default=None, description=f"the player's name (at most {MAX_NAME} characters); needed unless logged in"
    )
    rated: bool = Field(
        default=False, description="meet only logged-in players at a rated table (no bots fill it; log in first)"
    )


class StartTable(_Strict):
    """``POST /api/tables/{id}/start``: the creator starts a waiting table now, a bot in each open seat."""

    bot: ShortText = Field(default="medium", description="the bot level that takes the open seats")


class SeatToken(BaseModel):
    """One human seat's secret token: ``/api/tables/{id}/ws?token=...`` connects as that seat."""

    seat: int
    token: str


class TableCreated(BaseModel):
    """The answer to ``POST /api/tables`` (201): the only time the tokens are shown."""

    table: str
    seats: list[SeatToken]


class SeatTaken(SeatToken):
    """The answer to ``POST /api/tables/{id}/join`` and ``POST /api/quickmatch`` (201): the seat taken, its token."""

    table: str


class SeatInfo(BaseModel):
    """A seat as everybody sees it."""

    seat: int
    player: str = Field(description='"human", "open" (free: anyone may join) or "bot:<spec>"')
    name: str = Field(
        description='the player\'s name; a bot\'s level, "Seat N" or "open seat" (translated) when none was given'
    )
    open: bool = Field(description="a free seat of a waiting table")
    connected: bool = Field(description="a human seat with at least one open connection (bots: always true)")
    bot_played: bool = Field(description="a human seat played by the substitute bot (out of time or away)")
    reason: Literal["time", "away", "resign"] | None = Field(
        default=None, description="why the seat is bot-played (resign: its player resigned; it stays the bot's)"
    )
    account: str | None = Field(
        default=None, description="the username of the account this seat is bound to (its profile), or None"
    )
    forfeit: str | None = Field(
        default=None,
        description="why this seat of a rated table ranks last for the rating (time, away, claim, resign), or None",
    )
    invited: str | None = Field(
        default=None, description="the username an open seat is reserved for (an invitation or a rematch), or None"
    )
    rating: float | None = Field(
        default=None, description="at a rated table, the account's rating at the game (mu - 3 sigma), else None"
    )
    provisional: bool | None = Field(
        default=None, description="the rating is provisional (fewer than 5 rated games of the game), None without one"
    )


class ClockView(BaseModel):
    """The clocks as everybody sees them (seconds; ``deadline`` is a Unix time)."""

    spec: ClockSpec
    banks: list[float] = Field(description="seconds left per seat, at the start of the current turn")
    turn_seat: int | None = Field(description="the seat whose turn is running")
    deadline: float | None = Field(description="when the running turn times out (Unix seconds), or None")


class TableSummary(BaseModel):
    """A lobby entry: no secret."""

    table: str
    game: str
    params: dict[str, Any]
    seats: list[SeatInfo]
    status: TableStatus
    created: float
    clock: ClockView | None = Field(
        default=None, description="the table's clocks (a turn-based one: spec.per_move alone), as in state frames"
    )
    rated: bool = Field(default=False, description="a rated table (its end updates its players' ratings)")
    grace: float | None = Field(
        default=None, description="seconds an away human's turn waits before the substitute plays it (None: never)"
    )
    substitute: str = Field(default="medium", description="the bot that plays a seat out of time or away")
    ended: AbortReason | None = Field(default=None, description="why an aborted table was aborted, else None")


class TableView(TableSummary):
    """``GET /api/tables/{id}``: the lobby entry and the spectator's view of the game."""

    version: int = Field(description="the spectator's version (see StateMessage.version)")
    observation: dict[str, Any] = Field(description="the spectator's observation (observation(None))")
    log: list[tuple[int, str]] = Field(description="the spectator's (actor, text) log lines")
    returns: list[float] | None


class LegalAction(BaseModel):
    """One legal action of the seat to move: its integer code, its text for that seat, and its JSON form."""

    code: int
    text: str = Field(description="the action's text for that seat, in the connection's language")
    message: dict[str, Any] = Field(
        description="the same text as a message (msgid, args, context), to render in any language"
    )
    json_: dict[str, Any] = Field(alias="json")

    model_config = ConfigDict(populate_by_name=True)


class StateMessage(BaseModel):
    """Server → client after every change the receiver can see (and on connect).

    ``version`` counts the actions applied *as the receiver has seen them*: a run of another seat's hidden steps
    (a sealed bid entered card by card) counts once, so the number of those steps stays hidden (docs/decisions.md,
    "Server"). A move must carry the version of the last state its sender received.
    """

    type: Literal["state"] = "state"
    table: str
    version: int
    seat: int | None = Field(description="the receiver's seat, None for a spectator")
    status: TableStatus
    current_player: int | None = Field(description="the seat to move, None once the game is over")
    observation: dict[str, Any] = Field(description="exactly the engine's observation(seat) at this version")
    legal_actions: list[LegalAction] = Field(description="the receiver's legal actions (empty if not its turn)")
    log: list[tuple[int, str]] = Field(description="(actor, text) lines new since the receiver's last state")
    log_start: int = Field(description="index in the receiver's whole log of the first line of ``log``")
    seats: list[SeatInfo]
    clock: ClockView | None
    returns: list[float] | None = Field(description="the result once the game is over")
    ended: AbortReason | None = Field(default=None, description="why an aborted table was aborted, else None")
    bots_wait: float | None = Field(
        default=None,
        description="until when this table's bots wait (Unix seconds): the bot CPU budget of the address that"
        " created it is used up (--bot-cpu-per-address); None: they do not wait",
    )


class SlimStateMessage(BaseModel):
    """Server → client, instead of :class:`StateMessage`, on a connection opened with ``?view=web``.

    The browser client's frame: it comes exactly when the full frame would, with only these fields of it, and the
    page then fetches the board it draws (``GET /tables/{id}/board``) once (issue #33, "one fetch per change").
    """

    type: Literal["state"] = "state"
    table: str
    version: int = Field(description="as StateMessage.version")
    seat: int | None = Field(description="the receiver's seat, None for a spectator")
    status: TableStatus
    current_player: int | None = Field(description="the seat to move, None once the game is over")


class HelloMessage(BaseModel):
    """Server → client, first frame of a connection."""

    type: Literal["hello"] = "hello"
    protocol: str = PROTOCOL_VERSION
    table: str
    seat: int | None
    game: str
    params: dict[str, Any]
    lang: str = Field(
        "en", description="the language of this connection's texts (?lang=, else Accept-Language, else English)"
    )


class AckMessage(BaseModel):
    """Server → client: the move ``move_id`` is committed (also the answer to a resent ``move_id`` already applied).

    Only this frame acknowledges a move: a client keeps a move it sent until its ``ack`` comes, and resends it with
    the same ``move_id`` after a lost connection or a ``server_error`` (docs/server.md, "The client's duties").
    """

    type: Literal["ack"] = "ack"
    move_id: str
    version: int = Field(description="the receiver's version once the move is in (at least the move's version + 1)")


class PongMessage(BaseModel):
    """Server → client: the answer to ``ping``."""

    type: Literal["pong"] = "pong"


class ErrorMessage(BaseModel):
    """Server → client: a refused message. The connection stays open unless ``code`` is ``bad_token``.

    ``move_id`` names the refused move. ``server_error`` means the server could not commit it now (its database is
    unreachable): nothing changed, and the client resends the same move (same ``move_id``) a moment later.
    """

    type: Literal["error"] = "error"
    code: Literal[
        "bad_message",
        "bad_token",
        "stale_version",
        "not_your_turn",
        "illegal_action",
        "game_over",
        "spectator",
        "server_error",
        "not_started",
        "rate_limited",
        "cannot_undo",
    ]
    message: str
    move_id: str | None = None


class MoveMessage(_Strict):
    """Client → server: play an action (its integer code or its JSON form) at ``version``."""

    type: Literal["move"]
    version: int = Field(ge=0)
    action: StrictInt | dict[str, Any] = Field(description="the action's integer code or its JSON form")
    move_id: str = Field(min_length=1, max_length=64, description="client id; a repeated id is applied once")


class UndoMessage(_Strict):
    """Client → server: take back your moves to your previous decision of this turn (issue #43 item 5).

    Answered like a move: ``ack`` (the moves are taken back; a state frame follows) or ``error`` ``cannot_undo`` with
    the engine's reason (not your turn, nothing to take back in this turn, something revealed since). ``version``
    is the sender's, as for a move; a repeated ``move_id`` is applied once.
    """

    type: Literal["undo"]
    version: int = Field(ge=0)
    move_id: str = Field(min_length=1, max_length=64, description="client id; a repeated id is applied once")


class UndoneMessage(BaseModel):
    """Server → client: ``seat`` took moves back, and this receiver's view changed (its state frame follows).

    A receiver that saw nothing change (the undone steps were hidden from it) is not told.
    """

    type: Literal["undone"] = "undone"
    seat: int = Field(description="the seat that took its moves back")


class RematchMessage(BaseModel):
    """Server → client: the finished table's rematch changed (offered, accepted, started, lapsed or declined).

    Sent to every connection of the finished table (public: no token). Issue #44, item 1.
    """

    type: Literal["rematch"] = "rematch"
    of: str = Field(description="the finished table")
    table: str = Field(description="its rematch")
    status: TableStatus = Field(description="the rematch's status: waiting for acceptances, live, or aborted")
    ended: AbortReason | None = Field(description="lapsed or declined when the offer ended without a game")
    offered_by: int | None = Field(description="the finished table's seat that offered it")
    accepted: list[int] = Field(description="the finished table's seats that accepted (the offerer's included)")
    waiting_for: list[int] = Field(description="the finished table's seats that have not accepted yet")
    lapse_at: float | None = Field(description="when the offer lapses (Unix seconds) while it waits")


class InvitationMessage(BaseModel):
    """Server → client: the connection's account was invited to a table (issue #44, item 2).

    Sent to the connections that the invited account's session opened, at any table. No token: the account takes
    its seat with ``POST /api/tables/{id}/join``.
    """

    type: Literal["invitation"] = "invitation"
    table: str = Field(description="the table the account is invited to")
    game: str
    by: str | None = Field(description="the username of the table's creator")


class ReturnMessage(_Strict):
    """Client → server: a human takes their bot-played seat back."""

    type: Literal["return"]


class PingMessage(_Strict):
    """Client → server: ask for the current state again (answered with a ``state`` frame)."""

    type: Literal["sync"]


ChatText = Annotated[str, StringConstraints(max_length=RAW_FACTOR * MAX_CHAT), AfterValidator(clean_chat)]
"""A chat line: at most :data:`MAX_CHAT` characters once cleaned (:func:`meeple.server.people.clean_chat`; NFC may
make it longer, and cleaning shorter); the raw input at most four times that."""


class ChatSend(_Strict):
    """Client → server: a chat line to everyone at the table (a seat or a spectator)."""

    type: Literal["chat"]
    text: ChatText = Field(
        description=f"at most {MAX_CHAT} characters once cleaned (NFC; control and invisible characters removed)"
    )


class MuteMessage(_Strict):
    """Client → server: stop (or resume) receiving spectators' chat on this connection."""

    type: Literal["mute"]
    spectators: StrictBool = True


class ChatLine(BaseModel):
    """Server → client: a chat line (on arrival, the table's recent lines first)."""

    type: Literal["chat"] = "chat"
    seat: int | None = Field(description="the sender's seat, None for a spectator")
    name: str = Field(description="the sender's name (a seat's name, or \"spectator\" translated)")
    text: str = Field(description="plain text: escape it")
    time: float = Field(description="when the server received it (Unix seconds)")


class KeepaliveMessage(_Strict):
    """Client → server: is the connection alive? Answered with ``pong``.

    For clients that cannot send WebSocket pings, such as browsers.
    """

    type: Literal["ping"]


ClientMessage = Annotated[
    MoveMessage | UndoMessage | ReturnMessage | PingMessage | KeepaliveMessage | ChatSend | MuteMessage,
    Field(discriminator="type"),
]

WEBSOCKET_MESSAGES: tuple[type[BaseModel], ...] = (
    HelloMessage,
    StateMessage,
    SlimStateMessage,
    AckMessage,
    ErrorMessage,
    PongMessage,
    MoveMessage,
    UndoMessage,
    UndoneMessage,
    RematchMessage,
    InvitationMessage,
    ReturnMessage,
    PingMessage,
    KeepaliveMessage,
    ChatSend,
    MuteMessage,
    ChatLine,
)
"""The frames of ``/api/tables/{id}/ws``, added to the OpenAPI schema's components."""


class ReplayStep(BaseModel):
    """``GET /api/tables/{id}/replay``: a finished table at one version, from one seat or the full view."""

    table: str
    version: int
    versions: int = Field(description="how many actions the game has")
    seat: int | None
    observation: dict[str, Any] = Field(description="observation(seat), or the spectator's for the full view")
    seat_observations: list[dict[str, Any]] | None = Field(description="the full view: every seat's observation")
    log: list[tuple[int, str]] = Field(description="(actor, text) lines as the seat saw them (full texts if no seat)")
