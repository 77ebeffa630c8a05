"""Each game's web companion: its board templates, stylesheet, clicks, prompts, words and results, in one place.

A game names its companion in its ``GameSpec.web`` (``"meeple.web.games.<game>:WEB"``), the way it names its terminal
renderer or heuristic bot; :func:`companion_for` loads it, and a game without one gets the generic :class:`WebGame`
(the move list and the shared components only). A companion is a :class:`WebGame` whose ``folder`` holds
``templates/board.html`` (the board, included by the shared ``board.html``), optionally ``templates/results.html``
(what the end screen adds under the ranking) and ``style.css`` (served at ``/games/<game>/style.css``).

Every text a companion returns is in the reader's language (``meeple.i18n``): labels are ``N_``-marked English
msgids, translated when shown.

Rules: issue #33 "A board for people" (items 2, 3, 7 and 10); docs/adding-a-game.md "The web companion".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from meeple.core.registry import game_spec
from meeple.i18n import N_, Message, Translator

WordRule = Callable[[Message], Message]
"""A rewrite of one vocabulary message into its human form (Capitol's ``roof7`` -> ``Roof 7``)."""

FLAG_IN_TEXT = re.compile(r"\b([a-z]+(?:_[a-z0-9]+)+)(?:=([A-Za-z0-9_]+))?|\b(True|False)\b")
"""A parameter name in a text written for the command line (``quick_game``, ``clerc_excludes_pink=False``)."""
SEAT_IN_TEXT = re.compile(r"\bseat \{seat\}", re.IGNORECASE)
"""An engine message naming a seat by its index (``swap hands with seat {seat}``): the web counts seats from 1."""


@dataclass(frozen=True)
class Variant:
    """A variant flag as players read it (``N_`` msgids, translated when shown).

    Attributes:
        label: its name ("Quick game").
        values: a word per value ("7 districts").
        help: what it does, in a player's words, for the lobby and the rules page (issue #43 item 8: no parameter
            name, value code or source tag such as ``fr1``, ``(IT)`` or ``FFG``; the command line keeps the
            parameter's own description).
        hidden: values the lobby does not offer (one it could not complete: Capital Lux 2's tiles chosen one by one
            need a list the form has no field for).
    """

    label: str
    values: Mapping[Any, str] = field(default_factory=dict)
    help: str = ""
    hidden: tuple[Any, ...] = ()


@dataclass
class Results:
    """The end screen: the ranking, a headline, the tie rule and the game's breakdown tables.

    Attributes:
        ranking: rows ``{"place", "seat", "name", "score", "winner"}`` best first (place 1 = winner; equal keys share
            a place).
        headline: one sentence ("Ann wins", "Seat 2 wins" for a seat without a name, "You win" for the reader's own,
            "You beat ROB by 10 — good").
        tie_rule: the rule that breaks equal scores, in words (named always, not only when it was used).
        tables: breakdown tables ``{"caption", "head": [str], "rows": [[str | int]]}`` (and ``"seats"``: the seat of
            each column after the first, for its colour; :func:`score_sheet`).
        won: the reader's seat won (None: a spectator or a shared table).
    """

    ranking: list[dict[str, Any]]
    headline: str
    tie_rule: str
    tables: list[dict[str, Any]] = field(default_factory=list)
    won: bool | None = None


def quoted(label: str, reader: Translator) -> str:
    """A name quoted in the reader's language: “Quick game” in English, «\u202fPartie rapide\u202f» in French."""
    return reader.gettext("“{label}”").format(label=label)


def score_sheet(
    caption: str, corner: str, players: Sequence[str], lines: Sequence[tuple[str, Sequence[Any]]]
) -> dict[str, Any]:
    """An end-screen table as a score sheet: one column per player, one row per kind of points, the total last.

    Players across and kinds of points down keep the table inside a 360 px screen for every player count, with its
    total visible without scrolling sideways (issue #43 item 8).

    Args:
        caption: the table's caption.
        corner: the head of the rows' labels ("" for none).
        players: the players' names, by seat.
        lines: ``(label, one value per player)``, top to bottom.

    Returns:
        ``{"caption", "head", "rows", "seats"}`` (:class:`Results` ``tables``; ``seats``: each column's seat).
    """
    return {
        "caption": caption,
        "head": [corner, *players],
        "rows": [[label, *values] for label, values in lines],
        "seats": list(range(len(players))),
    }


def either(options: Sequence[str], reader: Translator) -> str:
    """Options as one sentence: "Choose a character to rob, take 2 gold or draw cards" (the first word capitalised).

    A prompt names every kind of move on the board (issue #43 item 8), joined the reader's way ("…, … ou …").
    """
    if not options:
        return ""
    text = options[0]
    if len(options) > 1:
        text = reader.gettext("{options} or {last}").format(options=", ".join(options[:-1]), last=options[-1])
    return text[:1].upper() + text[1:]


def seat_name(seat: int, reader: Translator, me: int | None = None, names: Sequence[str | None] = ()) -> str:
    """A seat as players call it: the name its player chose, else "Seat 1" for seat 0; "(you)" for the reader's own.

    Args:
        seat: the seat (from 0).
        reader: the reader's language.
        me: the reader's seat (None: a spectator).
        names: each seat's chosen name (the table's; None or missing: none), e.g. ``["Ann", None]``. A player's name
            stands wherever the seat is named: badges, log, board, end screen, replay (issue #41, item 18).
    """
    chosen = names[seat] if 0 <= seat < len(names) else None
    name = chosen or reader.gettext("Seat {number}").format(number=seat + 1)
    return reader.gettext("{seat} (you)").format(seat=name) if seat == me else name


class WebGame:
    """The generic companion (no board drawing: the shared components and the move list); games subclass it.

    Attributes:
        name: the registry name.
        folder: the folder of ``templates/`` and ``style.css`` (None: nothing of its own).
        clicks: action type -> the JSON fields naming the board element it is played on.
        controls: the action types no piece stands for, drawn as the turn bar's buttons (take gold, pass...).
        variants: parameter name -> its :class:`Variant` (lobby and rules page).
        words: ``(context, msgid)`` of a vocabulary message -> its human form (card names without ids).
        tie_rule: how equal scores are broken (``N_`` msgid).
        past: an action's or event's msgid -> the same in the past with its player, ``{actor}`` (an ``N_`` msgid; a
            plural message maps to a ``plural(...)`` message): the turn summary's sentences ("{actor} assassinated
            {character}"). A ``{seat}`` in it reads as that seat's name.
        pitch: the game in one line, for the lobby (``N_`` msgid; "" for none).
    """

    name = ""
    folder: Path | None = None
    clicks: Mapping[str, tuple[str, ...]] = {}
    controls: tuple[str, ...] = ()
    variants: Mapping[str, Variant] = {}
    words: Mapping[tuple[str | None, str], WordRule] = {}
    tie_rule = N_("Equal scores share the win.")
    past: Mapping[str, str | Message] = {}
    pitch = ""

    # ---------------------------------------------------------------- what a move acted on (issue #43)
    def marks(self, action: Mapping[str, Any], actor: int) -> list[str]:
        """The ``data-key`` of the board elements a move acted on (its JSON, as its reader saw it in full).

        Keys name stable identities, never a position on the screen: ``seat-2``, ``character-4``, ``tower-C``,
        ``zone-3``, ``card-61``. The page marks them until its reader's next decision. None here.
        """
        return []

    def event_marks(self, message: Message, seat: int) -> list[str]:
        """The ``data-key`` of what one of the rules' public events named (a character revealed); none here."""
        return []

    # ---------------------------------------------------------------- words
    def human(self, message: Message) -> Message:
        """``message`` with every vocabulary word in its human form and seats counted from 1 (nested args too)."""
        rule = self.words.get((message.context, message.msgid))
        if rule is not None:
            message = rule(message)  # then its arguments, which may be words too
        args: dict[str, Any] = {}
        changed = False
        for key, value in message.args.items():
            new = self.human(value) if isinstance(value, Message) else value
            if key == "seat" and isinstance(value, int) and SEAT_IN_TEXT.search(message.msgid):
                new = value + 1
            changed = changed or new is not value
            args[key] = new
        if not changed:
            return message
        return Message(message.msgid, args, message.context, message.plural)

    def say(self, message: Message | Mapping[str, Any], reader: Translator) -> str:
        """Render a message (or its JSON form) in the reader's language, in human words."""
        found = message if isinstance(message, Message) else Message.from_json(message)
        return reader.message(self.human(found))

    def flag_words(self, text: str, reader: Translator) -> str:
        """``text`` with every variant flag's name, value and ``True``/``False`` in words ("“Quick game”: 7")."""
        values = {str(v): word for variant in self.variants.values() for v, word in variant.values.items()}

        def word(match: re.Match[str]) -> str:
            name, value, boolean = match.groups()
            if boolean is not None:
                return reader.gettext(N_("yes") if boolean == "True" else N_("no"))
            variant = self.variants.get(name)
            if variant is None:
                return reader.gettext(values[name]) if name in values else match.group(0)
            out = quoted(reader.gettext(variant.label), reader)
            if value is not None:
                known = {str(k): w for k, w in variant.values.items()}
                said = reader.gettext(known[value]) if value in known else value
                out = reader.gettext("{label}: {value}").format(label=out, value=said)
            return out

        return FLAG_IN_TEXT.sub(word, text)

    # ---------------------------------------------------------------- the board
    def context(
        self, view: dict[str, Any], seat: int | None, reader: Translator, names: Sequence[str | None] = ()
    ) -> dict[str, Any]:
        """What the game's board template needs beyond the view (names in the reader's language); none here.

        ``names``: the seats' chosen names (:func:`seat_name`), the same in every hook below.
        """
        return {}

    def prompt(self, view: dict[str, Any], seat: int | None, reader: Translator) -> str:
        """What the reader is asked now, in words (the legal actions' types and the observation say it)."""
        return reader.gettext("Choose your move") if view["legal_actions"] else ""

    def round_phase(self, observation: Mapping[str, Any], reader: Translator) -> str:
        """The round and phase for the header ("Round 3 · draft"), "" when the game has none."""
        return ""

    def seat_facts(self, observation: Mapping[str, Any], seat: int, reader: Translator) -> list[str]:
        """Short public facts of a seat for its badge ("3 gold", "4 cards", "crown"); none here."""
        return []

    def seat_score(self, observation: Mapping[str, Any], seat: int, reader: Translator) -> str:
        """A seat's public score in words for the side panel's bar ("12 points"); "" when the game shows none."""
        return ""

    def seat_label(
        self,
        observation: Mapping[str, Any],
        seat: int,
        reader: Translator,
        me: int | None = None,
        names: Sequence[str | None] = (),
    ) -> str:
        """How the board names ``seat``: its player's name, else "Seat 2", "Seat 1 (you)" (:func:`seat_name`).

        A game may name a seat its own way (Capital Lux 2's ROB); ``names`` as :func:`seat_name` takes them.
        """
        return seat_name(seat, reader, me, names)

    def secrets(self, observation: Mapping[str, Any], reader: Translator) -> list[str]:
        """What only this seat knew, in words (its hand...), for the replay's full view; none here."""
        return []

    def tooltips(self, reader: Translator) -> dict[str, str]:
        """Rules texts for pieces (characters, tiles, purple districts), shown on hover and on the rules page."""
        return {}

    # ---------------------------------------------------------------- the end
    def breakdown(
        self,
        observation: Mapping[str, Any],
        scores: Sequence[float],
        reader: Translator,
        me: int | None,
        names: Sequence[str | None] = (),
    ) -> list[dict[str, Any]]:
        """The game's breakdown tables for the end screen (see :class:`Results`), seats by name; none here."""
        return []

    def tiebreak_keys(self, observation: Mapping[str, Any], seats: int) -> list[tuple[float, ...]]:
        """Per seat, what ranks equal scores (most first); the generic: nothing."""
        return [() for _ in range(seats)]

    def results(
        self,
        observation: Mapping[str, Any],
        returns: Sequence[float],
        scores: Sequence[float],
        reader: Translator,
        me: int | None,
        names: Sequence[str | None] = (),
    ) -> Results:
        """The end screen: ranked by score then the game's tiebreak; winners are the seats whose return is best.

        Args:
            observation: the reader's final observation.
            returns: ``state.returns()`` (1.0 per winner).
            scores: ``state.scores()`` (points).
            reader: the reader's language.
            me: the reader's seat (None: spectator).
            names: the seats' chosen names: "Ann wins", not "Seat 2 wins" (:func:`seat_name`).
        """
        seats = len(returns)
        keys = self.tiebreak_keys(observation, seats)
        best = max(returns) if returns else 0.0
        order = sorted(
            range(seats), key=lambda s: (-(returns[s] == best and best > 0), -scores[s], *(-k for k in keys[s]))
        )
        ranking: list[dict[str, Any]] = []
        for index, s in enumerate(order):
            shared = index and (scores[s], keys[s]) == (scores[order[index - 1]], keys[order[index - 1]])
            place = ranking[-1]["place"] if shared else index + 1
            winner = best > 0 and returns[s] == best
            ranking.append(
                {
                    "place": place,
                    "seat": s,
                    "name": self.seat_label(observation, s, reader, me, names),
                    "score": scores[s],
                    "winner": winner,
                }
            )
        winners = [r["name"] for r in ranking if r["winner"]]
        if len(winners) == 1 and me is not None and ranking[0]["seat"] == me:
            headline = reader.gettext("You win")
        elif len(winners) == 1:
            headline = reader.gettext("{seat} wins").format(seat=winners[0])
        elif winners:
            headline = reader.gettext("{seats} share the win").format(seats=", ".join(winners))
        else:
            headline = reader.gettext("Nobody wins")
        return Results(
            ranking=ranking,
            headline=headline,
            tie_rule=reader.gettext(self.tie_rule),
            tables=self.breakdown(observation, scores, reader, me, names),
            won=None if me is None or me >= seats else bool(returns[me] == best and best > 0),
        )


GENERIC = WebGame()


@cache
def companion_for(game: str) -> WebGame:
    """The web companion of ``game`` (its ``GameSpec.web``), else the generic one.

    Raises:
        InvalidParameterError: no game has that name.
    """
    spec = game_spec(game)
    if not spec.web:
        return GENERIC
    found = spec.load("web")
    if not isinstance(found, WebGame):
        raise TypeError(f"{spec.web} is not a meeple.web.games.WebGame")
    return found


def variant_words(game: str, names: Sequence[str]) -> dict[str, Variant]:
    """The :class:`Variant` of each parameter in ``names`` (a parameter the companion forgot reads as itself)."""
    known = companion_for(game).variants
    return {n: known.get(n, Variant(n)) for n in names}


__all__ = [
    "GENERIC",
    "Results",
    "Variant",
    "WebGame",
    "companion_for",
    "either",
    "score_sheet",
    "quoted",
    "seat_name",
    "variant_words",
]
