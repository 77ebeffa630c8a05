"""``meeple evaluate POLICY GAME --against random,heuristic``: the documented way to report a policy's strength.

POLICY is a bot spec (``hard``, ``ismcts:200``), a trained checkpoint (``path/to/policy.npz``:
:mod:`meeple.bots.checkpoint`, numpy weights, no PyTorch) or ``module:name`` / ``path/to/file.py:name`` naming a
``Bot``, a policy function (:mod:`meeple.bots.policy`) or a function of no argument that returns one (to load a
trained model). Each line-up of ``--against`` is any of the same: copies of it take every other seat. The protocol
is :mod:`meeple.arena.evaluate`: paired, seat-rotated deals, win share with its 95 % Wilson interval, mean score and
margin. ``--json`` prints the results as JSON (one object per line-up).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from meeple.arena.evaluate import LINEUPS, Evaluation, evaluate
from meeple.bots.base import Bot
from meeple.bots.checkpoint import load_checkpoint
from meeple.bots.factory import bot_names, make_bot
from meeple.bots.policy import Policy
from meeple.cli.common import GAME_OPTIONS, GameArg, PlayersOpt, VariantOpt, fail, load_game_or_exit, stdout_console
from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.i18n import _, known, tr

MAX_DEALS = 100_000
"""The most deals one run may ask for."""


def load_policy(text: str, game: Game[Any]) -> tuple[Policy, str]:
    """Return the policy named by ``text`` and its label: a bot spec, a checkpoint, ``module:name`` or ``file.py:name``.

    A checkpoint (``.npz``) is labelled by its path as given; it must be a checkpoint of ``game`` whose tensors have
    the shapes of ``game``'s parameters.

    Raises:
        typer.Exit: (through :func:`fail`, exit 2) the module or file cannot be imported, has no such name, its
            factory of no argument raises, the spec is not a known bot, or the checkpoint is missing, broken or of
            another game or shape; the message says which.
    """
    if text.strip().lower().endswith(".npz"):
        return _checkpoint(text.strip(), game), text.strip()
    where, colon, name = text.rpartition(":")
    kind = text.partition(":")[0].strip().lower()
    if not colon or not where or not name.isidentifier() or kind in bot_names():
        try:
            make_bot(text, game.name)
        except MeepleError as exc:
            fail(exc)
        return text, text
    try:
        module = _import(where)
    except Exception as exc:  # noqa: BLE001 - any import failure is reported as such
        fail(_("cannot import {where}: {error}").format(where=where, error=exc))
    if not hasattr(module, name):
        fail(_("{where} has no {name}").format(where=where, name=name))
    found: Any = getattr(module, name)
    if callable(found) and not isinstance(found, Bot) and _takes_nothing(found):
        try:
            found = found()
        except Exception as exc:  # noqa: BLE001 - a factory's failure (a missing model file...) is reported as such
            fail(_("{text} failed to make its policy: {error}").format(text=text, error=exc))
    if not (isinstance(found, Bot) or callable(found)):
        fail(_("{text} is neither a bot nor a policy function").format(text=text))
    return found, name


def _checkpoint(path: str, game: Game[Any]) -> Policy:
    try:
        policy = load_checkpoint(path)
        policy.check_game(game)
    except MeepleError as exc:
        fail(tr(exc.message))
    return policy


def _takes_nothing(fn: Any) -> bool:
    try:
        return not any(p.default is inspect.Parameter.empty for p in inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False


def _import(where: str) -> Any:
    if where.endswith(".py"):
        path = Path(where)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            raise ImportError(str(path))
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        spec.loader.exec_module(module)
        return module
    return importlib.import_module(where)


def _table(results: list[Evaluation]) -> Table:
    table = Table(title_justify="left")
    columns = (_("against"), _("games"), _("win share"), _("95% CI"), _("fair share"), _("mean score"), _("margin"))
    for i, column in enumerate(columns):
        table.add_column(column, justify="left" if i == 0 else "right")
    for r in results:
        table.add_row(
            r.opponent or _("the game"),
            str(r.games),
            f"{100 * r.win_share:.1f}%",
            f"{100 * r.low:.1f}–{100 * r.high:.1f}%",
            "" if r.fair_share is None else f"{100 * r.fair_share:.1f}%",
            f"{r.mean_score:.2f}",
            f"{r.mean_margin:+.2f}",
        )
    return table


def evaluate_command(
    ctx: typer.Context,
    policy: Annotated[
        str,
        typer.Argument(
            help="A bot spec (hard, ismcts:200), a checkpoint.npz, or module:name / file.py:name of a Bot or policy."
        ),
    ],
    game: GameArg,
    against: Annotated[
        str,
        typer.Option(
            "--against",
            "-a",
            help="Comma-separated line-ups: random, heuristic, hard, any bot spec, a checkpoint.npz or module:name.",
        ),
    ] = "random,heuristic",
    deals: Annotated[
        int, typer.Option("--deals", "-n", min=1, max=MAX_DEALS, help="Deals; each is played once per seat.")
    ] = 100,
    players: PlayersOpt = None,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of the first deal (deal i: seed + i).")] = 0,
    variant: VariantOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON, one line per line-up.")] = False,
) -> None:
    """Play POLICY on paired, seat-rotated deals against each line-up; print its win share with a 95% interval.

    The documented way to report a result (docs/research.md): always include the line-up heuristic.
    """
    loaded = load_game_or_exit(game, players, variant, ctx.args)
    params = loaded.params_dict()
    lineups = [s.strip() for s in against.split(",") if s.strip()] or list(LINEUPS[:2])
    if loaded.num_players == 1:
        lineups = lineups[:1]
    chosen, label = load_policy(policy, loaded)
    opponents = [load_policy(lineup, loaded) for lineup in lineups]
    console = stdout_console()
    if not as_json:
        intro = _("{game}, {players} players: {policy}, {deals} deals x {seats} seats, seeds {seed}..").format(
            game=known(loaded.title),
            players=loaded.num_players,
            policy=label,
            deals=deals,
            seats=loaded.num_players,
            seed=seed,
        )
        console.print(escape(intro), soft_wrap=True)
    results: list[Evaluation] = []
    try:
        for opponent, opponent_label in opponents:
            results.append(
                evaluate(
                    chosen,
                    loaded.name,
                    opponent,
                    deals=deals,
                    seed=seed,
                    label=label,
                    opponent_label=opponent_label,
                    **params,
                )
            )
            if as_json:
                typer.echo(json.dumps(results[-1].to_json(), sort_keys=True))
    except MeepleError as exc:
        fail(tr(exc.message))
    if not as_json:
        console.print(_table(results))
        console.print(
            _(
                "Win share: a shared win counts 1/k; 95% Wilson interval over games. Margin: own points minus the best "
                "other seat's."
            ),
            soft_wrap=True,
        )


def register(app: typer.Typer) -> None:
    """Add the ``evaluate`` command to ``app``."""
    app.command("evaluate", context_settings=GAME_OPTIONS)(evaluate_command)
