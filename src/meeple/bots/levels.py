"""Difficulty levels for human players: ``easy``, ``medium`` and ``hard``, mapped to bots and budgets per game.

``make_bot("hard", game)`` (and ``--bots hard`` on the command line) builds the bot of :func:`levels_of` for that
game: :data:`DEFAULT_LEVELS` updated by the levels the game declares in its ``GameSpec`` (with the random bot
standing in for a heuristic bot the game does not have yet). The budgets of ``hard`` were chosen so that a move
takes about 1–2 s on one core of a 2024 laptop-class CPU (see docs/bots.md for the table and the measured speeds).

| level  | bot                                                                                 |
|--------|-------------------------------------------------------------------------------------|
| easy   | the heuristic bot, but a uniformly random legal move 40% of the time                 |
| medium | the heuristic bot                                                                   |
| hard   | ISMCTS with a per-game budget and the heuristic bot's move as prior                   |
|        | (``ismcts:N:...:prior=heuristic``: kept unless the search beats it by 2 standard      |
|        | errors); Capitol and Citadels with heuristic rollouts cut at 30 decisions             |

A table entry ``"hard@1"`` overrides ``"hard"`` for that number of players (Capital Lux 2 solo against ROB plays
for the margin with fast policy rollouts); such a level is a :class:`LevelBot` that builds its bot at its first
move, when the player count is known.
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.bots.base import Bot
from meeple.bots.heuristic import has_heuristic_bot
from meeple.core.action import Action
from meeple.core.errors import InvalidParameterError
from meeple.core.registry import game_spec
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
"""Level -> bot spec; a game's ``GameSpec.levels`` overrides entries (see :func:`levels_of`)."""


def levels_of(game: str) -> dict[str, str]:
    """Return the level -> bot spec table of ``game``.

    It is :data:`DEFAULT_LEVELS` updated by the game's own ``GameSpec.levels`` (each game declares its ``hard``
    budget there, and ``hard@N`` for a player count of its own).
    """
    return {**DEFAULT_LEVELS, **game_spec(game).levels}


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


def level_spec(level: str, game: str, players: int | None = None) -> str:
    """Return the bot spec of a difficulty level for a game (see :func:`levels_of`).

    Args:
        level: ``easy``, ``medium`` or ``hard`` (any case).
        game: registered game name.
        players: the number of players, if known: a ``level@players`` entry of the table then wins.

    Raises:
        InvalidParameterError: an unknown level.
    """
    level = level.lower()
    if level not in LEVEL_NAMES:
        raise InvalidParameterError(f"unknown level {level!r}; levels: {', '.join(LEVEL_NAMES)}")
    table = levels_of(game)
    spec = table.get(f"{level}@{players}", table[level]) if players is not None else table[level]
    if not has_heuristic_bot(game):
        if spec == "heuristic" or spec.startswith("noisy"):
            spec = "random" if level == "easy" else "ismcts:100"
        spec = spec.replace(":rollout=heuristic", "").replace(":prior=heuristic", "")
    return spec


class LevelBot(Bot):
    """A difficulty level whose bot depends on the number of players; the bot is built at the first move.

    Args:
        level: the level name.
        game: registered game name.
        build: builds the bot of a level's spec, ``build(spec, game, seed)`` (``meeple.bots.factory`` passes its own).
        seed: seed of the bot it builds.
    """

    name = "level"

    def __init__(self, level: str, game: str, build: Callable[[str, str, int], Bot], seed: int = 0) -> None:
        super().__init__(seed)
        self.level = level
        self.game = game
        self.build = build
        self.seed = seed
        self._bots: dict[int, Bot] = {}

    def bot_for(self, players: int) -> Bot:
        """Return (building it once) the bot this level uses with ``players`` players."""
        bot = self._bots.get(players)
        if bot is None:
            bot = self._bots[players] = self.build(level_spec(self.level, self.game, players), self.game, self.seed)
        return bot

    def select_action(self, view: SeatView) -> Action:
        """Return the move of the level's bot for this game's player count."""
        return self.bot_for(view.game.num_players).select_action(view)


def depends_on_players(level: str, game: str) -> bool:
    """Return whether ``game`` declares a ``level@N`` entry (the level's bot then depends on the player count)."""
    return any(key.startswith(f"{level.lower()}@") for key in levels_of(game))
