"""What the shared board template needs beyond the view, and the accessible name of every clickable move.

The game's names and click codes, the prompt, the seat badges, the log with move numbers, the results.

Each clickable piece of the board carries the code of the legal action played on it. A board element is clickable
only when a legal action stands behind it: ``codes[(kind, key)]`` is that action's integer code, found from the legal
actions' JSON (``type`` and the fields the game's companion lists in ``clicks``). The move list under the board offers
every legal action too, so nothing depends on a board drawing every move.

Rules: issue "Play online: the browser client" (every legal move on the board, ``data-action-code``); issue #33 (the
prompt, human words, accessible names, the end screen).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

from meeple.i18n import N_, Message, Translator
from meeple.web.games import WebGame, companion_for, seat_name

BOT_LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"), "random": N_("random")}
"""The bot levels players choose in the lobby, in words (another bot spec reads "bot")."""
TITLE = re.compile(r'\s+title="[^"]*"')
CLICKABLE = re.compile(r"<(?P<tag>[a-z][a-z0-9]*)\b(?P<attrs>[^>]*?\bdata-action-code=\"(?P<code>\d+)\"[^>]*)>")


def action_codes(web: WebGame, legal: list[dict[str, Any]]) -> dict[tuple[Any, ...], int]:
    """Return ``(action type, *identifying fields) -> code`` for the legal actions a board can draw as clicks."""
    out: dict[tuple[Any, ...], int] = {}
    for action in legal:
        data = action["json"]
        fields = web.clicks.get(data["type"])
        if fields is not None:
            out[(data["type"], *(data[f] for f in fields))] = action["code"]
    return out


def board_context(
    game: str, view: dict[str, Any], seat: int | None, reader: Translator, names: Sequence[str | None] = ()
) -> dict[str, Any]:
    """Return the names and click codes the board template of ``game`` uses.

    Args:
        game: the registry name.
        view: ``game_view(state, seat, log, reader)`` (observation, legal actions with codes and texts).
        seat: the reader's seat (None: spectator).
        reader: the reader's language.
        names: the seats' chosen names (a seat is called by its player's name wherever it has one).

    Returns:
        ``{"codes", "pick", "seat_name", ...}`` plus the game companion's own names (``WebGame.context``).
    """
    web = companion_for(game)
    codes = action_codes(web, view["legal_actions"])

    def pick(*keys: tuple[Any, ...]) -> int | None:
        """The code of the first of ``keys`` that is a legal action (code 0 included), else None."""
        return next((codes[k] for k in keys if k in codes), None)

    def name(s: int) -> str:
        return web.seat_label(view["observation"], s, reader, seat, names)

    return {"codes": codes, "pick": pick, "seat_name": name, **web.context(view, seat, reader, names)}


def move_texts(web: WebGame, legal: list[dict[str, Any]], reader: Translator) -> list[dict[str, Any]]:
    """The legal moves as ``{"code", "text", "type"}``, their texts in human words (no ids, seats from 1)."""
    return [{"code": a["code"], "text": web.say(a["message"], reader), "type": a["json"]["type"]} for a in legal]


def display_name(seat: int, reader: Translator, me: int | None, names: Sequence[str | None] = ()) -> str:
    """A seat's name: the one its player chose (issue #34; escaped by the templates), else "Seat N"; "(you)" marked.

    The same as :func:`meeple.web.games.seat_name`.
    """
    return seat_name(seat, reader, me, names)


def who(player: str, reader: Translator) -> str:
    """A seat's player in words: "human", "open seat" (free, at a waiting table), "bot (medium)", "bot"."""
    if player == "human":
        return reader.gettext("human")
    if player == "open":
        return reader.gettext("open seat")
    level = BOT_LEVELS.get(player.removeprefix("bot:"))
    if level is None:
        return reader.gettext("bot")
    return reader.gettext("bot ({level})").format(level=reader.gettext(level))


def badges(
    web: WebGame,
    observation: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]] | None,
    players: int,
    reader: Translator,
    me: int | None,
    names: Sequence[str | None] = (),
) -> list[dict[str, Any]]:
    """One badge per seat: name, who plays it, online/away (humans), bot-played, the game's facts (gold, cards...).

    ``score`` is the seat's public score in words ("12 points", "" for a game without one), the side panel's chip.
    """
    out = []
    for s in range(players):
        info = seats[s] if seats is not None and s < len(seats) else None
        human = info is not None and info["player"] == "human"
        out.append(
            {
                "seat": s,
                "name": display_name(s, reader, me, names),
                "who": who(info["player"], reader) if info is not None else "",
                "online": bool(info["connected"]) if human and info is not None else None,
                "bot_played": bool(info and info["bot_played"]),
                "account": info.get("account") if info is not None else None,
                "rating": info.get("rating") if info is not None else None,
                "provisional": bool(info.get("provisional")) if info is not None else False,
                "facts": web.seat_facts(observation, s, reader),
                "score": web.seat_score(observation, s, reader),
            }
        )
    return out


def log_lines(
    web: WebGame,
    log: Sequence[tuple[int, Message]],
    reader: Translator,
    me: int | None,
    events: Sequence[Message] = (),
    names: Sequence[str | None] = (),
    notes: Sequence[tuple[int, int]] = (),
) -> list[dict[str, Any]]:
    """The log as ``{"number", "actor", "seat", "text", "said"}``: moves numbered from 1, seats by name, no ids.

    ``seat`` is the actor's seat (its colour in the side panel), None for a line of the rules (no actor); ``said`` is
    the line as shown, "Seat 2: build Market" (its colon spaced the reader's way).

    A line that is one of the rules' public ``events`` (a character revealed, a theft...) follows its move without a
    number of its own (``number`` None). A run of another seat's hidden steps is one line, so one number: the count
    is what the reader saw, never how many hidden steps there were. ``notes`` are the undos the reader saw, as
    ``(lines kept, seat)``: "took back a move" after that many lines (issue #43 item 5).
    """
    event_ids = {id(m) for m in events}
    said = reader.gettext("{seat}: {text}")
    out: list[dict[str, Any]] = []
    number = 0
    pending = sorted(notes)
    took_back = reader.gettext("took back a move")

    def noted(upto: int) -> None:
        while pending and pending[0][0] <= upto:
            seat = pending.pop(0)[1]
            name = display_name(seat, reader, me, names)
            line = {"number": None, "actor": name, "seat": seat, "text": took_back}
            out.append({**line, "said": said.format(seat=name, text=took_back)})

    noted(0)
    for index, (actor, message) in enumerate(log, 1):
        event = id(message) in event_ids
        number += 0 if event else 1
        name = display_name(actor, reader, me, names) if actor >= 0 else ""
        text = web.say(message, reader)
        out.append(
            {
                "number": None if event else number,
                "actor": name,
                "seat": actor if actor >= 0 else None,
                "text": text,
                "said": said.format(seat=name, text=text) if name else text,
            }
        )
        noted(index)
    return out  # a note past the end (an earlier board played back, or lines taken back since) is not shown


def name_the_moves(fragment: str, moves: Sequence[Mapping[str, Any]]) -> str:
    """Give every clickable element of ``fragment`` its move's words as ``title`` and ``aria-label`` (if it has none).

    The accessible name and the hover / long-press text of a piece are what playing it does ("assassinate the
    Thief"), not what the piece shows ("2 Thief").
    """
    texts = {str(m["code"]): html.escape(str(m["text"]), quote=True) for m in moves}

    def label(match: re.Match[str]) -> str:
        attrs = match.group("attrs")
        text = texts.get(match.group("code"))
        if text is None:
            return match.group(0)
        attrs = TITLE.sub("", attrs)
        extra = f' title="{text}"'
        if "aria-label=" not in attrs:
            extra += f' aria-label="{text}"'
        return f"<{match.group('tag')}{attrs}{extra}>"

    return CLICKABLE.sub(label, fragment)
