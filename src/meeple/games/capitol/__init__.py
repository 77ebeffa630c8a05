"""Capitol (Moon & Weissblum, 2001): the rules engine.

Rules: ../shared/rules/capitol.md. Importing this package registers the game as ``"capitol"``.
"""

from meeple.games.capitol.game import Capitol
from meeple.games.capitol.params import CapitolParams
from meeple.games.capitol.spec import SPEC
from meeple.games.capitol.state import CapitolState

__all__ = ["SPEC", "Capitol", "CapitolParams", "CapitolState"]
