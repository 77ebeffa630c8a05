"""One registration per game: the GameSpec names its companions, and games of other distributions are found through
the ``meeple.games`` entry point group."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import meeple
from meeple.bots import Bot, has_heuristic_bot, make_bot
from meeple.bots.levels import level_spec
from meeple.cli.render import renderer_for
from meeple.core import InvalidParameterError, game_spec, registry


def test_every_builtin_game_declares_its_companions() -> None:
    for name in ("capital_lux_2", "capitol", "caprice", "citadels"):
        spec = game_spec(name)
        assert spec.name == name
        assert issubclass(spec.load("heuristic_bot"), Bot)
        assert callable(spec.load("balance")) and spec.balance_question
        assert callable(spec.load("renderer").render)
        assert not renderer_for(name).generic
        assert spec.levels["hard"].startswith("ismcts:")
    assert callable(game_spec("capital_lux_2").load("rollout_policy"))
    with pytest.raises(InvalidParameterError, match="'caprice' declares no rollout policy"):
        game_spec("caprice").load("rollout_policy")
    with pytest.raises(InvalidParameterError, match="unknown game 'nope'"):
        game_spec("nope")


PLUGIN = """
from meeple.core import GameSpec, register_game, register_spec
from tests.core.toy_game import ToyAuction


@register_game
class PluginAuction(ToyAuction):
    name = "plugin_auction"
    title = "Toy sealed auction, shipped as a plug-in"


SPEC = register_spec(
    GameSpec("plugin_auction", heuristic_bot="meeple.bots.random:RandomBot", levels={"hard": "random"})
)
"""


def test_a_game_of_another_distribution_is_found_by_its_entry_point(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "plugin_auction_pkg.py").write_text(PLUGIN)  # a module of "another distribution"
    monkeypatch.syspath_prepend(str(tmp_path))
    plugin = EntryPoint(name="plugin_auction", value="plugin_auction_pkg", group=registry.ENTRY_POINT_GROUP)

    def entry_points(group: str) -> list[EntryPoint]:
        return [plugin] if group == registry.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(registry, "entry_points", entry_points)
    monkeypatch.setattr(registry, "_PACKAGES", None)  # forget the entry points read so far
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))  # the plug-in is forgotten after the test
    monkeypatch.setattr(registry, "_SPECS", dict(registry._SPECS))
    assert "plugin_auction" in meeple.registered_games()
    state = meeple.load_game("plugin_auction", players=2).new_initial_state(1)
    assert state.legal_actions()
    assert has_heuristic_bot("plugin_auction") and level_spec("hard", "plugin_auction") == "random"
    assert make_bot("medium", "plugin_auction").name == "random"
