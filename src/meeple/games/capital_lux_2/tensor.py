"""Capital Lux 2's observation tensor: the Capital, every City, the power tiles, your hand and draft, ROB in solo.

Built from :class:`~meeple.games.capital_lux_2.observation.CapitalLux2Observation` only (what the seat may see: a
face-down modifier is only counted unless it is yours). Participants are relative to the observer (slot 0 = me;
in solo, slot 1 is ROB). Cards are counted by class, colour x value (4 colours x values 2-6 = 20 classes, index
``colour * 5 + value - 2``). Field by field: ``layout(players).describe()``; docs/research.md.

Rules: capital_lux_2.md §7-§10 (draft, play, resolution, solo).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from meeple.core.tensor import TensorBuffer, TensorLayout, TensorWriter, relative
from meeple.games.capital_lux_2.const import PH_DRAFT, PH_END, PH_RESOLVE, PHASES
from meeple.games.capital_lux_2.data import CARD_COLOUR, CARD_VALUE
from meeple.games.capital_lux_2.observation import CapitalLux2Observation, Card, Draft, Rob
from meeple.games.capital_lux_2.powers import POWERS
from meeple.games.capital_lux_2.rules import total

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State

COLOURS = 4
VALUES = 5
CLASSES = COLOURS * VALUES
TILE_IDS = list(POWERS)
PENDING = [*TILE_IDS, "bonus", "rob_bonus"]


def card_class(card: Card) -> int:
    """The class of a card ``{"colour", "value"}``: ``colour * 5 + value - 2``."""
    return int(card["colour"]) * VALUES + int(card["value"]) - 2


def layout(players: int) -> TensorLayout:
    """Return the layout for ``players`` seats (1 = solo against ROB, 2-4)."""
    n = players + 1 if players == 1 else players
    t = TensorLayout()
    t.add("phase", len(PHASES), "phase one-hot: " + ", ".join(PHASES))
    t.add("progress", 4, "round / 3, turn / 10, the game is ending, solo")
    t.add("current_player", n, "participant to move (relative)")
    t.add("emperor", n, "participant holding the Emperor (relative)")
    t.add("tiles", COLOURS * len(TILE_IDS), "the power tile of each district (blue, pink, yellow, green) x tile id")
    t.add("capital", COLOURS * VALUES, "Capital cards: district x value 2-6 (count)")
    t.add("capital_total", COLOURS, "Capital district totals / 30")
    t.add("capital_hidden", COLOURS * 3, "district x (face-down items / 4, sum of those I know / 10, MAX / 30)")
    t.add("cities", n * COLOURS * VALUES, "City cards: participant (relative) x district x value (count)")
    t.add("city_totals", n * COLOURS, "City district totals: participant (relative) x district / 30")
    t.add("hand_size", n, "hand sizes per participant (relative) / 10")
    t.add("gold", n, "gold per participant (relative) / 10")
    t.add("bonus_count", n, "bonus cards per participant (relative) / 5")
    t.add("deck", 1, "cards left in the deck / 100")
    t.add("discard", CLASSES, "discarded cards by class (count)")
    t.add("hand", CLASSES, "my hand by class (count)")
    t.add("bonus", CLASSES, "my bonus pile by class (count)")
    t.add("peek", CLASSES, "cards a power lets me look at now, by class")
    t.add("draft", 2, "draft stage / 3, in the draft")
    t.add("pack", CLASSES, "the draft pack I choose from, by class")
    t.add("first_pick", CLASSES, "my first pick of this draft, by class")
    t.add("pack_sizes", n, "pack sizes per participant (relative) / 10")
    t.add("pending", len(PENDING), "pending decision: power tile id, bonus or ROB's bonus")
    t.add("pending_mine", 1, "the pending decision is mine")
    t.add("rob_hand", 2 * CLASSES, "solo: ROB's hand, left then right, by class")
    t.add("rob_reserve", CLASSES, "solo: ROB's reserve by class (count)")
    t.add("rob_numbers", 5, "solo: red cards / 5, deck left / 100, gold / 10, score / 50, my margin / 30")
    t.add("scores", n, "final scores per participant (relative) / 50, at the end")
    return t


def encode(obs: CapitalLux2Observation, out: TensorWriter) -> None:
    """Fill ``out`` (a writer of :func:`layout`) from one seat's observation."""
    n = len(obs["cities"])
    me = obs["seat"]
    out.one_hot("phase", PHASES.index(obs["phase"]))
    out.put("progress", [obs["round"] / 3, obs["turn"] / 10, float(obs["ending"]), float(obs["solo"])])
    out.one_hot("current_player", relative(obs["current_player"], me, n))
    out.one_hot("emperor", relative(obs["emperor"], me, n))
    for d, tile in enumerate(obs["tiles"]):
        out.one_hot("tiles", d * len(TILE_IDS) + TILE_IDS.index(tile["id"]))
    for d, district in enumerate(obs["capital"]):
        for card in district["cards"]:
            out.add("capital", d * VALUES + card["value"] - 2)
        out.set("capital_total", district["total"] / 30, d)
        known = [item["value"] for item in district["face_down"] if item["value"] != "hidden"]
        hidden = [len(district["face_down"]) / 4, sum(known) / 10, district.get("max", 0) / 30]
        for i, v in enumerate(hidden):
            out.set("capital_hidden", v, d * 3 + i)
    for p, city in enumerate(obs["cities"]):
        slot = relative(p, me, n)
        for d, cards in enumerate(city["districts"]):
            for card in cards:
                out.add("cities", (slot * COLOURS + d) * VALUES + card["value"] - 2)
            out.set("city_totals", city["totals"][d] / 30, slot * COLOURS + d)
    for name, values, scale in (
        ("hand_size", obs["hand_sizes"], 10),
        ("gold", obs["gold"], 10),
        ("bonus_count", obs["bonus_counts"], 5),
    ):
        for p, value in enumerate(values[:n]):  # in solo, ROB's gold is in rob_numbers
            out.set(name, value / scale, relative(p, me, n))
    out.set("deck", obs["deck_size"] / 100)
    own: tuple[tuple[str, list[Card] | None], ...] = (
        ("discard", obs["discard"]),
        ("hand", obs.get("hand")),
        ("bonus", obs.get("bonus")),
        ("peek", obs.get("peek")),
    )
    for name, held in own:
        for card in held or ():
            out.add(name, card_class(card))
    _draft(obs.get("draft"), me, n, out)
    pending = obs["pending"]
    if pending is not None:
        out.one_hot("pending", PENDING.index(pending["kind"]))
        out.set("pending_mine", float(pending["player"] == me))
    _rob(obs.get("rob"), out)
    for p, score in enumerate(obs.get("scores") or ()):
        out.set("scores", score / 50, relative(p, me, n))


def _draft(draft: Draft | None, me: int | None, n: int, out: TensorWriter) -> None:
    if draft is None:
        return
    out.put("draft", [draft["stage"] / 3, 1.0])
    for card in draft["pack"] or ():
        out.add("pack", card_class(card))
    if draft["first_pick"] is not None:
        out.one_hot("first_pick", card_class(draft["first_pick"]))
    for p, size in enumerate(draft["pack_sizes"][:n]):
        out.set("pack_sizes", size / 10, relative(p, me, n))


def _rob(rob: Rob | None, out: TensorWriter) -> None:
    if rob is None:
        return
    for i, card in enumerate(rob["hand"][:2]):
        if card is not None:
            out.add("rob_hand", i * CLASSES + card_class(card))
    for card in rob["reserve"]:
        out.add("rob_reserve", card_class(card))
    numbers = [rob["red_cards"] / 5, rob["deck_left"] / 100, rob["gold"] / 10, rob["score"] / 50, rob["margin"] / 30]
    out.put("rob_numbers", numbers)


# ---------------------------------------------------------------- the fast path: straight from the state

CLASS_OF = tuple(colour * VALUES + value - 2 for colour, value in zip(CARD_COLOUR, CARD_VALUE, strict=True))
"""Card id -> its class (:func:`card_class`)."""


def values_from_state(state: CapitalLux2State, me: int, layout: TensorLayout) -> list[float]:
    """The tensor of seat ``me`` read straight from the state: equal to :func:`encode` of ``observation(me)``.

    Reads only what ``build_observation(state, me)`` shows that seat: public fields; of the Capital's face-down
    items, how many lie in each district and the sum of those ``me`` placed (the others' stay unknown: a partly
    known sum); its hand, Bonus pile, peeked cards, draft pack and first pick; ROB's public cards in solo.
    ``tests/games/test_tensor_fast_path.py`` and the conformance harness compare the two on every decision, for every
    seat.

    Args:
        state: the position.
        me: a seat (not ROB, not a spectator: :func:`encode` serves those).
        layout: ``layout(players)``.

    Rules: capital_lux_2.md §16 (hidden information).
    """
    v = [0.0] * layout.size
    fill_from_state(state, me, layout, v)
    return v


def fill_from_state(state: CapitalLux2State, me: int, layout: TensorLayout, v: TensorBuffer) -> None:
    """Write :func:`values_from_state` into ``v``, ``layout.size`` zeros: a list or a float buffer (item writes)."""
    o = layout.starts
    n = state.np
    v[o["phase"] + state.phase] = 1.0
    p = o["progress"]
    v[p], v[p + 1] = min(state.round + 1, 3) / 3, state.turn / 10
    v[p + 2], v[p + 3] = float(state.ending), float(state.solo)
    v[o["current_player"] + (state.current_player() - me) % n] = 1.0
    v[o["emperor"] + (state.emperor - me) % n] = 1.0
    for d, tile in enumerate(state.tiles):
        v[o["tiles"] + d * len(TILE_IDS) + TILE_IDS.index(tile.tile_id)] = 1.0
    _state_capital(state, me, o, v)
    _state_participants(state, me, n, o, v)
    for name, cards in (("discard", state.discard), ("hand", state.hand[me]), ("bonus", state.bonus[me])):
        _count(cards, o[name], v)
    if state.peek_owner == me:
        _count(state.peek, o["peek"], v)
    if state.phase == PH_DRAFT:
        _state_draft(state, me, n, o, v)
    if state.stack:
        top = state.stack[-1]
        v[o["pending"] + PENDING.index(top.kind)] = 1.0
        v[o["pending_mine"]] = float(top.player == me)
    if state.solo:
        _state_rob(state, o, v)
    if state.phase == PH_END:
        for participant in range(n):
            v[o["scores"] + (participant - me) % n] = state.total_score(participant) / 50


def _count(cards: Iterable[int], at: int, v: TensorBuffer) -> None:
    for card in cards:
        v[at + CLASS_OF[card]] += 1.0


def _state_capital(state: CapitalLux2State, me: int, o: dict[str, int], v: TensorBuffer) -> None:
    """The Capital's cards and totals; per district the face-down items, the sum of mine, MAX in the resolution."""
    capital, totals, hidden = o["capital"], o["capital_total"], o["capital_hidden"]
    resolving = state.phase == PH_RESOLVE
    for d in range(COLOURS):
        cards = state.capital[d]
        for card in cards:
            v[capital + d * VALUES + CARD_VALUE[card] - 2] += 1.0
        v[totals + d] = total(cards) / 30
        items = [item for item in state.hidden if item[0] == d]  # [district, kind (0 modifier), value, owner]
        known = [item[2] if item[1] == 0 else CARD_VALUE[item[2]] for item in items if item[3] == me]
        v[hidden + d * 3], v[hidden + d * 3 + 1] = len(items) / 4, sum(known) / 10
        v[hidden + d * 3 + 2] = (state.res_max[d] if resolving else 0) / 30


def _state_participants(state: CapitalLux2State, me: int, n: int, o: dict[str, int], v: TensorBuffer) -> None:
    """Cities and totals, hand sizes, gold and Bonus pile sizes (ROB's too in solo), the deck."""
    cities, city_totals = o["cities"], o["city_totals"]
    for participant in range(n):
        slot = (participant - me) % n
        for d, cards in enumerate(state.city[participant]):
            for card in cards:
                v[cities + (slot * COLOURS + d) * VALUES + CARD_VALUE[card] - 2] += 1.0
            v[city_totals + slot * COLOURS + d] = total(cards) / 30
    for name, values, scale in (
        ("hand_size", [len(h) for h in state.hand], 10),
        ("gold", state.gold, 10),
        ("bonus_count", [len(b) for b in state.bonus], 5),
    ):
        for participant, value in enumerate(values[:n]):
            v[o[name] + (participant - me) % n] = value / scale
    v[o["deck"]] = len(state.deck) / 100


def _state_draft(state: CapitalLux2State, me: int, n: int, o: dict[str, int], v: TensorBuffer) -> None:
    """The draft stage, my pack and first pick, every pack's size."""
    v[o["draft"]], v[o["draft"] + 1] = (state.dstage + 1) / 3, 1.0
    _count(state.packs[me], o["pack"], v)
    if state.first[me] >= 0:
        v[o["first_pick"] + CLASS_OF[state.first[me]]] = 1.0
    for participant, pack in enumerate(state.packs[:n]):
        v[o["pack_sizes"] + (participant - me) % n] = len(pack) / 10


def _state_rob(state: CapitalLux2State, o: dict[str, int], v: TensorBuffer) -> None:
    """Solo: ROB's face-up hand and reserve, red cards, deck, gold, score and my margin over it (all public)."""
    for i, card in enumerate(state.rob_hand[:2]):
        if card >= 0:
            v[o["rob_hand"] + i * CLASSES + CLASS_OF[card]] += 1.0
    _count(state.rob_reserve, o["rob_reserve"], v)
    rob_score = state.total_score(1)
    numbers = (len(state.rob_red) / 5, len(state.rob_deck) / 100, state.gold[1] / 10, rob_score / 50)
    for i, number in enumerate((*numbers, (state.total_score(0) - rob_score) / 30)):
        v[o["rob_numbers"] + i] = number
