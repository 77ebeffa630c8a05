"""Why a Citadels move is refused, in words the seat to move may read (``State.why_illegal``).

Every refused move gets a reason naming the rule that stops it: first the moment (the draft, a pending decision
such as the Warlord's destroy decision or the Magician's exchange, a character's turn), then the move's own rule
(a character's power, the order of a turn, a district's cost, the Bishop, a complete city, the Keep). Each reason
reads only what the seat to move knows: its hand and gold, the characters offered to it, the public board.
Rules: citadels.md §5.2 rules 3, 6-19; docs/decisions.md (order in a turn, the Magician's exchange, cancelling).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core import Action, Decision
from meeple.games.citadels import rules
from meeple.games.citadels.actions import (
    Assassinate,
    BuildDistrict,
    CancelExchange,
    ConfirmExchange,
    DeclineDestroy,
    DeclineRecover,
    DestroyDistrict,
    DiscardCharacter,
    DiscardForGold,
    DrawCards,
    EndTurn,
    ExchangeCards,
    KeepCard,
    PickCharacter,
    RecoverDistrict,
    Rob,
    SelectCard,
    SwapHands,
    TakeGold,
    TakeIncome,
    UseSmithy,
)
from meeple.games.citadels.const import (
    D_DESTROY,
    D_EXCHANGE,
    D_KEEP,
    DRAFT,
    F_ACTION,
    F_CANCELLED,
    F_INCOME,
    F_LAB,
    F_POWER,
    F_SMITHY,
    LAB_BIT,
    SMITHY_BIT,
    WALL_BIT,
)
from meeple.games.citadels.data import (
    ASSASSIN,
    CHARACTER_COLOUR,
    KEEP,
    KIND_COST,
    MAGICIAN,
    THIEF,
)
from meeple.games.citadels.draft import DRAFT_PICK
from meeple.games.citadels.vocabulary import DISTRICT, THE_CHARACTER
from meeple.i18n.message import M, Message, plural

if TYPE_CHECKING:
    from meeple.games.citadels.state import CitadelsState


def why_illegal(st: CitadelsState, action: Action) -> Message:
    """Return why ``action`` (not legal now) is refused: the rule of the moment, then the move's own rule."""
    if st.phase == DRAFT:
        return _why_draft(st, action)
    if st.stack:
        return _why_decision(st, st.stack[-1], action)
    if isinstance(action, (PickCharacter, DiscardCharacter)):
        return M("characters are chosen in the draft, at the start of a round")
    if isinstance(action, (RecoverDistrict, DeclineRecover)):
        return M("only a Graveyard's owner takes back a district, right after the Warlord destroys it")
    if isinstance(action, (DestroyDistrict, DeclineDestroy)):
        return M("only the Warlord destroys a district, at the end of his turn (his destroy decision)")
    if isinstance(action, (KeepCard, SelectCard, ConfirmExchange, CancelExchange)):
        return _why_decision_move_now(action)
    return _why_turn(st, action)


def _why_draft(st: CitadelsState, action: Action) -> Message:
    """The draft (§5.2 rules 2-3): pick a character from the set offered, or set one aside face down."""
    pick = st.steps[st.step][1] == DRAFT_PICK
    if not isinstance(action, (PickCharacter, DiscardCharacter)):
        return M("it is the draft: every seat first chooses a character from the set offered to it")
    if isinstance(action, PickCharacter) != pick:
        if pick:
            return M("at this step of the draft you pick a character; none is set aside")
        return M("at this step of the draft you set a character aside face down")
    c = action.character
    if not st.game.in_round[c]:
        return M("{character} is not in this game", character=THE_CHARACTER[c])
    if c in st.faceup:
        return M("{character} is face up this round: nobody may take it", character=THE_CHARACTER[c])
    return M("{character} is not among the characters offered to you", character=THE_CHARACTER[c])


def _why_decision_move_now(action: Action) -> Message:
    """A move that answers a decision when none is pending."""
    if isinstance(action, KeepCard):
        return M("a card is kept only right after drawing cards")
    return M("cards are selected only during the Magician's exchange with the deck")


def _why_decision(st: CitadelsState, top: Decision, action: Action) -> Message:
    """A pending decision (§5.2 rules 7, 14, 17, 18) comes before anything else."""
    if top.kind == D_KEEP:
        if isinstance(action, KeepCard):
            return M("{district} is not among the cards you drew", district=DISTRICT[action.kind])
        return M("first keep a card you drew (the others go under the deck)")
    if top.kind == D_EXCHANGE:
        return _why_exchange(st, top, action)
    if top.kind == D_DESTROY:
        if isinstance(action, DestroyDistrict):
            return _why_destroy(st, action)
        return M("the Warlord first decides whether to destroy a district (destroy one or destroy nothing)")
    return M("the Graveyard's owner first decides whether to pay 1 gold to take back the destroyed district")


def _why_exchange(st: CitadelsState, top: Decision, action: Action) -> Message:
    """The Magician's exchange with the deck (§5.2 rule 14; docs/decisions.md)."""
    if isinstance(action, SelectCard):
        if all(st.game.card_kind[c] != action.kind for c in st.hands[top.player]):
            return M("no {district} in your hand", district=DISTRICT[action.kind])
        return M("every {district} in your hand is already selected", district=DISTRICT[action.kind])
    if isinstance(action, ConfirmExchange):
        return M("select at least one card to put under the deck first")
    return M("finish the exchange first: select cards, confirm, or cancel it")


def _why_destroy(st: CitadelsState, action: DestroyDistrict) -> Message:
    """The Warlord's destroy decision (§5.2 rules 16-17): the Bishop, a complete city, the Keep, the price."""
    target, k = action.seat, action.kind
    if target >= st.game.num_players:
        return M("there is no seat {seat} in this game", seat=target)
    if target == st.bishop_seat():
        return M("the Bishop's city is protected this round")
    if len(st.cities[target]) >= st.game.threshold:
        return M("a complete city cannot be attacked")
    if all(st.game.card_kind[c] != k for c in st.cities[target]):
        return M("seat {seat} has no {district} in its city", seat=target, district=DISTRICT[k])
    if k == KEEP:
        return M("the Keep cannot be destroyed")
    price = rules.destroy_price(k, bool(st.masks[target] & WALL_BIT))
    gold = st.gold[st.turn_seat]
    return plural(
        "destroying it costs {n} gold; you have {gold}",
        "destroying it costs {n} gold; you have {gold}",
        price,
        gold=gold,
    )


def _why_turn(st: CitadelsState, action: Action) -> Message:
    """A character's turn with no decision pending (§5.2 rules 7-14, 19)."""
    if isinstance(action, (TakeGold, DrawCards)):
        if st.flags & F_ACTION:
            return M("you already took your action this turn (2 gold or cards)")
        return M("the deck is empty: no card can be drawn")
    if isinstance(action, BuildDistrict):
        return _why_build(st, action)
    if isinstance(action, TakeIncome):
        return _why_income(st)
    if isinstance(action, EndTurn):
        return M("take 2 gold or draw cards first")
    if isinstance(action, (Assassinate, Rob, SwapHands, ExchangeCards)):
        return _why_power(st, action)
    if isinstance(action, DiscardForGold):
        return _why_laboratory(st, action)
    if isinstance(action, UseSmithy):
        return _why_smithy(st)
    return M("this move is not possible now")


def _why_build(st: CitadelsState, action: BuildDistrict) -> Message:
    """Building (§5.2 rule 8): after the action, one district (the Architect three), not twice the same, paid."""
    seat, k = st.turn_seat, action.kind
    if not st.flags & F_ACTION:
        return M("take 2 gold or draw cards first")
    if not st.builds:
        return M("you cannot build again this turn")
    if all(st.game.card_kind[c] != k for c in st.hands[seat]):
        return M("no {district} in your hand", district=DISTRICT[k])
    if (st.masks[seat] >> k) & 1:
        return M("{district} is already in your city", district=DISTRICT[k])
    return plural(
        "{district} costs {n} gold; you have {gold}",
        "{district} costs {n} gold; you have {gold}",
        KIND_COST[k],
        district=DISTRICT[k],
        gold=st.gold[st.turn_seat],
    )


def _why_income(st: CitadelsState) -> Message:
    """Colour income (§5.2 rule 9; docs/decisions.md: offered only when it pays)."""
    char = st.calling
    if CHARACTER_COLOUR[char] < 0:
        return M("{character} takes no income from districts", character=THE_CHARACTER[char])
    if st.flags & F_INCOME:
        return M("you already took your income this turn")
    return M("no district of your city pays {character} any income", character=THE_CHARACTER[char])


def _why_power(st: CitadelsState, action: Action) -> Message:
    """The character powers (§5.2 rules 11-14): whose power it is, once per turn, its targets."""
    char = st.calling
    if isinstance(action, Assassinate) and char != ASSASSIN:
        return M("only the Assassin kills a character")
    if isinstance(action, Rob) and char != THIEF:
        return M("only the Thief robs a character")
    if isinstance(action, (SwapHands, ExchangeCards)) and char != MAGICIAN:
        return M("only the Magician exchanges cards")
    if st.flags & F_POWER:
        return M("you already used your character's power this turn")
    if isinstance(action, Assassinate):
        return M("the Assassin names a character from 2 to 8")
    if isinstance(action, Rob):
        if action.character == st.killed:
            return M("the Thief may not rob the killed character")
        return M("the Thief names a character from 3 to 8")
    if isinstance(action, SwapHands):
        if action.seat == st.turn_seat:
            return M("the Magician swaps hands with another player, not with himself")
        return M("there is no seat {seat} in this game", seat=action.seat)
    if st.flags & F_CANCELLED:
        return M("you cancelled an exchange with the deck this turn: you may not start another one")
    return M("you have no card to exchange")


def _why_laboratory(st: CitadelsState, action: DiscardForGold) -> Message:
    """The Laboratory (§5.2 rule 19): once per turn, discard a card for 1 gold."""
    seat = st.turn_seat
    if not st.masks[seat] & LAB_BIT:
        return M("only the owner of a Laboratory discards a card for 1 gold")
    if st.flags & F_LAB:
        return M("the Laboratory is used once per turn")
    return M("no {district} in your hand", district=DISTRICT[action.kind])


def _why_smithy(st: CitadelsState) -> Message:
    """The Smithy (§5.2 rule 19): once per turn, pay 3 gold and draw 3 cards."""
    seat = st.turn_seat
    if not st.masks[seat] & SMITHY_BIT:
        return M("only the owner of a Smithy pays 3 gold to draw 3 cards")
    if st.flags & F_SMITHY:
        return M("the Smithy is used once per turn")
    if not st.deck:
        return M("the deck is empty: no card can be drawn")
    return plural(
        "the Smithy costs {n} gold; you have {gold}",
        "the Smithy costs {n} gold; you have {gold}",
        3,
        gold=st.gold[seat],
    )
