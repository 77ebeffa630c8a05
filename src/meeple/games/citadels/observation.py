"""Citadels observations: exactly what one seat (or a spectator) may know, as a JSON-able dict.

Schema of ``observation(player)`` (``player`` None = spectator: public information only; ``me`` below is
``player``). Characters are numbers 1–8 (``CHARACTER_NAMES`` gives names); a *district* is a dict
``{"kind": kind id, "name": "Temple", "colour": "blue", "cost": 1, "score": 1}`` (the French name and the key are
in ``meeple.games.citadels.data.KINDS[kind]``); the districts of my own hand and of my own pending choice also carry
``"id"``, the card id. Districts anyone can see (cities, the Graveyard's district) carry no id: copies of one
district are identical cards, and which copy a seat built must not tell the others which copies it still holds.

- ``"game"``: ``"citadels"``; ``"seat"``: ``player``; ``"players"``: number of seats.
- ``"phase"``: ``"draft"`` | ``"turn"`` | ``"end"``; ``"round"``: round number from 1; ``"current_player"``:
  the seat to move (-4 once the game is over).
- ``"crown"``: the seat holding the crown; ``"threshold"``: districts that complete a city (8, 10, 7 or 6);
  ``"deck_size"``: cards left in the deck (never their order).
- ``"seats"``: per seat ``{"seat", "gold", "hand_size", "city": [district...], "city_size", "complete",
  "revealed": [characters of that seat revealed this round]}``.
- ``"hand"``: my hand as districts sorted by id (``None`` for the spectator); ``"my_characters"``: my characters
  this round (``[]`` for the spectator); ``"my_discarded"``: characters I put face down this round.
- ``"characters"``: ``{"in_round": [characters used this game], "faceup": [face-up removed this round],
  "facedown_count": cards face down now, "calls": [{"character", "name", "seat" (or None), "status":
  "revealed" | "absent" | "silent"}] in call order (a killed character is always "silent", held or not: nobody
  answers; its holder, or nobody, is revealed at the end of the round), "current": the character playing now
  (None in the draft),
  "assassinated": the Assassin's announced target or None, "robbed": the Thief's announced target or None,
  "last_round_killed": {"character", "seat"} revealed at the end of the previous round, or None,
  "past_calls": [{"round", "character", "name", "seat" (or None), "status": "revealed" | "absent" |
  "assassinated"}] every call of the finished rounds, in order (the killed character's holder included)}``.
- ``"draft"``: ``{"order": [[seat, "pick" | "discard"], ...] this round, "step": index of the current step
  (None after the draft), "offered": the characters offered to me now (only when I am the seat to choose,
  else None), "seen": [every set of characters I was offered this round], "returned": 7 players, for the last
  seat only: the initial face-down card it took (None before, and for everyone else)}``.
- ``"turn"``: during a turn, public flags of the character playing: ``{"seat", "character", "action_taken",
  "income_taken", "power_used", "laboratory_used", "smithy_used", "builds_left"}``; None in the draft.
- ``"pending"``: the decision on top of the stack or None: ``{"kind": "keep_card" | "exchange" | "destroy" |
  "graveyard", "player"}`` plus, for ``keep_card``, ``"keep"`` (how many to keep) and ``"cards"`` (the drawn
  districts, only for the player choosing; others get ``"count"``); for ``exchange`` ``"selected"`` (districts,
  only to the Magician; others get ``"count"``); for ``graveyard`` ``"district"`` (public).
- ``"exchanges"``: every Magician's exchange with the deck so far, public at the table: ``[{"round", "seat",
  "count"}]`` (how many cards went under the deck and were drawn).
- ``"first_complete"``: the seat that completed a city first, or None; ``"last_round"``: True once a city is
  complete (the current round is the last).
- ``"scores"``: per seat the score breakdown ``{"districts", "five_colours", "first_complete", "complete",
  "total"}`` (provisional before the end); ``"winners"``: the winning seats at the end, else None.

Rules: citadels.md §5.2 (what is public: gold, cities, hand sizes, face-up characters, calls, announcements).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.games.citadels.const import D_EXCHANGE, D_GRAVEYARD, D_KEEP
from meeple.games.citadels.data import CHARACTER_NAMES, COLOURS, KINDS

if TYPE_CHECKING:
    from meeple.games.citadels.state import CitadelsState

_PHASES = ("draft", "turn", "end")
_STATUS = {-1: "absent", -2: "silent"}


def district(kind: int, card: int | None = None) -> dict[str, Any]:
    """Return the description of a district of kind ``kind``; with ``card``, its card id too (private cards only).

    Rules: citadels.md §5.2 (the copies of a district are identical cards: a public view names the kind only).
    """
    k = KINDS[kind]
    out: dict[str, Any] = {} if card is None else {"id": card}
    out.update(kind=kind, name=k.name, colour=COLOURS[k.colour], cost=k.cost, score=k.score)
    return out


def build_observation(state: CitadelsState, player: int | None) -> dict[str, Any]:
    """Return the observation of ``player`` (None: spectator). See the module docstring for the schema."""
    g = state.game
    kinds = g.card_kind
    n = g.num_players
    revealed: list[list[int]] = [[] for _ in range(n)]
    for c, status in state.calls:
        if status >= 0:
            revealed[status].append(c)
    breakdowns = state.score_breakdowns()
    seats = [
        {
            "seat": s,
            "gold": state.gold[s],
            "hand_size": len(state.hands[s]),
            "city": [district(kinds[c]) for c in state.cities[s]],
            "city_size": len(state.cities[s]),
            "complete": len(state.cities[s]) >= g.threshold,
            "revealed": revealed[s],
        }
        for s in range(n)
    ]
    me = player if player is not None and 0 <= player < n else None
    obs: dict[str, Any] = {
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
        "exchanges": [{"round": r, "seat": seat, "count": k} for r, seat, k in state.exchanges],
        "first_complete": state.first_complete if state.first_complete >= 0 else None,
        "last_round": state.ending,
        "scores": [b.to_json() for b in breakdowns],
        "winners": state.winners() if state.phase == 2 else None,
    }
    return obs


def _characters(state: CitadelsState) -> dict[str, Any]:
    g = state.game
    current = state.calling if state.phase == 1 and 1 <= state.calling <= 8 else None
    return {
        "in_round": list(g.round_characters),
        "faceup": list(state.faceup),
        "facedown_count": len(state.facedown),
        "calls": [
            {
                "character": c,
                "name": CHARACTER_NAMES[c],
                "seat": status if status >= 0 else None,
                "status": _STATUS.get(status, "revealed"),
            }
            for c, status in state.calls
        ],
        "current": current,
        "assassinated": state.killed or None,
        "robbed": state.robbed or None,
        "past_calls": [
            {
                "round": r,
                "character": c,
                "name": CHARACTER_NAMES[c],
                "seat": seat if seat >= 0 else None,
                "status": "assassinated" if dead else "revealed" if seat >= 0 else "absent",
            }
            for r, c, seat, dead in state.past
        ],
        "last_round_killed": (
            {"character": state.last_killed[0], "seat": state.last_killed[1] if state.last_killed[1] >= 0 else None}
            if state.last_killed
            else None
        ),
    }


def _draft(state: CitadelsState, me: int | None) -> dict[str, Any]:
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


def _turn(state: CitadelsState) -> dict[str, Any] | None:
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


def _pending(state: CitadelsState, me: int | None) -> dict[str, Any] | None:
    if not state.stack:
        return None
    top = state.stack[-1]
    kind, player = top.kind, top.player
    kinds = state.game.card_kind
    out: dict[str, Any] = {"kind": kind, "player": player}
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
