"""``meeple serve``'s quota options are made from the ``Quotas`` dataclass: one name per quota (issue #42, item 4).

Each field of :class:`meeple.server.quotas.Quotas` made with ``quota()`` is the option of its name; every flag the
command had before keeps working, with its range, and the values reach the ``Quotas`` the server runs with.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import typer
from typer.main import get_command
from typer.testing import CliRunner

from meeple.cli.serve import quota_options, serve
from meeple.server.quotas import Quotas, quota_flag

FLAGS_BEFORE = [
    "--no-rate-limits",
    "--tables-per-minute",
    "--max-tables-per-address",
    "--max-tables",
    "--max-unstarted-tables",
    "--no-start-minutes",
    "--bot-cpu-per-address",
    "--max-sockets-per-address",
    "--messages-per-minute",
    "--bad-tokens-per-minute",
    "--idle-days",
    "--joins-per-minute",
    "--chats-per-minute",
    "--waiting-hours",
    "--quickmatch-wait",
    "--logins-per-minute",
    "--logins-per-username",
    "--min-password-score",
    "--reads-per-minute",
    "--my-tables-per-minute",
    "--signups-per-minute",
    "--boards-per-minute",
]
"""The quota flags of ``meeple serve`` when each was written by hand (main before issue #42)."""
FLAGS_ADDED = [
    "--resets-per-hour",
    "--verifications-per-hour",
    "--reports-per-hour",
    "--exports-per-hour",
    "--follows-per-minute",
    "--blocks-per-minute",
    "--rematch-seconds",
]
"""The quotas added since, each by its ``Quotas`` field alone (issue #44: resets, verifications, reports, exports,
follows, blocks, the rematch offer's wait)."""


def _seen(args: list[str]) -> tuple[int, Quotas | None, str]:
    """Run a command made by :func:`quota_options` with ``args``: its exit code, the ``Quotas`` it got, its output."""
    got: list[Quotas] = []

    def command(name: str, quotas: Quotas) -> None:
        got.append(quotas)

    app = typer.Typer()
    app.command()(quota_options(command))
    result = CliRunner().invoke(app, ["x", *args])
    return result.exit_code, got[0] if got else None, result.output


def _names(command: Any) -> set[str]:
    return {name for param in command.params for name in [*param.opts, *param.secondary_opts]}


def test_every_flag_before_is_an_option_of_serve() -> None:
    app = typer.Typer()
    app.command("serve")(quota_options(serve))
    names = _names(get_command(app))
    assert set(FLAGS_BEFORE + FLAGS_ADDED) <= names
    assert "--quotas" not in names


def test_each_quota_is_the_option_of_its_own_name() -> None:
    quotas = [f for f in dataclasses.fields(Quotas) if "doc" in f.metadata]
    flags = FLAGS_BEFORE + FLAGS_ADDED
    assert len(quotas) == len(flags)
    for f in quotas:
        assert quota_flag(f.name) in flags or f"--no-{f.name.replace('_', '-')}" in flags, f.name


def test_the_values_given_make_the_quotas() -> None:
    code, quotas, _ = _seen(["--max-tables-per-address", "3", "--no-rate-limits", "--waiting-hours", "0.5"])
    assert code == 0 and quotas == Quotas(max_tables_per_address=3, rate_limits=False, waiting_hours=0.5)
    code, quotas, _ = _seen([])
    assert code == 0 and quotas == Quotas()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--min-password-score", "5"], "Invalid value for '--min-password-score': Input should be less than or equal"),
        (["--max-tables", "0"], "Invalid value for '--max-tables': Input should be greater than or equal"),
        (["--no-start-minutes", "2000"], "Invalid value for '--no-start-minutes': Input should be less than"),
        (["--joins-per-minute", "many"], "Invalid value for '--joins-per-minute': Input should be a valid integer"),
    ],
)
def test_a_value_out_of_its_range_is_refused_naming_the_range(args: list[str], words: str) -> None:
    code, quotas, output = _seen(args)
    assert code == 2 and quotas is None and words in " ".join(output.replace("│", " ").split())
