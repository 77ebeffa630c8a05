"""Undo: back to your previous decision, never across information revealed since (terminal play and the server).

The policy is Board Game Arena's: a player may take back a move as long as nothing they learned since depends on it
(a card drawn, a character revealed, a sealed bid opened) and no other human has played since.

"Nothing learned" is decided in two ways, and either refuses the undo:

1. By construction (:func:`shown_on_the_way`): every game keeps :meth:`~meeple.core.state.State.shown_key`, a key
   that changes whenever chance or a hidden choice shows the player something (a card, tile or token drawn, a
   character called, bids opened, another seat's card made public); the state's random generator advancing is
   chance too. Undo never crosses a step that changed either, whatever the other seats chose hidden.
2. In sampled worlds (:func:`differs_in_some_world`): rebuild the position of the player's previous decision in
   worlds that player could not tell apart from it (``resample_from_infostate``) and play the moves since again;
   a move of another seat that the player saw redacted counts as hidden too, so each world plays in its place a
   move of that seat that reads the same to the player. If some world would now show the player something else
   (observation or log), or a move is not even legal there, the moves depended on something hidden.

At a server's table (:func:`undo_in_turn`) undo stays within the turn: only the seat's own moves since its turn
began are taken back, never a bot's or another seat's.

Rules: issue "Comfort at the table" (undo for humans, as Board Game Arena's undo policy); issue #36 (undo never
crosses a reveal); issue #43 item 5 (undo in the browser, within your turn).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.core.action import Action
from meeple.core.errors import MeepleError
from meeple.core.records import GameRecord
from meeple.core.rng import Rng, derive_seed
from meeple.core.state import State
from meeple.i18n import M, Message

WORLDS = 16
"""Worlds tried at the earlier decision by the second check (the first one needs none)."""


def revealed_since(earlier: State[Any], now: State[Any], seat: int, worlds: int = WORLDS) -> bool:
    """Whether the moves from ``earlier`` to ``now`` told ``seat`` anything it could not know at ``earlier``.

    Args:
        earlier: the position of the seat's earlier decision (a prefix of ``now``'s history).
        now: the current position.
        seat: the player asking.
        worlds: worlds resampled at ``earlier`` for the seat by the second check.
    """
    steps = now.history[len(earlier.history) :]
    return shown_on_the_way(earlier, steps, seat) or differs_in_some_world(earlier, now, seat, worlds)


def shown_on_the_way(earlier: State[Any], steps: Sequence[tuple[int, Action]], seat: int) -> bool:
    """Whether one of ``steps`` played from ``earlier`` drew on chance or changed ``seat``'s ``shown_key``.

    Args:
        earlier: the position of the seat's earlier decision.
        steps: the ``(actor, action)`` pairs played since, in order.
        seat: the player asking.
    """
    state = earlier.clone()
    key, rng = state.shown_key(seat), state.rng.to_json()
    for _actor, action in steps:
        state.apply_action(action)
        after, rng_after = state.shown_key(seat), state.rng.to_json()
        if after != key or rng_after != rng:
            return True
    return False


def differs_in_some_world(earlier: State[Any], now: State[Any], seat: int, worlds: int = WORLDS) -> bool:
    """Whether some world ``seat`` cannot tell apart from ``earlier`` would show it something else by now.

    Each world is ``earlier`` re-dealt for ``seat``; the moves since are played again, but a move of another seat
    that ``seat`` saw redacted is replaced by a random legal move of that seat that reads the same to ``seat``.

    Args:
        earlier: the position of the seat's earlier decision (a prefix of ``now``'s history).
        now: the current position.
        seat: the player asking.
        worlds: how many worlds to try.
    """
    steps = now.history[len(earlier.history) :]
    seen = now.observation(seat)
    log = now.history_messages(seat)
    real = earlier.clone()
    for k in range(worlds):
        choice = Rng(derive_seed(len(now.history), seat, k))
        world = earlier.resample_from_infostate(seat, choice)
        replay = real.clone()
        try:
            for actor, action in steps:
                if world.current_player() != actor:
                    return True  # the turn order itself depended on something hidden
                world.apply_action(_in_world(world, replay, actor, action, seat, choice))
                replay.apply_action(action)
        except MeepleError:
            return True  # a move that only the real hidden position allows: it depended on something hidden
        if world.observation(seat) != seen or world.history_messages(seat) != log:
            return True
    return False


def _in_world(world: State[Any], real: State[Any], actor: int, action: Action, seat: int, rng: Rng) -> Action:
    """The move ``world`` plays for ``action``: itself, or if ``seat`` saw it redacted, any that reads the same."""
    if actor == seat:
        return action
    text = real.action_message(action, perspective=seat, actor=actor)
    if text == real.action_message(action, perspective=None, actor=actor):
        return action  # seen in full
    alike = [a for a in world.legal_actions() if world.action_message(a, perspective=seat, actor=actor) == text]
    return alike[rng.randrange(len(alike))] if alike else action


def undo_target(
    state: State[Any], seat: int, decisions: Sequence[int], humans: Sequence[int]
) -> tuple[State[Any] | None, Message | None]:
    """Return the position of ``seat``'s previous decision, or why it cannot be taken back.

    Args:
        state: the current position.
        seat: the human asking to undo.
        decisions: the history lengths at which ``seat`` chose among several legal moves, oldest first.
        humans: every human seat (another human's move is never taken back).

    Returns:
        ``(position, None)`` to continue from, or ``(None, reason)``.
    """
    earlier_decisions = [d for d in decisions if d < len(state.history)]
    if not earlier_decisions:
        return None, M("you have made no move to take back yet")
    target = earlier_decisions[-1]
    others = {actor for actor, _a in state.history[target:] if actor in humans and actor != seat}
    if others:
        return None, M("seat {seat} has played since: their move cannot be taken back", seat=min(others))
    earlier = GameRecord.from_state(state).replay(target)
    if revealed_since(earlier, state, seat):
        return None, M("something was revealed to you since (a card drawn, a character revealed, a bid opened)")
    return earlier, None


def undo_in_turn(state: State[Any], seat: int, by_bot: Sequence[bool]) -> tuple[State[Any] | None, Message | None]:
    """Return the position of ``seat``'s previous decision within its running turn, or why it cannot go back.

    The turn is the run of ``seat``'s own moves at the end of the history (a step a bot played for the seat ends
    it); its decisions are the positions where the seat had more than one legal move. The undo goes back to the last
    of them, unless something was revealed to the seat since (:func:`revealed_since`).

    Args:
        state: the current position (``seat`` to move).
        seat: the seat asking.
        by_bot: per action of ``state.history``, whether a bot played it (a substitute for an away human).

    Returns:
        ``(position, None)`` to continue from, or ``(None, reason)``.
    """
    if state.is_terminal() or state.current_player() != seat:
        return None, M("only moves of your own turn can be taken back, while it is your turn")
    start = len(state.history)
    while start > 0 and state.history[start - 1][0] == seat and not by_bot[start - 1]:
        start -= 1
    if start == len(state.history):
        return None, M("you have made no move to take back in this turn")
    record = GameRecord.from_state(state)
    position = record.replay(start)
    earlier: State[Any] | None = None
    for _actor, action in state.history[start:]:
        if len(position.legal_actions()) > 1:
            earlier = position.clone()
        position.apply_action(action)
    if earlier is None:
        return None, M("you have made no move to take back in this turn")
    if revealed_since(earlier, state, seat):
        return None, M("something was revealed to you since (a card drawn, a character revealed, a bid opened)")
    return earlier, None
