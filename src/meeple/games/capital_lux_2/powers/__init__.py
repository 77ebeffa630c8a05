"""The power-tile registry: one module per tile; adding or replacing a tile touches its module and one line here.

Rules: capital_lux_2.md "Power-tile interface"; FR configuration table (A Commencement, B Révolution, C Harmonie,
D Anarchie).
"""

from __future__ import annotations

import importlib

from meeple.games.capital_lux_2.powers.base import PowerTile

_TILE_CLASSES: tuple[str, ...] = (
    "agent:Agent",
    "clerc:Clerc",
    "marchand:Marchand",
    "savant:Savant",
    "infiltre:Infiltre",
    "prophete:Prophete",
    "disciple:Disciple",
    "proselytiste:Proselytiste",
    "recruteur:Recruteur",
    "missionnaire:Missionnaire",
    "aristocrate:Aristocrate",
    "explorateur:Explorateur",
    "etranger:Etranger",
    "mentaliste:Mentaliste",
    "sentinelle:Sentinelle",
    "dualiste:Dualiste",
)
"""One line per tile: ``"<module in powers/>:<PowerTile subclass>"`` (configuration order A-D, colour order)."""


def _load() -> dict[str, PowerTile]:
    out: dict[str, PowerTile] = {}
    for entry in _TILE_CLASSES:
        module, cls = entry.split(":")
        tile = getattr(importlib.import_module(f"{__name__}.{module}"), cls)()
        assert isinstance(tile, PowerTile) and tile.tile_id not in out, entry
        out[tile.tile_id] = tile
    return out


POWERS: dict[str, PowerTile] = _load()
"""Tile id -> tile (stateless singletons), in configuration order A, B, C, D and colour order within each."""


def preset(config: str) -> tuple[str, str, str, str]:
    """Return the four tile ids (blue, pink, yellow, green) of a preset configuration letter A-D."""
    by_colour = {t.colour: t.tile_id for t in POWERS.values() if t.config == config}
    return (by_colour[0], by_colour[1], by_colour[2], by_colour[3])


def _validate() -> None:
    for config in "ABCD":
        ids = preset(config)
        assert [POWERS[i].colour for i in ids] == [0, 1, 2, 3], config
    assert len(POWERS) == 16
    assert sum(not t.solo_allowed for t in POWERS.values()) == 3


_validate()

__all__ = ["POWERS", "PowerTile", "preset"]
