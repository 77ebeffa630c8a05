"""Seeded randomness owned by a state.

Rules: architecture "Randomness" — the state owns a seeded RNG; nothing else calls :mod:`random`.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class Rng:
    """A seeded pseudo-random generator with an exact JSON form and independent forks.

    :meth:`clone` is copy-on-write: the copies share the underlying generator until one of them draws, which
    then takes a private copy first. Cloning a state is cheap, and a clone never moves another clone's sequence.

    Args:
        seed: any integer; the same seed gives the same sequence.
    """

    __slots__ = ("_random", "_shared")

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)
        self._shared = False

    def _own(self) -> random.Random:
        """Return the generator, first taking a private copy if it is shared with a clone."""
        if self._shared:
            private = random.Random()
            private.setstate(self._random.getstate())
            self._random = private
            self._shared = False
        return self._random

    def randrange(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)``. Raises ``ValueError`` if ``n <= 0``."""
        return self._own().randrange(n)

    def random(self) -> float:
        """Return a uniform float in ``[0, 1)``."""
        return self._own().random()

    def choice(self, items: Sequence[T]) -> T:
        """Return one element of a non-empty sequence, uniformly."""
        return items[self._own().randrange(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle ``items`` in place, uniformly."""
        self._own().shuffle(items)

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """Return ``k`` distinct elements of ``items`` in random order."""
        return self._own().sample(items, k)

    def fork(self) -> Rng:
        """Return a new generator seeded from this one (advances this generator by one draw).

        The fork shares no future with this generator, so a copy handed to a bot cannot predict the deck.
        """
        return Rng(self._own().getrandbits(63))

    def clone(self) -> Rng:
        """Return an exact copy: the copy produces the same future sequence as this generator."""
        other = Rng.__new__(Rng)
        other._random = self._random
        other._shared = self._shared = True
        return other

    def to_json(self) -> list[Any]:
        """Return the exact internal state as a JSON-able list."""
        version, internal, gauss = self._random.getstate()
        return [version, list(internal), gauss]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Rng:
        """Rebuild a generator from :meth:`to_json` output.

        Raises:
            ValueError: if ``data`` is not a state produced by :meth:`to_json`.
        """
        rng = cls.__new__(cls)
        rng._shared = False
        rng._random = random.Random()
        if not isinstance(data, (list, tuple)) or len(data) != 3 or not isinstance(data[1], (list, tuple)):
            raise ValueError("not a serialized Rng state: expected [version, [625 integers], gauss]")
        try:
            rng._random.setstate((int(data[0]), tuple(int(x) for x in data[1]), data[2]))
        except (TypeError, IndexError, ValueError, OverflowError) as exc:
            raise ValueError(f"not a serialized Rng state: {exc}") from exc
        return rng


def derive_seed(seed: int, *labels: int | str) -> int:
    """Return a seed for a helper of a game (a bot, a worker) that does not reveal the game's own seed.

    A one-way hash (SHA-256) of ``seed`` and ``labels``: the same inputs always give the same seed, so seeded runs
    stay reproducible, but a bot holding its seed cannot recover ``seed`` and rebuild the deal with
    ``new_initial_state(seed)`` (architecture "Randomness": the seed is the game master's secret).

    Args:
        seed: the game's seed.
        *labels: what the seed is for, e.g. ``"bot", seat``.

    Returns:
        An integer in ``[0, 2**31)``.
    """
    text = ":".join(str(part) for part in (seed, *labels))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "big") >> 1
