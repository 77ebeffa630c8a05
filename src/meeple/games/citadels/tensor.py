"""Citadels' observation tensor: cities by district kind, gold, hands, the character row, your hand and choices.

Built from :class:`~meeple.games.citadels.observation.CitadelsObservation` only (what the seat may see). Seats are
relative to the observer (slot 0 = me); districts are counted by kind (28 kinds, ``data.KINDS``); characters are
1-8 at index ``character - 1``. Field by field: ``layout(players).describe()``; docs/research.md.

Rules: citadels.md §5.2 (what is public: gold, cities, hand sizes, face-up characters, calls).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.tensor import TensorBuffer, TensorLayout, TensorWriter, relative
from meeple.games.citadels import rules
from meeple.games.citadels.data import HAUNTED_CITY, KINDS
from meeple.games.citadels.observation import Characters, CitadelsObservation, Pending
from meeple.games.citadels.observation import _pending as _visible_pending

if TYPE_CHECKING:
    from meeple.games.citadels.state import CitadelsState

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


def encode(obs: CitadelsObservation, out: TensorWriter) -> None:
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
        flags = [turn["action_taken"], turn["income_taken"], turn["power_used"], turn["laboratory_used"]]
        out.put("turn_flags", [float(f) for f in [*flags, turn["smithy_used"]]] + [turn["builds_left"] / 3])
    _pending(obs["pending"], out)


def _characters(ch: Characters, me: int | None, n: int, out: TensorWriter) -> None:
    out.many_hot("in_round", (c - 1 for c in ch["in_round"]))
    out.many_hot("faceup", (c - 1 for c in ch["faceup"]))
    out.set("facedown", ch["facedown_count"] / 3)
    for name, character in (("assassinated", ch["assassinated"]), ("robbed", ch["robbed"])):
        if character is not None:
            out.one_hot(name, character - 1)
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


def _pending(pending: Pending | None, out: TensorWriter) -> None:
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


# ---------------------------------------------------------------- the fast path: straight from the state


def values_from_state(state: CitadelsState, me: int, layout: TensorLayout) -> list[float]:
    """The tensor of seat ``me`` read straight from the state: equal to :func:`encode` of ``observation(me)``.

    Reads only what ``build_observation(state, me)`` shows that seat (public fields, its own hand, characters,
    discards, draft offers and pending cards), without building the observation; about 4x faster. The test
    ``tests/games/test_tensor_fast_path.py`` compares the two on every decision of many games, for every seat.

    Args:
        state: the position.
        me: a seat (not a spectator: :func:`encode` serves those).
        layout: ``layout(players)``.
    """
    v = [0.0] * layout.size
    fill_from_state(state, me, layout, v)
    return v


def fill_from_state(state: CitadelsState, me: int, layout: TensorLayout, v: TensorBuffer) -> None:
    """Write :func:`values_from_state` into ``v``, ``layout.size`` zeros: a list or a float buffer.

    Only item reads and writes, so a buffer (``memoryview`` of a numpy row) gets float32 values without a Python
    list converted in between (``Game._write_observation``).
    """
    g = state.game
    n = g.num_players
    kinds = g.card_kind
    o = layout.starts
    v[o["phase"] + state.phase] = 1.0
    p = o["progress"]
    v[p], v[p + 1], v[p + 2] = state.round / 10, g.threshold / 10, len(state.deck) / 70
    v[p + 3] = float(state.ending)
    v[o["current_player"] + (state.cur - me) % n] = 1.0
    v[o["crown"] + (state.crown - me) % n] = 1.0
    if state.first_complete >= 0:
        v[o["first_complete"] + (state.first_complete - me) % n] = 1.0
    gold, hand_size, city_o, size_o, complete = o["gold"], o["hand_size"], o["city"], o["city_size"], o["complete"]
    score = o["score"]
    threshold = g.threshold
    for s, total in enumerate(_scores(state)):
        slot = (s - me) % n
        v[gold + slot] = state.gold[s] / 10
        v[hand_size + slot] = len(state.hands[s]) / 10
        city = state.cities[s]
        base = city_o + slot * K
        for c in city:
            v[base + kinds[c]] += 1.0
        v[size_o + slot] = len(city) / 8
        v[complete + slot] = float(len(city) >= threshold)
        v[score + slot] = total / 40
    hand = o["hand"]
    for c in state.hands[me]:
        v[hand + kinds[c]] += 1.0
    for c in state.chars[me]:
        v[o["my_characters"] + c - 1] = 1.0
    for s, c, k in state.events:
        if s == me and k == 1:
            v[o["my_discarded"] + c - 1] = 1.0
    _state_characters(state, me, n, o, v)
    _state_draft(state, me, o, v)
    if state.phase == 1:
        v[o["turn_character"] + state.calling - 1] = 1.0
        f, t = state.flags, o["turn_flags"]
        v[t], v[t + 1], v[t + 2] = float(bool(f & 1)), float(bool(f & 2)), float(bool(f & 4))
        v[t + 3], v[t + 4], v[t + 5] = float(bool(f & 8)), float(bool(f & 16)), state.builds / 3
    if state.stack:
        pending = _visible_pending(state, me)
        if pending is not None:
            _pending_values(pending, o, v)


_SCORE_CACHE_SIZE = 65536


def _scores(state: CitadelsState) -> list[int]:
    """``[b.total for b in state.score_breakdowns()]``, memoised on the game by each city's kinds.

    A city holds one district of a kind (citadels.md §5.2 rule 8: no two with the same name; ``check_consistency``),
    so ``masks[s]`` (the kinds built in city ``s``) is all of it that ``rules.score_city`` reads, with first to
    complete and the Haunted City's rule: the memo's key is those three as one integer (no tuple of the city built and
    hashed per seat). Rules: citadels.md §5.2 rules 20-21.
    """
    g = state.game
    cache: dict[int, int] | None = g.__dict__.get("_score_by_kinds")
    if cache is None or len(cache) > _SCORE_CACHE_SIZE:
        cache = g.__dict__["_score_by_kinds"] = {}
    haunted_cards: list[int] | None = g.__dict__.get("_haunted_cards")
    if haunted_cards is None:
        haunted_cards = g.__dict__["_haunted_cards"] = [c for c, k in enumerate(g.card_kind) if k == HAUNTED_CITY]
    first, now, built = state.first_complete, state.round, state.built_round
    # The Haunted City stands for any colour unless it was built this round (rule 20; rules.has_five_colours).
    fresh = [c for c in haunted_cards if built[c] >= now]
    totals = []
    for s, mask in enumerate(state.masks):
        haunted = not fresh or not any(c in state.cities[s] for c in fresh)
        key = mask << 2 | (s == first) << 1 | haunted
        total = cache.get(key)
        if total is None:
            kinds = [g.card_kind[c] for c in state.cities[s]]
            total = cache[key] = rules.score_city(
                kinds, first=s == first, threshold=g.threshold, haunted_city_counts=haunted
            ).total
        totals.append(total)
    return totals


def _state_characters(state: CitadelsState, me: int, n: int, o: dict[str, int], v: TensorBuffer) -> None:
    in_round, faceup = o["in_round"] - 1, o["faceup"] - 1
    for c in state.game.round_characters:
        v[in_round + c] = 1.0
    for c in state.faceup:
        v[faceup + c] = 1.0
    v[o["facedown"]] = len(state.facedown) / 3
    if state.killed:
        v[o["assassinated"] + state.killed - 1] = 1.0
    if state.robbed:
        v[o["robbed"] + state.robbed - 1] = 1.0
    if state.phase == 1 and 1 <= state.calling <= 8:
        v[o["current_character"] + state.calling - 1] = 1.0
    revealed, status_o, seat_o = o["revealed"], o["call_status"], o["call_seat"]
    for c, status in state.calls:
        i = c - 1
        if status >= 0:
            slot = (status - me) % n
            v[revealed + slot * C + i] = 1.0
            v[status_o + i * 3] = 1.0
            v[seat_o + i * n + slot] = 1.0
        else:
            v[status_o + i * 3 + (1 if status == -1 else 2)] = 1.0
    if state.last_killed:
        v[o["killed_last_round"] + state.last_killed[0] - 1] = 1.0


def _state_draft(state: CitadelsState, me: int, o: dict[str, int], v: TensorBuffer) -> None:
    steps = state.steps
    if state.phase == 0 and not state.stack and steps[state.step][0] == me:
        for c in state.pool:
            v[o["offered"] + c - 1] = 1.0
    for offer in state.seen[me]:
        for c in offer:
            v[o["seen"] + c - 1] = 1.0
    step = state.game.return_step
    if 0 <= step < len(steps) and steps[step][0] == me:
        returned = next((c for _, c, k in state.events if k == 4), None)
        if returned is not None:
            v[o["returned"] + returned - 1] = 1.0


def _pending_values(pending: Pending, o: dict[str, int], v: TensorBuffer) -> None:
    v[o["pending"] + PENDING.index(pending["kind"])] = 1.0
    for d in pending.get("cards", ()):
        v[o["pending_cards"] + d["kind"]] += 1.0
    for d in pending.get("selected", ()):
        v[o["pending_selected"] + d["kind"]] += 1.0
    if "district" in pending:
        v[o["pending_district"] + pending["district"]["kind"]] = 1.0
    p = o["pending_numbers"]
    v[p], v[p + 1] = pending.get("keep", 0) / 3, pending.get("count", 0) / 10
