"""Difficulty levels for human players: ``easy``, ``medium`` and ``hard``, mapped to bots and budgets per game.

``make_bot("hard", game)`` (and ``--bots hard`` on the command line) builds the bot of :data:`LEVELS` for that
game; a game missing from the table gets :data:`DEFAULT_LEVELS` (with the random bot standing in for a heuristic
bot the game does not have yet). The budgets of ``hard`` were chosen so that a move takes about 1–2 s on one core of
a 2024 laptop-class CPU (see docs/bots.md for the table and the measured speeds).

| level  | bot                                                                                 |
|--------|-------------------------------------------------------------------------------------|
| easy   | the heuristic bot, but a uniformly random legal move 40% of the time                 |
| medium | the heuristic bot                                                                   |
| hard   | ISMCTS with a per-game iteration budget and the heuristic bot's move as prior         |
|        | (``ismcts:N:prior=heuristic``: kept unless the search beats it by 2 standard errors) |
"""

from __future__ import annotations

from meeple.bots.base import HEURISTIC_BOTS, Bot, make_bot
from meeple.core.action import Action
from meeple.core.errors import InvalidParameterError
from meeple.core.view import SeatView

LEVEL_NAMES = ("easy", "medium", "hard")
"""The difficulty levels, from weakest to strongest."""

EASY_NOISE = 0.4
"""Probability that the ``easy`` bot plays a uniformly random legal move instead of the heuristic one."""

DEFAULT_LEVELS: dict[str, str] = {
    "easy": f"noisy:{EASY_NOISE}",
    "medium": "heuristic",
    "hard": "ismcts:300",
}
"""Level -> bot spec for games without an entry in :data:`LEVELS`."""

LEVELS: dict[str, dict[str, str]] = {
    "citadels": {"easy": f"noisy:{EASY_NOISE}", "medium": "heuristic", "hard": "ismcts:300:prior=heuristic"},
    "capitol": {"easy": f"noisy:{EASY_NOISE}", "medium": "heuristic", "hard": "ismcts:300:prior=heuristic"},
    "capital_lux_2": {"easy": f"noisy:{EASY_NOISE}", "medium": "heuristic", "hard": "ismcts:1000:prior=heuristic"},
    "caprice": {"easy": f"noisy:{EASY_NOISE}", "medium": "heuristic", "hard": "ismcts:2000:prior=heuristic"},
}
"""Game -> level -> bot spec (``noisy:P`` = the heuristic bot with probability ``P`` of a random move)."""


class NoisyBot(Bot):
    """Plays like ``inner`` but picks a uniformly random legal move with probability ``noise``.

    Args:
        inner: the bot whose moves are perturbed.
        noise: probability in ``[0, 1]`` of a random move.
        seed: seed of the noise generator.
    """

    name = "noisy"

    def __init__(self, inner: Bot, noise: float, seed: int = 0) -> None:
        super().__init__(seed)
        if not 0.0 <= noise <= 1.0:
            raise InvalidParameterError(f"noise is a probability in [0, 1], not {noise}")
        self.inner = inner
        self.noise = noise

    def select_action(self, view: SeatView) -> Action:
        """Return a random legal move with probability ``noise``, else the inner bot's move."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (it is not its turn)")
        if self.rng.random() < self.noise:
            return legal[self.rng.randrange(len(legal))]
        return self.inner.select_action(view)


def level_spec(level: str, game: str) -> str:
    """Return the bot spec of a difficulty level for a game (see :data:`LEVELS`).

    Raises:
        InvalidParameterError: an unknown level.
    """
    level = level.lower()
    if level not in LEVEL_NAMES:
        raise InvalidParameterError(f"unknown level {level!r}; levels: {', '.join(LEVEL_NAMES)}")
    spec = LEVELS.get(game, DEFAULT_LEVELS)[level]
    if game not in HEURISTIC_BOTS:
        if spec == "heuristic" or spec.startswith("noisy"):
            spec = "random" if level == "easy" else "ismcts:100"
        spec = spec.replace(":rollout=heuristic", "").replace(":prior=heuristic", "")
    return spec


def level_bot(level: str, game: str, seed: int = 0) -> Bot:
    """Build the bot of a difficulty level for a game.

    Raises:
        InvalidParameterError: an unknown level.
    """
    spec = level_spec(level, game)
    if spec.startswith("noisy:"):
        noise = float(spec.partition(":")[2])
        return NoisyBot(make_bot("heuristic", game, seed=seed), noise, seed=seed + 1)
    return make_bot(spec, game, seed=seed)
