"""The State half of the core contract, with the checks every game shares.

Subclasses implement the rules (``current_player``, ``_legal_actions``, ``_apply``, ``is_terminal``, ``returns``,
``scores``, ``observation``, ``_resample``, ``_copy_fields``, ``_body_to_json``, ``_describe``); this class enforces
the contract in one place: legality checks, unchanged state on errors, history, the legal-action cache, JSON,
clone and the information-state string.

Rules: architecture "The core contract".
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from bisect import bisect_right
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

from meeple.core.action import Action, short_repr
from meeple.core.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from meeple.core.game import STATE_FORMAT
from meeple.core.rng import Rng
from meeple.core.tensor import zeros
from meeple.i18n.message import VERBATIM, M, Message, join, plural

if TYPE_CHECKING:
    from meeple.core.game import Game

CHANCE = -1
"""``current_player()`` of a chance node (OpenSpiel's id). meeple samples chance inside ``apply_action``."""
TERMINAL = -4
"""``current_player()`` once the game is over (OpenSpiel's id)."""
SPECTATOR = -3
"""A ``perspective`` that sees only public information (``observation(None)`` is the same view)."""

G = TypeVar("G", bound="Game[Any]")


@dataclass(frozen=True, slots=True)
class HiddenAction(Action):
    """Another seat's action in a resampled state, known only by the text its observer saw.

    ``resample_from_infostate(p, rng)`` replaces every action of the history that ``p`` saw redacted by one of
    these, so a determinized state carries no trace of what ``p`` could not see.

    Attributes:
        text: the English text the observer saw.
        message: the same as a message (``Message.to_json``), so that it reads the same in every language; ``None``
            for a placeholder built from a text only.
    """

    text: str
    message: dict[str, Any] | None = field(default=None, compare=False, hash=False)


_MAX_LISTED = 12
_TEXT_CACHE_LIMIT = 1 << 18
"""Entries of a game's text cache before it is emptied (the built-in games stay far below: at most
distinct actions x seats x perspectives, about 20,000 for Capital Lux 2 with 4 players)."""


def _event_after(event: tuple[int, int, Message]) -> int:
    return event[0]


def _more(count: int) -> Message | str:
    """Return " (and N more)" when an error lists only the first :data:`_MAX_LISTED` of ``count`` moves."""
    return plural(" (and {n} more)", " (and {n} more)", count - _MAX_LISTED) if count > _MAX_LISTED else ""


class State(ABC, Generic[G]):
    """A position of a game.

    Attributes:
        game: the game (parameters, codec, info).
        seed: the seed the game was started with.
        rng: the state's own random generator; nothing else draws randomness.
        history: ``(seat, action)`` pairs applied since the initial state.
        log_events: ``(after, seat, message)``: what the rules did on their own, public, for the log (a character
            revealed when called, a theft and its amount, a face-up card drawn, a turn passed). ``after`` is the
            length of :attr:`history` when it happened: the line follows the action ``history[after - 1]``.
    """

    def __init__(self, game: G, seed: int) -> None:
        self.game: G = game
        self.seed = seed
        self.rng = Rng(seed)
        self.history: list[tuple[int, Action]] = []
        self.log_events: list[tuple[int, int, Message]] = []
        self._legal: list[Action] | None = None

    # ================================================================ to implement
    @abstractmethod
    def current_player(self) -> int:
        """Return the seat to move (0-based), or :data:`TERMINAL` when the game is over."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """Return the legal actions of the seat to move, in a deterministic order (non-terminal states only)."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply a legal action of the seat to move (legality was checked by :meth:`apply_action`)."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Return True once the game is over."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Return each seat's result, in ``[info.min_utility, info.max_utility]`` (all 0 before the end)."""

    @abstractmethod
    def scores(self) -> list[float]:
        """Return each seat's score in the game's own points (public scoring so far, final at the end)."""

    def projected_scores(self) -> list[float]:
        """Return a cheap estimate of each seat's final score from this position (default: ``scores()``).

        Searches cut short (``ismcts`` with a rollout depth) rank seats by it. A game whose points arrive in
        lumps (Capitol scores the board at each round end) overrides it to count what the position already holds.
        """
        return self.scores()

    def opponent_score(self) -> float | None:
        """Return the score of the game-run opponent of a solo game (e.g. ROB), or None if the game has none.

        Solo searches play for the margin ``scores()[0] - opponent_score()`` rather than for the score alone.
        """
        return None

    def observation_key(self, player: int) -> Hashable | None:
        """Return a cheap hashable key of what ``player`` has seen chance do, or None if the game gives none.

        "Chance" is every outcome no seat chooses: cards dealt or drawn, tokens drawn, the moves of a game-run
        opponent such as ROB. A closed-loop search (``ismcts:...:loop=closed``) keys the node an action leads to
        with this key too, so that the seat's later choices in its tree depend on what it was dealt or saw ROB do,
        as they do in the real game; an open-loop tree (the default) averages them over every outcome.

        The key must depend only on what ``player`` may know: two states that ``player`` cannot tell apart give
        equal keys (the conformance suite checks it against :meth:`resample_from_infostate`). The default, None,
        leaves the search open-loop.

        Args:
            player: the observing seat.
        """
        return None

    def shown_key(self, player: int) -> Hashable:
        """Return a key that changes whenever ``player`` is shown something chance or a hidden choice decided.

        "Shown" is what the rules put in front of ``player`` that it could not work out before: a card, tile or
        token drawn (by anyone: the deck's size is public, the card is not), a character called, sealed bids
        opened, another seat's hidden card made public. Undo (``meeple.core.undo``: terminal play and the server)
        never goes back over a step that changed it, whatever the other seats chose hidden: the key is the rule by
        construction, the sampled worlds only a second check. A game may be coarse (a change that showed nothing
        only refuses an undo); it must never miss a reveal.

        The default is the number of public log lines (:attr:`log_events`: reveals, face-up draws, turns passed);
        games add their own records (calls made, auctions opened, cards known, piles' sizes). Every part depends
        only on what ``player`` may know.

        Args:
            player: the observing seat.
        """
        return len(self.log_events)

    def check_consistency(self) -> None:
        """Check the position's ranges and conservation invariants (called on every restored snapshot).

        A game overrides it to check that every card, piece and token is in exactly one zone, that counters stay
        within their supply and that indices (seats, characters, phases) are in range; the helpers of
        :mod:`meeple.core.snapshot` (``expect_int``, ``expect_each_once``) name the field that fails. The default
        checks nothing.

        Raises:
            InvalidStateError: the first broken invariant, naming its field (``body.gold[2]``).
        """

    @abstractmethod
    def observation(self, player: int | None) -> Mapping[str, Any]:
        """Return a JSON-able dict of exactly what ``player`` may know; ``None`` is the spectator view.

        Each game narrows the type to its own ``TypedDict`` (e.g. ``CitadelsObservation`` in the game's
        ``observation.py``), which documents every field: its meaning, its units and who may see it.
        """

    @abstractmethod
    def _resample(self, player: int, rng: Rng) -> State[G]:
        """Return a copy with everything ``player`` cannot see re-dealt from ``rng``.

        The result must depend only on what ``player`` knows and on ``rng``: collect the unseen items in a
        canonical order (sorted), shuffle them with ``rng`` and deal them back. See :meth:`resample_from_infostate`.
        """

    @abstractmethod
    def _copy_fields(self, other: State[G]) -> None:
        """Copy the game-specific fields of ``self`` into ``other`` (deeply: nothing mutable may be shared)."""

    @abstractmethod
    def _body_to_json(self) -> dict[str, Any]:
        """Return the game-specific fields as a JSON-able dict."""

    @abstractmethod
    def _restore_body(self, body: dict[str, Any]) -> None:
        """Set the game-specific fields from :meth:`_body_to_json` output (its exact inverse)."""

    @abstractmethod
    def _describe(self, action: Action, actor: int, perspective: int | None) -> Message:
        """Return the text of ``action`` by ``actor`` as ``perspective`` may see it (``None`` = full text)."""

    # ================================================================ contract
    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Return the legal actions, in a deterministic order.

        Args:
            player: a seat; if given and not the seat to move, the result is empty.

        Returns:
            A new list of the canonical (interned) action instances; empty once the game is over.
        """
        if self._legal is None:
            self._legal = [] if self.is_terminal() else self._legal_actions()
        if player is not None and player != self.current_player():
            return []
        return list(self._legal)

    def observation_tensor(self, player: int) -> Any:
        """Return ``player``'s observation as a flat float32 numpy vector of ``game.observation_tensor_shape()``.

        Built from ``observation(player)`` only (what that seat may see), so the same in every world
        :meth:`resample_from_infostate` gives it; the fields are ``game.observation_tensor_layout().describe()``
        (docs/research.md). Needs numpy (``meeple[rl]``).

        Raises:
            NotImplementedError: the game defines no tensor.
        """
        out = zeros(self.game.observation_tensor_size())
        self.game._write_observation(self, player, out)
        return out

    def write_observation_tensor(self, player: int, out: Any) -> None:
        """Write :meth:`observation_tensor` of ``player`` into ``out``, a preallocated float32 numpy vector or row.

        For batched environments that keep one buffer for many games (``meeple.adapters.vector``).
        """
        self.game._write_observation(self, player, out)

    def observation_tensor_values(self, player: int) -> list[float]:
        """The values of :meth:`observation_tensor` as a Python list (no numpy needed).

        The game's fastest path (a direct encoder where the game has one), always equal to
        :meth:`encoded_observation_values`.
        """
        return self.game._observation_values(self, player)

    def encoded_observation_values(self, player: int) -> list[float]:
        """The tensor's values encoded from ``observation(player)``: the reference a direct encoder is tested against.

        Built from what the seat may see only, by construction (``Game._encode_observation``).
        """
        out = self.game.observation_tensor_layout().writer()
        self.game._encode_observation(self.observation(player), out)
        return out.values

    def information_state_tensor(self, player: int) -> Any:
        """Not provided: no bounded perfect-recall tensor fits these games (docs/research.md says why).

        A perfect-recall tensor must hold the whole redacted history; the games' histories run to hundreds of
        decisions (``game.info.max_game_length``), with hidden steps that have no public action code. Use
        :meth:`information_state_string` (perfect recall, exact) or :meth:`observation_tensor` (which carries the
        public record each game keeps: past calls, auction logs, towers' moves...).

        Raises:
            NotImplementedError: always.
        """
        raise NotImplementedError(
            "meeple games give no information_state_tensor: use information_state_string (perfect recall) or "
            "observation_tensor (docs/research.md)"
        )

    def legal_actions_mask(self, player: int | None = None) -> Any:
        """Return a numpy int8 vector of ``game.num_distinct_actions()``: 1 at each legal action's code.

        Args:
            player: a seat; another seat than the one to move gets all zeros (as :meth:`legal_actions`).
        """
        import numpy as np

        mask = np.zeros(self.game.info.num_distinct_actions, dtype=np.int8)
        mask[self.game.codec.encode_many(self.legal_actions(player))] = 1
        return mask

    def edited(self) -> None:
        """Tell the state its fields were set by hand (an explicit position in a test or a tool).

        Clears the cached legal actions, so that :meth:`legal_actions` and :meth:`apply_action` see the new
        position. :meth:`check_consistency` then says whether the position keeps every card, piece and token.
        """
        self._legal = None
        self.__dict__.pop("_redacted_cache", None)

    def fast_legal_actions(self) -> list[Action]:
        """Return the legal actions for a search's inner loop: no copy, no cache (the sanctioned fast path).

        Call it on a non-terminal state only (the loop checks :meth:`is_terminal` already). The list is the game's
        own fresh list, in the order of :meth:`legal_actions`. For searches and rollouts on their own (determinized)
        states; everything else uses :meth:`legal_actions`.
        """
        return self._legal_actions()

    def fast_apply_action(self, action: Action, actor: int | None = None) -> None:
        """Apply an action taken from this very state's legal actions, without the legality scan (fast path).

        For searches and rollouts that pick ``action`` from :meth:`fast_legal_actions` or :meth:`legal_actions` of
        this state: nothing is checked, so anything else may corrupt the state. Input from a player, a client or a
        file always goes through :meth:`apply_action`, whose checks this does not weaken.

        Args:
            action: one of the canonical legal actions of the seat to move.
            actor: the seat to move, if the caller knows it already (saves a ``current_player()`` call).
        """
        self._legal = None
        self.history.append((self.current_player() if actor is None else actor, action))
        self._apply(action)

    def legal_action_codes(self) -> list[int]:
        """Return the integer codes of :meth:`legal_actions`, in the same order (a mask for RL)."""
        if self._legal is None:
            self._legal = [] if self.is_terminal() else self._legal_actions()
        return self.game.codec.encode_many(self._legal)

    def apply_action(self, action: Action | int | Mapping[str, Any], player: int | None = None) -> None:
        """Apply one action of the seat to move.

        Args:
            action: an :class:`Action`, its integer code, or its JSON form.
            player: the seat submitting the action; if given it must be the seat to move.

        Raises:
            InvalidActionError: the action cannot be decoded: not an :class:`Action`, integer code or JSON object,
                an unknown type or field, a value out of range, another game's action, or a
                :class:`HiddenAction` placeholder.
            NotYourTurnError: ``player`` is not the seat to move.
            IllegalActionError: the game is over, or the action is not legal now. The message lists the legal
                actions as the seat to move sees them: a server passes ``player`` so that another seat only ever
                gets :class:`NotYourTurnError`.
            In every case the state is left exactly as it was.
        """
        if type(action) is int and 0 <= action < self.game.info.num_distinct_actions:  # the RL hot path: a code
            action = self.game.codec.all_actions[action]
        elif not isinstance(action, Action):
            action = self.game.to_action(action)
        if self.is_terminal():
            action = self._decode_refused(action)
            raise IllegalActionError(M("the game is over; {action} cannot be played", action=self._text(action)))
        actor = self.current_player()
        if player is not None and player != actor:
            raise NotYourTurnError(M("it is seat {seat}'s turn, not seat {player}'s", seat=actor, player=player))
        legal = self._legal if self._legal is not None else self.legal_actions()
        for candidate in legal:  # the game's canonical instances: found by identity, faster than ==
            if candidate is action:
                break
        else:
            if action not in legal:
                action = self._decode_refused(action)
                raise IllegalActionError(self._illegal_message(action, legal, actor))
            action = legal[legal.index(action)]  # an equal copy: record the canonical instance
        self._legal = None
        self.history.append((actor, action))
        self._apply(action)

    def _decode_refused(self, action: Action) -> Action:
        """Return the game's own instance of a refused action, or raise :class:`InvalidActionError` if it has none.

        Only refusals come here (never the hot path): a placeholder or another game's action is not this game's.
        """
        if type(action) is HiddenAction:
            raise InvalidActionError(
                "a HiddenAction stands for another seat's move in a resampled state and cannot be played"
            )
        return self.game.to_action(action)

    def _text(self, action: Action) -> Message | str:
        try:
            return self.action_message(action, perspective=None)
        except Exception:  # noqa: BLE001 - a message must never fail
            return repr(action)

    def _illegal_message(self, action: Action, legal: list[Action], actor: int) -> Message:
        shown = [self._message_of(a, actor, actor) for a in legal[:_MAX_LISTED]]
        reason = self.why_illegal(action)
        if reason is not None:
            return M(
                "{action} is not legal now for seat {seat}: {reason}; legal: {legal}{more}",
                action=self._message_of(action, actor, actor),
                seat=actor,
                reason=reason,
                legal=join(shown, "; "),
                more=_more(len(legal)),
            )
        return M(
            "{action} is not legal now for seat {seat}; legal: {legal}{more}",
            action=self._message_of(action, actor, actor),
            seat=actor,
            legal=join(shown, "; "),
            more=_more(len(legal)),
        )

    def why_illegal(self, action: Action) -> Message | None:
        """Why ``action`` (one of the game's) cannot be played now, in words the seat to move may read, or None.

        None when it is legal, or when the game gives no particular reason (the move list then says what is
        allowed). The reason holds only what the seat to move may know (its own hand and gold, the board).
        """
        if self.is_terminal() or action in self.legal_actions():
            return None
        try:
            return self._why_illegal(action)
        except Exception:  # noqa: BLE001 - an explanation must never fail: the refusal stands without it
            return None

    def _why_illegal(self, action: Action) -> Message | None:
        """Why a move that is not legal now is refused (games override; default: no particular reason)."""
        return None

    def action_to_string(self, action: Action, perspective: int | None = None, actor: int | None = None) -> str:
        """Return the English text of an action (``str`` of :meth:`action_message`).

        Args:
            action: the action.
            perspective: ``None`` for the full text; a seat for what that seat may see (hidden parts of other
                seats' actions are redacted); :data:`SPECTATOR` for the public view.
            actor: the seat that plays it (default: the seat to move).
        """
        return str(self.action_message(action, perspective, actor))

    def action_message(self, action: Action, perspective: int | None = None, actor: int | None = None) -> Message:
        """Return the text of an action as a :class:`~meeple.i18n.Message`, for the edges to render in any language.

        Arguments as :meth:`action_to_string`, which is its English text.
        """
        if actor is None:
            actor = self.current_player()
        return self._message_of(action, actor, perspective)

    def offer_message(self, action: Action, perspective: int | None = None) -> Message:
        """Return the text of a legal action as offered to the seat to move, with what it costs now.

        :meth:`action_message`, plus the note the game adds from the position (Citadels: the Warlord's price to
        destroy a district, which depends on the target city); not cached, since it reads the state. Clients list
        the legal moves with it; logs use :meth:`action_message`.
        """
        base = self.action_message(action, perspective)
        note = self._offer_note(action)
        return base if note is None else Message("{action} ({note})", {"action": base, "note": note}, VERBATIM)

    def _offer_note(self, action: Action) -> Message | None:
        """What ``action`` costs or brings now, for :meth:`offer_message` (games override; default: nothing)."""
        return None

    def _message_of(self, action: Action, actor: int, perspective: int | None) -> Message:
        return self._text_entry(action, actor, perspective)[0]

    def _text_entry(self, action: Action, actor: int, perspective: int | None) -> tuple[Message, Action, Action]:
        """Return ``(message, redacted, action)`` of ``action`` by ``actor`` seen from ``perspective`` (cached).

        ``redacted`` is ``action`` itself when ``perspective`` sees all of it, else the :class:`HiddenAction` that
        stands for it in a resampled history. The cache (``game.texts``) is keyed by the action's identity, which is
        cheap to hash (actions are interned by the codec); the entry keeps the action alive, so that its identity is
        never reused by another object while the entry exists.
        """
        key = (id(action), actor, perspective)
        entry = self.game.texts.get(key)
        if entry is None:
            if type(action) is HiddenAction:
                assert isinstance(action, HiddenAction)
                message = (
                    Message(action.text, None, VERBATIM)
                    if action.message is None
                    else Message.from_json(action.message)
                )
                entry = (message, action, action)
            else:
                message = self._describe(action, actor, perspective)
                full = message if perspective is None else self._message_of(action, actor, None)
                redacted = action if message == full else HiddenAction(str(message), message.to_json())
                entry = (message, redacted, action)
            if len(self.game.texts) >= _TEXT_CACHE_LIMIT:  # a game whose actions are not interned: stay bounded
                self.game.texts.clear()
            self.game.texts[key] = entry
        return entry

    def _event(self, seat: int, message: Message) -> None:
        """Log ``message`` about ``seat`` after the action being applied (games call it from :meth:`_apply`).

        An event is public: every seat and the spectator read it, so it must hold nothing hidden.
        """
        self.log_events.append((len(self.history), seat, message))

    def history_texts(self, perspective: int | None, start: int = 0) -> list[tuple[int, str]]:
        """Return ``(actor, English text)`` for each action since ``start``, as ``perspective`` saw it.

        The English texts of :meth:`history_messages` (same arguments, same collapsing).
        """
        return [(actor, str(message)) for actor, message in self.history_messages(perspective, start)]

    def history_messages(self, perspective: int | None, start: int = 0) -> list[tuple[int, Message]]:
        """Return ``(actor, message)`` for each action since ``start``, as ``perspective`` saw it.

        A run of consecutive redacted actions of one other seat that read the same (the cards of a sealed bid
        entered one by one, say) is shown once: a seat does not learn how many hidden steps another seat took.
        The public :attr:`log_events` come right after the action they followed (``(seat, message)`` lines too).

        Args:
            perspective: a seat, :data:`SPECTATOR`, or ``None`` for the full texts (nothing collapsed).
            start: index in :attr:`history` of the first action; the events of that action and later ones follow.
        """
        return self._history_lines(perspective, start, None)

    def line_ends(self, perspective: int | None) -> list[int]:
        """Return, for each line of ``history_messages(perspective)``, the history length at which it was complete.

        An action's line ends after its last action (a collapsed run of another seat's hidden steps ends with its
        last step); an event's line ends with the action it followed (0 before the first). The state after
        ``history[:line_ends()[k]]`` is the position the reader saw once the log held ``k + 1`` lines: the boards
        a browser plays back one at a time (issue #43), found from the reader's own log alone.

        Args:
            perspective: as :meth:`history_messages`.
        """
        ends: list[int] = []
        self._history_lines(perspective, 0, ends)
        return ends

    def _history_lines(self, perspective: int | None, start: int, ends: list[int] | None) -> list[tuple[int, Message]]:
        """:meth:`history_messages`; with ``ends``, each line's end (:meth:`line_ends`) is written there too."""
        out: list[tuple[int, Message]] = []
        texts = self.game.texts
        last_actor, last_message = -99, None
        events = self.log_events
        e = 0
        if events and start:  # the events of earlier actions were read with them
            e = bisect_right(events, start, key=_event_after)
        while e < len(events) and events[e][0] == 0:  # before the first action (start == 0 only)
            out.append((events[e][1], events[e][2]))
            if ends is not None:
                ends.append(0)
            e += 1
        for index, (actor, action) in enumerate(self.history[start:], start + 1):
            entry = texts.get((id(action), actor, perspective)) or self._text_entry(action, actor, perspective)
            message = entry[0]
            if not (
                actor == last_actor
                and perspective is not None
                and actor != perspective
                and (entry[1] is not action or type(action) is HiddenAction)
                and (message is last_message or message == last_message)
            ):
                out.append((actor, message))
                last_actor, last_message = actor, message
                if ends is not None:
                    ends.append(index)
            elif ends is not None:
                ends[-1] = index  # the run goes on: its line ends later
            if e < len(events) and events[e][0] == index:
                while e < len(events) and events[e][0] == index:
                    out.append((events[e][1], events[e][2]))
                    if ends is not None:
                        ends.append(index)
                    e += 1
                last_actor, last_message = -99, None  # an event ends a run of hidden steps
        return out

    def string_to_action(self, text: str, player: int | None = None) -> Action:
        """Return the legal action whose full text is ``text`` (case-insensitive), or decode JSON / an integer code.

        Args:
            text: an action's text, its JSON form, or its integer code.
            player: the seat asking; if given and not the seat to move, :class:`NotYourTurnError` is raised (so the
                message never lists another seat's moves).

        Raises:
            InvalidActionError: nothing matches; the message lists the legal texts of the seat to move.
            NotYourTurnError: ``player`` is not the seat to move.
        """
        if player is not None and player != self.current_player():
            raise NotYourTurnError(
                M("it is seat {seat}'s turn, not seat {player}'s", seat=self.current_player(), player=player)
            )
        if not isinstance(text, str):
            raise InvalidActionError(M("an action's text is a string, not {type}", type=type(text).__name__))
        wanted = text.strip()
        legal = self.legal_actions()
        for a in legal:
            if self.action_to_string(a).lower() == wanted.lower():
                return a
        if wanted.startswith("{"):
            try:
                return self.game.action_from_json(json.loads(wanted))
            except (json.JSONDecodeError, RecursionError) as exc:
                raise InvalidActionError(M("malformed JSON action: {error}", error=str(exc))) from None
        if wanted.isdecimal() and wanted.isascii() and len(wanted) <= 18:
            return self.game.action_from_code(int(wanted))
        mover = self.current_player()
        shown = [self.action_message(a, perspective=mover) for a in legal[:_MAX_LISTED]]
        raise InvalidActionError(
            M(
                "no legal action reads {text}; legal: {legal}{more}",
                text=short_repr(text),
                legal=join(shown, "; ") if shown else M("none (game over)"),
                more=_more(len(legal)),
            )
        )

    def information_state_string(self, player: int) -> str:
        """Return a perfect-recall key of what ``player`` knows: their observation and the history as they saw it.

        Two states give the same string for ``player`` exactly when ``player`` cannot tell them apart.
        """
        obs = json.dumps(self.observation(player), sort_keys=True, separators=(",", ":"))
        seen = "\n".join(f"{p}:{text}" for p, text in self.history_texts(player))
        return f"{obs}\n{seen}"

    def resample_from_infostate(self, player: int, rng: Rng) -> State[G]:
        """Return a full state consistent with what ``player`` knows, hidden parts re-dealt from ``rng``.

        Everything ``player`` can see (their observation and information state) is unchanged; the copy gets a
        fresh generator forked from ``rng``, so it shares no future randomness with this state, and its history
        holds :class:`HiddenAction` placeholders wherever ``player`` saw an action redacted. Such a state can be
        played on and serialized, but not replayed from its seed.

        Args:
            player: the seat whose knowledge is kept.
            rng: the source of the re-deal; it is advanced.
        """
        other = self._resample(player, rng)
        other.history = self._redacted_history(player)
        other.log_events = list(self.log_events)  # public: the same in every world
        other.rng = rng.fork()
        # The seed is the game master's secret: ``new_initial_state(seed)`` rebuilds every hand and the deck order.
        # The copy gets a seed drawn from ``rng`` (what the seat knows and its own randomness), never the real one.
        other.seed = other.rng.clone().randrange(1 << 62)
        other._legal = None
        return other

    def _redacted_history(self, player: int) -> list[tuple[int, Action]]:
        """Return a new list of the history as ``player`` saw it (:meth:`_redacted` of every other seat's action).

        Cached on this state per player and extended by the steps played since, so that the determinizations of a
        search (thousands from one state) and of the following moves redact only the new steps; what remains per
        call is one list copy. The cache is checked against the last step it covered; :meth:`edited` drops it.
        """
        history = self.history
        cache: dict[int, tuple[int, tuple[int, Action] | None, list[tuple[int, Action]]]] | None
        cache = self.__dict__.get("_redacted_cache")
        if cache is None:
            cache = self.__dict__["_redacted_cache"] = {}
        entry = cache.get(player)
        if entry is not None:
            done, last, out = entry
            if done > len(history) or (done and history[done - 1] is not last):
                entry = None
        if entry is None:
            done, out = 0, []
        if done < len(history):
            out.extend((p, a if p == player else self._redacted(a, p, player)) for p, a in history[done:])
            cache[player] = (len(history), history[-1], out)
        return list(out)

    def _redacted(self, action: Action, actor: int, perspective: int) -> Action:
        """Return ``action`` if ``perspective`` saw all of it, else a :class:`HiddenAction` with what it saw."""
        return self._text_entry(action, actor, perspective)[1]

    def clone(self) -> State[G]:
        """Return an exact, independent deep copy (random generator included)."""
        other = self._empty(self.game)
        other.game = self.game
        other.seed = self.seed
        other.rng = self.rng.clone()
        other.history = list(self.history)
        other.log_events = list(self.log_events)
        other._legal = self._legal
        self._copy_fields(other)
        return other

    def to_json(self) -> dict[str, Any]:
        """Return the exact state as JSON-able data; ``game.state_from_json`` rebuilds it."""
        return {
            "format": STATE_FORMAT,
            "game": self.game.name,
            "params": self.game.params_dict(),
            "seed": self.seed,
            "rng": self.rng.to_json(),
            "history": [[p, a.to_json()] for p, a in self.history],
            "log_events": [[after, seat, message.to_json()] for after, seat, message in self.log_events],
            "body": self._body_to_json(),
        }

    @classmethod
    def _empty(cls, game: G) -> Self:
        """Return an instance of this class with no field set yet, for :meth:`clone` and :meth:`_blank` to fill.

        The default skips ``__init__`` (``cls.__new__``). A state class compiled with mypyc (the optional compiled
        build, setup.py) cannot be made that way: its ``__new__`` runs ``__init__``. Such a class overrides this
        with an ``__init__`` that returns at once (the games' ``blank=True``).
        """
        return cls.__new__(cls)

    @classmethod
    def _blank(cls, game: G, seed: int) -> Self:
        """Return a state with only the core fields set, to be filled by :meth:`restore` (games may override)."""
        state = cls._empty(game)
        State.__init__(state, game, seed)
        return state

    @classmethod
    def restore(cls, game: G, data: Mapping[str, Any]) -> Self:
        """Rebuild the state serialized by :meth:`to_json` (``Game.state_from_json`` checks the data first).

        Raises:
            KeyError, TypeError, ValueError: malformed data (``Game.state_from_json`` reports them as
            :class:`~meeple.core.errors.InvalidStateError`).
        """
        state = cls._blank(game, int(data["seed"]))
        state._restore_common(data)
        state._restore_body(dict(data["body"]))
        return state

    def _restore_common(self, data: Mapping[str, Any]) -> None:
        """Restore the fields this class owns from :meth:`to_json` data (for ``_state_from_body``)."""
        self.seed = int(data["seed"])
        self.rng = Rng.from_json(data["rng"])
        self.history = [
            (
                int(p),
                HiddenAction(str(a["text"]), a.get("message"))
                if a.get("type") == HiddenAction.type_name
                else self.game.action_from_json(a),
            )
            for p, a in data["history"]
        ]
        self.log_events = [(int(after), int(seat), Message.from_json(m)) for after, seat, m in data["log_events"]]
        self._legal = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle a state as its exact :meth:`to_json` snapshot (worker processes of a search, Ray tasks).

        The same in both builds: a state class compiled with mypyc (setup.py) has no ``__dict__`` to pickle.
        Caches are not sent; the copy recomputes them.
        """
        return (_unpickle_state, (type(self), self.game, self.to_json()))

    def __str__(self) -> str:
        return json.dumps(self.observation(None), sort_keys=True, indent=1)


def _unpickle_state(cls: type[State[Any]], game: Any, data: Mapping[str, Any]) -> State[Any]:
    """Rebuild a pickled state (see :meth:`State.__reduce__`): its own snapshot, trusted, so not re-checked."""
    return cls.restore(game, data)
