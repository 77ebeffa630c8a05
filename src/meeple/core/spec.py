"""A game's declaration of itself and its companions: the one place the upper layers look a game up.

Every game package declares a :class:`GameSpec` and registers it (``register_spec``) next to its ``Game``. The
companions live in the layers above the game (a heuristic bot in ``bots``, a renderer in ``cli``...), so the spec
names them by import path (``"package.module:attribute"``) and never imports them: the game package stays free of
upper-layer imports, and a new game needs no edit outside its own modules. A game in another distribution registers
through the ``meeple.games`` entry point group (see docs/adding-a-game.md).

Rules: architecture "Layers"; issue "One shape for every game" (one registration).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from meeple.core.errors import InvalidParameterError


@dataclass(frozen=True)
class GameSpec:
    """A game and its companions, by import path (``"module:attribute"``, or ``"module"`` for a renderer).

    Attributes:
        name: the registry name (``"citadels"``).
        heuristic_bot: the heuristic bot class (``Bot`` subclass taking ``seed=``), or None.
        rollout_policy: the fast rollout policy function ``(state, legal, rnd) -> action``, or None.
        renderer: the terminal renderer module (``render(obs, seat)``, optional ``parse_input``), or None for the
            generic tree view.
        balance: the balance-feature extractor ``(final state) -> features``, or None.
        balance_question: one sentence saying what the extractor's features answer (for reports).
        web: the browser client's companion (``meeple.web.games.WebGame`` instance: its board templates, stylesheet,
            clicks, prompts and results; ``meeple/web/games/<game>/``), or None for the generic board.
        levels: difficulty level -> bot spec (``"easy"``, ``"medium"``, ``"hard"``, and ``"hard@1"`` for a player
            count of its own); empty: the default levels.
        score_bound: player count -> a bound on any seat's final points (``scores()``, never negative): the largest
            seen by ``benchmarks/score_bounds.py`` with a margin; the ``score`` reward's bound
            (:mod:`meeple.core.rewards`, pyspiel's ``max_utility``).
        margin_bound: player count -> a bound on the absolute margin (own points minus the best other seat's; solo:
            minus the game's opponent's), measured likewise; the ``score_margin`` reward's bound.
        longest_game: player count -> the most decisions seen in one game (``benchmarks/score_bounds.py`` and the
            adapters' length measurements); pyspiel's ``max_game_length`` is twice it
            (:func:`meeple.adapters.openspiel.max_game_length`).
    """

    name: str
    heuristic_bot: str | None = None
    rollout_policy: str | None = None
    renderer: str | None = None
    balance: str | None = None
    balance_question: str = ""
    levels: Mapping[str, str] = field(default_factory=dict)
    web: str | None = None
    score_bound: Mapping[int, int] = field(default_factory=dict)
    margin_bound: Mapping[int, int] = field(default_factory=dict)
    longest_game: Mapping[int, int] = field(default_factory=dict)

    def load(self, companion: str) -> Any:
        """Import and return a companion (``"heuristic_bot"``, ``"rollout_policy"``, ``"renderer"``, ``"balance"``...).

        Raises:
            InvalidParameterError: the game declares no such companion (the message says which game and which).
        """
        path = getattr(self, companion)
        if not path:
            raise InvalidParameterError(f"{self.name!r} declares no {companion.replace('_', ' ')}")
        module, _, attribute = str(path).partition(":")
        loaded = importlib.import_module(module)
        return getattr(loaded, attribute) if attribute else loaded
