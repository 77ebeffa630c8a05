"""Citadels (Citadelles, 1st edition, Bruno Faidutti, 2000): the complete rules engine.

Importing this package registers the game as ``"citadels"``. Rules: ../shared/rules/citadels.md.
"""

from meeple.games.citadels.game import Citadels
from meeple.games.citadels.params import CitadelsParams
from meeple.games.citadels.spec import SPEC
from meeple.games.citadels.state import CitadelsState

__all__ = ["SPEC", "Citadels", "CitadelsParams", "CitadelsState"]
