"""Citadels' observation tensor: cities by district kind, gold, hands, the character row, your hand and choices.

Built from :class:`~meeple.games.citadels.observation.CitadelsObservation` only (what the seat may see). Seats are
relative to the observer (slot 0 = me); districts are counted by kind (28 kinds, ``data.KINDS``); characters are
1-8 at index ``character - 1``. Field by field: ``layout(players).describe()``; docs/research.md.

Rules: citadels.md §5.2 (what is public: gold, cities, hand sizes, face-up characters, calls).
"""

from __future__ import annotations

from typing import Any

from meeple.core.tensor import TensorLayout, TensorWriter, relative
from meeple.games.citadels.data import KINDS

K = len(KINDS)
C = 8
PHASES = ("draft", "turn", "end")
CALLS = ("revealed", "absent", "silent")
PENDING = ("keep_card", "exchange", "destroy", "graveyard")
TURN_FLAGS = ("action_taken", "income_taken", "power_used", "laboratory_used", "smithy_used")


def layout(players: int) -> TensorLayout:
    """Return the layout for ``players`` seats (2-7)."""
    n = players
    t = TensorLayout()
    t.add("phase", len(PHASES), "phase one-hot: " + ", ".join(PHASES))
    t.add("progress", 4, "round / 10, districts that complete a city / 10, deck size / 70, last round")
    t.add("current_player", n, "seat to move (relative)")
    t.add("crown", n, "seat holding the crown (relative)")
    t.add("first_complete", n, "first seat to complete its city (relative)")
    t.add("gold", n, "gold per seat (relative) / 10")
    t.add("hand_size", n, "hand size per seat (relative) / 10")
    t.add("city", n * K, "districts built per seat (relative) x kind (count)")
    t.add("city_size", n, "districts built per seat (relative) / 8")
    t.add("complete", n, "seat (relative) has a complete city")
    t.add("revealed", n * C, "characters revealed this round per seat (relative) x character")
    t.add("score", n, "provisional score per seat (relative) / 40 (public: built districts and bonuses)")
    t.add("hand", K, "my hand per kind (count)")
    t.add("my_characters", C, "my characters this round")
    t.add("my_discarded", C, "characters I discarded face down this round")
    t.add("in_round", C, "characters in play this round")
    t.add("faceup", C, "characters face up out of the round")
    t.add("facedown", 1, "characters face down out of the round / 3")
    t.add("current_character", C, "character being called")
    t.add("assassinated", C, "character killed this round")
    t.add("robbed", C, "character robbed this round")
    t.add("call_status", C * len(CALLS), "each character's call so far x " + ", ".join(CALLS))
    t.add("call_seat", C * n, "character x the seat (relative) that revealed it")
    t.add("killed_last_round", C, "character killed last round")
    t.add("offered", C, "characters offered to me in the draft now")
    t.add("seen", C, "characters I saw offered during this draft")
    t.add("returned", C, "the character returned face down (7 players), if I know it")
    t.add("turn_character", C, "character whose turn it is")
    t.add("turn_flags", len(TURN_FLAGS) + 1, ", ".join(TURN_FLAGS) + ", builds left / 3")
    t.add("pending", len(PENDING), "pending decision one-hot: " + ", ".join(PENDING))
    t.add("pending_cards", K, "cards I drew and must choose among, per kind")
    t.add("pending_selected", K, "cards selected for the Magician's exchange, per kind")
    t.add("pending_district", K, "the district concerned (Graveyard), by kind")
    t.add("pending_numbers", 2, "cards to keep / 3, cards counted / 10")
    return t


def encode(obs: Any, out: TensorWriter) -> None:
    """Fill ``out`` (a writer of :func:`layout`) from one seat's observation."""
    n = obs["players"]
    me = obs["seat"]
    out.one_hot("phase", PHASES.index(obs["phase"]))
    out.put("progress", [obs["round"] / 10, obs["threshold"] / 10, obs["deck_size"] / 70, float(obs["last_round"])])
    out.one_hot("current_player", relative(obs["current_player"], me, n))
    out.one_hot("crown", relative(obs["crown"], me, n))
    if obs["first_complete"] is not None:
        out.one_hot("first_complete", relative(obs["first_complete"], me, n))
    for seat_info in obs["seats"]:
        slot = relative(seat_info["seat"], me, n)
        out.set("gold", seat_info["gold"] / 10, slot)
        out.set("hand_size", seat_info["hand_size"] / 10, slot)
        for d in seat_info["city"]:
            out.add("city", slot * K + d["kind"])
        out.set("city_size", seat_info["city_size"] / 8, slot)
        out.set("complete", float(seat_info["complete"]), slot)
        out.many_hot("revealed", (slot * C + c - 1 for c in seat_info["revealed"]))
    for seat, score in enumerate(obs["scores"]):
        out.set("score", score["total"] / 40, relative(seat, me, n))
    for d in obs["hand"] or ():
        out.add("hand", d["kind"])
    out.many_hot("my_characters", (c - 1 for c in obs["my_characters"]))
    out.many_hot("my_discarded", (c - 1 for c in obs["my_discarded"]))
    _characters(obs["characters"], me, n, out)
    draft = obs["draft"]
    out.many_hot("offered", (c - 1 for c in draft["offered"] or ()))
    out.many_hot("seen", (c - 1 for offer in draft["seen"] for c in offer))
    if draft["returned"] is not None:
        out.one_hot("returned", draft["returned"] - 1)
    turn = obs["turn"]
    if turn is not None:
        out.one_hot("turn_character", turn["character"] - 1)
        out.put("turn_flags", [float(turn[f]) for f in TURN_FLAGS] + [turn["builds_left"] / 3])
    _pending(obs["pending"], out)


def _characters(ch: Any, me: int | None, n: int, out: TensorWriter) -> None:
    out.many_hot("in_round", (c - 1 for c in ch["in_round"]))
    out.many_hot("faceup", (c - 1 for c in ch["faceup"]))
    out.set("facedown", ch["facedown_count"] / 3)
    for name in ("assassinated", "robbed"):
        if ch[name] is not None:
            out.one_hot(name, ch[name] - 1)
    if ch["current"] is not None:
        out.one_hot("current_character", ch["current"] - 1)
    for call in ch["calls"]:
        c = call["character"] - 1
        out.one_hot("call_status", c * len(CALLS) + CALLS.index(call["status"]))
        if call["seat"] is not None:
            out.one_hot("call_seat", c * n + relative(call["seat"], me, n))
    killed = ch["last_round_killed"]
    if killed is not None:
        out.one_hot("killed_last_round", killed["character"] - 1)


def _pending(pending: Any, out: TensorWriter) -> None:
    if pending is None:
        return
    out.one_hot("pending", PENDING.index(pending["kind"]))
    for d in pending.get("cards", ()):
        out.add("pending_cards", d["kind"])
    for d in pending.get("selected", ()):
        out.add("pending_selected", d["kind"])
    if "district" in pending:
        out.one_hot("pending_district", pending["district"]["kind"])
    out.put("pending_numbers", [pending.get("keep", 0) / 3, pending.get("count", 0) / 10])
