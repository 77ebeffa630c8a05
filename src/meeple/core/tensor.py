"""Fixed-length tensors of observations: named fields at fixed offsets of one flat float32 vector.

A game describes its observation tensor as a :class:`TensorLayout` (fields in order, each with a size and what it
encodes) and fills it from the seat's typed observation with a :class:`TensorWriter`. Because the tensor is built
from ``observation(seat)`` only, it holds exactly what that seat may see and is the same in every world
``resample_from_infostate`` can produce.

Conventions shared by the four games (docs/research.md lists every field of every game):

- seats are **relative to the observer**: slot ``k`` of a per-seat field is seat ``(me + k) % players``, so slot 0
  is always "me" (a policy does not need to learn each seat separately);
- counts and amounts are scaled by a fixed constant named in the field's description (e.g. gold / 10), so values
  stay near [0, 1] without depending on the game in progress;
- an absent value (no current character, no pending decision) leaves its one-hot block all zeros.

numpy is imported only when a tensor is asked for (the extra ``meeple[rl]``); the engines need nothing of it.

Rules: issue "For researchers: tensors and action masks"; OpenSpiel's ``observation_tensor`` /
``observation_tensor_shape`` names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, cast

OBS_BOUND = 10.0
"""Every value of every observation tensor lies in ``[-OBS_BOUND, OBS_BOUND]`` (the fields' fixed scales keep them
near [0, 1]): the bound of the observation spaces of the Gymnasium, PettingZoo and vector environments."""


@dataclass(frozen=True, slots=True)
class TensorField:
    """One named block of a tensor: ``size`` floats from ``offset``; ``doc`` says what they encode and their units."""

    name: str
    offset: int
    size: int
    doc: str


class TensorLayout:
    """The fields of a flat tensor, in order. Build with :meth:`add`; read ``size`` and :meth:`describe`."""

    def __init__(self) -> None:
        self.fields: list[TensorField] = []
        self.offsets: dict[str, TensorField] = {}
        self.starts: dict[str, int] = {}
        """Each field's offset by name (what a direct encoder indexes with)."""
        self.size = 0

    def add(self, name: str, size: int, doc: str) -> None:
        """Append the field ``name`` of ``size`` floats.

        Raises:
            ValueError: ``name`` is already a field, or ``size`` < 1.
        """
        if name in self.offsets:
            raise ValueError(f"field {name!r} is already in the layout")
        if size < 1:
            raise ValueError(f"field {name!r} needs a size of at least 1, not {size}")
        field = TensorField(name, self.size, size, doc)
        self.fields.append(field)
        self.offsets[name] = field
        self.starts[name] = self.size
        self.size += size

    def describe(self) -> list[dict[str, Any]]:
        """Return ``[{"name", "offset", "size", "doc"}, ...]`` in order (the documentation tables)."""
        return [{"name": f.name, "offset": f.offset, "size": f.size, "doc": f.doc} for f in self.fields]

    def writer(self) -> TensorWriter:
        """Return a writer of one tensor of this layout, all zeros."""
        return TensorWriter(self)


class TensorWriter:
    """Fills one tensor of a :class:`TensorLayout`; ``values`` is the flat list of floats.

    Every method checks its index against the field's size (``IndexError``): a value never spills into the next field.
    """

    __slots__ = ("layout", "values")

    def __init__(self, layout: TensorLayout) -> None:
        self.layout = layout
        self.values = [0.0] * layout.size

    def _slot(self, name: str, index: int) -> int:
        field = self.layout.offsets[name]
        if not 0 <= index < field.size:
            raise IndexError(f"index {index} is outside field {name!r} of size {field.size}")
        return field.offset + index

    def set(self, name: str, value: float, index: int = 0) -> None:
        """Set element ``index`` of field ``name`` to ``value``."""
        self.values[self._slot(name, index)] = float(value)

    def add(self, name: str, index: int, amount: float = 1.0) -> None:
        """Add ``amount`` to element ``index`` of field ``name`` (counts)."""
        self.values[self._slot(name, index)] += amount

    def one_hot(self, name: str, index: int | None) -> None:
        """Set element ``index`` of field ``name`` to 1 (``None``: leave the block all zeros)."""
        if index is not None:
            self.values[self._slot(name, index)] = 1.0

    def many_hot(self, name: str, indices: Iterable[int]) -> None:
        """Set each element of ``indices`` in field ``name`` to 1."""
        for index in indices:
            self.values[self._slot(name, index)] = 1.0

    def put(self, name: str, values: Sequence[float], scale: float = 1.0) -> None:
        """Write ``values`` (each divided by ``scale``) from the start of field ``name``."""
        field = self.layout.offsets[name]
        if len(values) > field.size:
            raise IndexError(f"{len(values)} values do not fit field {name!r} of size {field.size}")
        for i, v in enumerate(values):
            self.values[field.offset + i] = float(v) / scale


class TensorBuffer(Protocol):
    """Where a direct encoder writes one tensor: ``layout.size`` floats read and written by index.

    A ``list[float]`` or a ``memoryview`` of floats (a numpy float32 row seen through :func:`zeroed_buffer`).
    """

    def __getitem__(self, index: int, /) -> float: ...

    def __setitem__(self, index: int, value: float, /) -> None: ...


S_contra = TypeVar("S_contra", contravariant=True)


class DirectTensor(Protocol[S_contra]):
    """A game's direct tensor encoder (``Game.direct_tensor``: the game's ``tensor`` module), for states of type ``S``.

    It reads a seat's observation tensor straight from the state, without building the seat's observation, and must
    give exactly the values of encoding ``observation(me)`` (``Game._encode_observation``): so it shows a seat nothing
    its observation does not. ``tests/games/test_tensor_fast_path.py`` compares the two at every decision of many
    games, for every seat. ``me`` is always a seat (``0 <= me < players``); a spectator's tensor is encoded from its
    observation.

    Rules: issue "The server's front door" (item 6: the fast tensor path typed); docs/research.md "Faster tensors".
    """

    def values_from_state(self, state: S_contra, me: int, layout: TensorLayout, /) -> list[float]:
        """Return seat ``me``'s tensor of ``state`` (``layout.size`` floats; ``layout`` is the game's layout)."""
        ...

    def fill_from_state(self, state: S_contra, me: int, layout: TensorLayout, v: TensorBuffer, /) -> None:
        """Write seat ``me``'s tensor of ``state`` into ``v``, ``layout.size`` zeros (a list or a float buffer)."""
        ...


def relative(seat: int, me: int | None, players: int) -> int:
    """Return the slot of ``seat`` seen from ``me`` (``(seat - me) % players``; a spectator sees absolute seats)."""
    return seat if me is None else (seat - me) % players


def _numpy() -> Any:
    try:
        import numpy as np
    except ImportError as exc:  # pragma: no cover - numpy is in the test extra
        raise ImportError("tensors need numpy: pip install 'meeple[rl]'") from exc
    return np


def to_array(values: list[float]) -> Any:
    """Return ``values`` as a numpy float32 vector (numpy: ``pip install 'meeple[rl]'``).

    Raises:
        ImportError: numpy is not installed (the message names the extra).
    """
    np = _numpy()
    return np.asarray(values, dtype=np.float32)


def zeros(size: int) -> Any:
    """Return a numpy float32 vector of ``size`` zeros (numpy: ``pip install 'meeple[rl]'``).

    Raises:
        ImportError: numpy is not installed (the message names the extra).
    """
    np = _numpy()
    return np.zeros(size, dtype=np.float32)


def float_buffer(out: Any, size: int) -> memoryview[float] | None:
    """``out`` seen as a writable flat ``memoryview`` of ``size`` floats, for a direct encoder to write into.

    Returns None when ``out`` is not a writable, contiguous float32/float64 numpy vector of ``size`` values (the
    caller then copies a list in, which raises numpy's own error for a wrong shape).
    """
    if not hasattr(out, "fill"):
        return None
    try:
        view = memoryview(out)
    except TypeError:
        return None
    if view.readonly or view.ndim != 1 or view.format not in ("f", "d") or not view.c_contiguous or len(view) != size:
        return None
    return cast("memoryview[float]", view)  # format "f" or "d": its items are floats


def zeroed_buffer(out: Any, size: int) -> memoryview[float] | None:
    """``out`` zeroed and seen as a writable flat ``memoryview`` of floats (:func:`float_buffer`), or None.

    ``out`` is zeroed only when a view is returned (otherwise it is left as it was).
    """
    view = float_buffer(out, size)
    if view is not None:
        out.fill(0.0)
    return view
