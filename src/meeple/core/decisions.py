"""Shared mechanisms for multi-step turns and simultaneous choices.

- :class:`Decision` and a plain ``list`` used as a stack: a multi-step turn pushes the decisions it still needs
  (choose a card to keep, then a target...) instead of enumerating combinations.
- :class:`SealedCommitments`: a simultaneous choice (sealed bid, draft pick) played as sequential hidden
  commitments. One seat commits at a time, so every search algorithm works; no seat sees another's commitment
  until all are in and :meth:`SealedCommitments.reveal` is called.

Rules: architecture "Multi-step turns" and "Simultaneous choices".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

T = TypeVar("T")

SEALED = "sealed"
"""What a seat sees in place of another seat's commitment that is in but not revealed."""


class Decision(NamedTuple):
    """One pending decision: who decides, what kind of decision, and its immutable data.

    A named tuple rather than a frozen dataclass: as immutable, and twice as fast to build (engines push and pop
    decisions on their hot path).

    Attributes:
        player: the seat that decides.
        kind: a game-specific name, e.g. ``"keep_card"``.
        data: immutable details (card ids to choose from, a target list...).
    """

    player: int
    kind: str
    data: tuple[Any, ...] = ()

    def to_json(self) -> list[Any]:
        """Return ``[player, kind, data]`` (nested tuples become lists)."""
        return [self.player, self.kind, _to_list(self.data)]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Decision:
        """Rebuild a decision from :meth:`to_json` output."""
        return cls(int(data[0]), str(data[1]), _to_tuple(data[2]))


def _to_list(value: Any) -> Any:
    return [_to_list(v) for v in value] if isinstance(value, tuple) else value


def _to_tuple(value: Any) -> Any:
    return tuple(_to_tuple(v) for v in value) if isinstance(value, list) else value


class SealedCommitments(Generic[T]):
    """Sequential hidden commitments for one simultaneous choice.

    Args:
        order: the seats that must commit, in the order they are asked.
    """

    __slots__ = ("order", "values")

    def __init__(self, order: Sequence[int]) -> None:
        self.order: tuple[int, ...] = tuple(order)
        self.values: dict[int, T] = {}

    def pending_player(self) -> int | None:
        """Return the next seat to commit, or ``None`` when every seat has committed."""
        for seat in self.order:
            if seat not in self.values:
                return seat
        return None

    def commit(self, player: int, value: T) -> None:
        """Record ``player``'s commitment.

        Raises:
            ValueError: ``player`` is not the seat whose commitment is expected.
        """
        if player != self.pending_player():
            raise ValueError(f"seat {player} cannot commit now; expected seat {self.pending_player()}")
        self.values[player] = value

    def is_complete(self) -> bool:
        """Return True once every seat has committed."""
        return len(self.values) == len(self.order)

    def reveal(self) -> dict[int, T]:
        """Return every commitment by seat.

        Raises:
            ValueError: not every seat has committed yet.
        """
        if not self.is_complete():
            raise ValueError(f"commitments are revealed only when all are in; waiting for {self.pending_player()}")
        return dict(self.values)

    def view(self, perspective: int | None, encode: Callable[[T], Any] = lambda v: v) -> list[Any]:
        """Return, per seat of :attr:`order`, what ``perspective`` sees: own value, :data:`SEALED`, or ``None``."""
        return [
            (encode(self.values[s]) if s == perspective else SEALED) if s in self.values else None for s in self.order
        ]

    def copy(self) -> SealedCommitments[T]:
        """Return an independent copy (values are shared, so keep them immutable)."""
        other: SealedCommitments[T] = SealedCommitments(self.order)
        other.values = dict(self.values)
        return other

    def to_json(self, encode: Callable[[T], Any] = lambda v: v) -> dict[str, Any]:
        """Return ``{"order": [...], "values": [[seat, value], ...]}``."""
        return {"order": list(self.order), "values": [[s, encode(v)] for s, v in self.values.items()]}

    @classmethod
    def from_json(cls, data: dict[str, Any], decode: Callable[[Any], T] = lambda v: v) -> SealedCommitments[T]:
        """Rebuild from :meth:`to_json` output.

        Raises:
            ValueError: a seat twice in ``order``, or commitments that are not the first seats of ``order`` (seats
                commit in order): no snapshot of a real game has them.
        """
        out: SealedCommitments[T] = cls([int(s) for s in data["order"]])
        if len(set(out.order)) != len(out.order):
            raise ValueError(f"order: each seat once, not {list(out.order)}")
        out.values = {int(s): decode(v) for s, v in data["values"]}
        if list(out.values) != list(out.order[: len(out.values)]):
            raise ValueError(f"values: the first seats of order {list(out.order)}, in order, not {list(out.values)}")
        return out
