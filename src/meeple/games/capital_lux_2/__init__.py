"""Capital Lux 2: Generations (2-4 players, or solo against ROB), with the 16 power tiles as plugins.

Rules: ../shared/rules/capital_lux_2.md.
"""

from meeple.games.capital_lux_2.data import solo_rating
from meeple.games.capital_lux_2.game import CapitalLux2Game
from meeple.games.capital_lux_2.params import CapitalLux2Params
from meeple.games.capital_lux_2.powers import POWERS, PowerTile
from meeple.games.capital_lux_2.spec import SPEC
from meeple.games.capital_lux_2.state import CapitalLux2State

__all__ = ["SPEC", "POWERS", "CapitalLux2Game", "CapitalLux2Params", "CapitalLux2State", "PowerTile", "solo_rating"]
