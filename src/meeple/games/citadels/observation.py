"""Citadels observations: exactly what one seat (or a spectator) may know, as typed JSON-able dicts.

:class:`CitadelsObservation` is ``observation(player)``: ``player`` None is the spectator, who sees public
information only; "me" below is ``player``. Characters are numbers 1–8 (``CHARACTER_NAMES`` gives names). Each
field says who sees it: *public* (every seat and the spectator), *own* (only the seat it belongs to) or *the
chooser* (only the seat that must answer a pending decision). These types are the contract of every client (the
terminal renderer, the heuristic bots, the balance statistics and the web client): mypy checks every key read.

Rules: citadels.md §5.2 (what is public: gold, cities, hand sizes, face-up characters, calls, announcements).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from meeple.games.citadels.const import D_EXCHANGE, D_GRAVEYARD, D_KEEP
from meeple.games.citadels.data import CHARACTER_NAMES, COLOURS, KINDS
from meeple.games.citadels.rules import Score

if TYPE_CHECKING:
    from meeple.games.citadels.state import CitadelsState

_PHASES: tuple[Literal["draft", "turn", "end"], ...] = ("draft", "turn", "end")
_STATUS: dict[int, Literal["absent", "silent"]] = {-1: "absent", -2: "silent"}


class District(TypedDict):
    """A district card (data.py ``KINDS[kind]`` has the French name and the key)."""

    id: NotRequired[int]
    """The card id: only in my own hand and my own pending choice (own). Public districts carry no id: copies of
    a district are identical cards, and which copy a seat built must not tell which copies it still holds."""
    kind: int
    """The district kind (index into ``KINDS``)."""
    name: str
    """English name, e.g. ``"Temple"``."""
    colour: str
    """``"yellow"``, ``"blue"``, ``"green"``, ``"red"`` or ``"purple"``."""
    cost: int
    """Building cost in gold."""
    score: int
    """Points it scores in a city (the cost, except where a district says otherwise)."""


class PublicSeat(TypedDict):
    """One seat as the table sees it (public)."""

    seat: int
    gold: int
    """Gold coins."""
    hand_size: int
    """Cards in hand (never which)."""
    city: list[District]
    """Built districts, in build order."""
    city_size: int
    complete: bool
    """True once the city holds ``threshold`` districts."""
    revealed: list[int]
    """Characters of that seat revealed this round."""


class Call(TypedDict):
    """One call of a character this round (public)."""

    character: int
    name: str
    seat: int | None
    """The holder who answered, or None (absent, or killed: nobody answers)."""
    status: Literal["revealed", "absent", "silent"]
    """A killed character is always ``"silent"``, held or not; its holder is revealed at the end of the round."""


class PastCall(TypedDict):
    """One call of a finished round (public)."""

    round: int
    character: int
    name: str
    seat: int | None
    """The holder (the killed character's too), or None if nobody held it."""
    status: Literal["revealed", "absent", "assassinated"]


class KilledLastRound(TypedDict):
    """The character killed in the previous round and its holder, revealed at the round's end (public)."""

    character: int
    seat: int | None


class Characters(TypedDict):
    """The characters of the round (public)."""

    in_round: list[int]
    """The characters used in this game (player count and variants)."""
    faceup: list[int]
    """Removed face up this round."""
    facedown_count: int
    """Cards face down now (never which)."""
    calls: list[Call]
    """This round's calls, in call order."""
    current: int | None
    """The character playing now; None in the draft."""
    assassinated: int | None
    """The Assassin's announced target, or None."""
    robbed: int | None
    """The Thief's announced target, or None."""
    past_calls: list[PastCall]
    """Every call of the finished rounds, in order."""
    last_round_killed: KilledLastRound | None


class Draft(TypedDict):
    """The character draft of this round."""

    order: list[list[int | str]]
    """The steps ``[seat, "pick" | "discard"]`` of this round (public)."""
    step: int | None
    """Index of the current step; None after the draft (public)."""
    offered: list[int] | None
    """The characters offered to me now: own, and only while I am the seat to choose; else None."""
    seen: list[list[int]]
    """Every set of characters I was offered this round (own; ``[]`` for the spectator)."""
    returned: int | None
    """7 players, the last seat only: the initial face-down card it took (own); None before and for the others."""


class Turn(TypedDict):
    """The flags of the character playing (public)."""

    seat: int
    character: int
    action_taken: bool
    """The mandatory action (gold or cards) is done."""
    income_taken: bool
    power_used: bool
    laboratory_used: bool
    smithy_used: bool
    builds_left: int
    """Districts the character may still build this turn."""


class Pending(TypedDict):
    """The decision on top of the stack (its kind and player are public)."""

    kind: Literal["keep_card", "exchange", "destroy", "graveyard"]
    player: int
    """The seat that must answer."""
    keep: NotRequired[int]
    """``keep_card``: how many cards to keep (public)."""
    cards: NotRequired[list[District]]
    """``keep_card``: the drawn districts (the chooser only; the others get ``count``)."""
    selected: NotRequired[list[District]]
    """``exchange``: the districts selected so far (the chooser only; the others get ``count``)."""
    count: NotRequired[int]
    """``keep_card`` and ``exchange``, for everyone but the chooser: how many cards."""
    district: NotRequired[District]
    """``graveyard``: the destroyed district offered (public)."""


class Exchange(TypedDict):
    """A Magician's exchange with the deck (public at the table)."""

    round: int
    seat: int
    count: int
    """Cards put under the deck and drawn."""


class CitadelsObservation(TypedDict):
    """What ``player`` may know of a Citadels position (``observation(player)``)."""

    game: Literal["citadels"]
    seat: int | None
    """``player``; None for the spectator."""
    players: int
    phase: Literal["draft", "turn", "end"]
    round: int
    """Round number, from 1."""
    current_player: int
    """The seat to move (-4 once the game is over)."""
    crown: int
    """The seat holding the crown."""
    threshold: int
    """Districts that complete a city (8, 10, 7 or 6)."""
    deck_size: int
    """Cards left in the deck (never their order)."""
    seats: list[PublicSeat]
    hand: list[District] | None
    """My hand sorted by id (own); None for the spectator."""
    my_characters: list[int]
    """My characters this round (own; ``[]`` for the spectator)."""
    my_discarded: list[int]
    """Characters I put face down this round (own)."""
    characters: Characters
    draft: Draft
    turn: Turn | None
    """None in the draft."""
    pending: Pending | None
    exchanges: list[Exchange]
    first_complete: int | None
    """The seat that completed a city first, or None."""
    last_round: bool
    """True once a city is complete (the current round is the last)."""
    scores: list[Score]
    winners: list[int] | None
    """The winning seats at the end, else None."""


def district(kind: int, card: int | None = None) -> District:
    """Return the description of a district of kind ``kind``; with ``card``, its card id too (private cards only).

    Rules: citadels.md §5.2 (the copies of a district are identical cards: a public view names the kind only).
    """
    k = KINDS[kind]
    if card is None:
        return District(kind=kind, name=k.name, colour=COLOURS[k.colour], cost=k.cost, score=k.score)
    return District(id=card, kind=kind, name=k.name, colour=COLOURS[k.colour], cost=k.cost, score=k.score)


def build_observation(state: CitadelsState, player: int | None) -> CitadelsObservation:
    """Return the observation of ``player`` (None: spectator); :class:`CitadelsObservation` gives the schema."""
    g = state.game
    kinds = g.card_kind
    n = g.num_players
    revealed: list[list[int]] = [[] for _ in range(n)]
    for c, status in state.calls:
        if status >= 0:
            revealed[status].append(c)
    breakdowns = state.score_breakdowns()
    seats = [
        PublicSeat(
            seat=s,
            gold=state.gold[s],
            hand_size=len(state.hands[s]),
            city=[district(kinds[c]) for c in state.cities[s]],
            city_size=len(state.cities[s]),
            complete=len(state.cities[s]) >= g.threshold,
            revealed=revealed[s],
        )
        for s in range(n)
    ]
    me = player if player is not None and 0 <= player < n else None
    obs: CitadelsObservation = {
        "game": "citadels",
        "seat": player,
        "players": n,
        "phase": _PHASES[state.phase],
        "round": state.round,
        "current_player": state.cur,
        "crown": state.crown,
        "threshold": g.threshold,
        "deck_size": len(state.deck),
        "seats": seats,
        "hand": None if me is None else [district(kinds[c], c) for c in sorted(state.hands[me])],
        "my_characters": [] if me is None else list(state.chars[me]),
        "my_discarded": [] if me is None else [c for s, c, k in state.events if s == me and k == 1],
        "characters": _characters(state),
        "draft": _draft(state, me),
        "turn": _turn(state),
        "pending": _pending(state, me),
        "exchanges": [Exchange(round=r, seat=seat, count=k) for r, seat, k in state.exchanges],
        "first_complete": state.first_complete if state.first_complete >= 0 else None,
        "last_round": state.ending,
        "scores": [b.to_json() for b in breakdowns],
        "winners": state.winners() if state.phase == 2 else None,
    }
    return obs


def _characters(state: CitadelsState) -> Characters:
    g = state.game
    current = state.calling if state.phase == 1 and 1 <= state.calling <= 8 else None
    return {
        "in_round": list(g.round_characters),
        "faceup": list(state.faceup),
        "facedown_count": len(state.facedown),
        "calls": [
            Call(
                character=c,
                name=CHARACTER_NAMES[c],
                seat=status if status >= 0 else None,
                status=_STATUS.get(status, "revealed"),
            )
            for c, status in state.calls
        ],
        "current": current,
        "assassinated": state.killed or None,
        "robbed": state.robbed or None,
        "past_calls": [
            PastCall(
                round=r,
                character=c,
                name=CHARACTER_NAMES[c],
                seat=seat if seat >= 0 else None,
                status="assassinated" if dead else "revealed" if seat >= 0 else "absent",
            )
            for r, c, seat, dead in state.past
        ],
        "last_round_killed": (
            KilledLastRound(
                character=state.last_killed[0], seat=state.last_killed[1] if state.last_killed[1] >= 0 else None
            )
            if state.last_killed
            else None
        ),
    }


def _draft(state: CitadelsState, me: int | None) -> Draft:
    in_draft = state.phase == 0
    offered = None
    if in_draft and me is not None and not state.stack and state.steps[state.step][0] == me:
        offered = list(state.pool)
    returned = None
    step = state.game.return_step
    if me is not None and 0 <= step < len(state.steps) and state.steps[step][0] == me:
        returned = next((c for _, c, k in state.events if k == 4), None)
    return {
        "returned": returned,
        "order": [[s, "discard" if k else "pick"] for s, k in state.steps],
        "step": state.step if in_draft else None,
        "offered": offered,
        "seen": [] if me is None else [list(t) for t in state.seen[me]],
    }


def _turn(state: CitadelsState) -> Turn | None:
    if state.phase != 1:
        return None
    f = state.flags
    return {
        "seat": state.turn_seat,
        "character": state.calling,
        "action_taken": bool(f & 1),
        "income_taken": bool(f & 2),
        "power_used": bool(f & 4),
        "laboratory_used": bool(f & 8),
        "smithy_used": bool(f & 16),
        "builds_left": state.builds,
    }


def _pending(state: CitadelsState, me: int | None) -> Pending | None:
    if not state.stack:
        return None
    top = state.stack[-1]
    kind, player = top.kind, top.player
    kinds = state.game.card_kind
    out = Pending(kind=kind, player=player)  # type: ignore[typeddict-item]  # kind: one of DECISION_NAMES
    if kind == D_KEEP:
        cards, out["keep"] = top.data
        if me == player:
            out["cards"] = [district(kinds[c], c) for c in sorted(cards)]
        else:
            out["count"] = len(cards)
    elif kind == D_EXCHANGE:
        cards = top.data[0]
        if me == player:
            out["selected"] = [district(kinds[c], c) for c in cards]
        else:
            out["count"] = len(cards)
    elif kind == D_GRAVEYARD:
        out["district"] = district(kinds[top.data[0]])
    return out
