from __future__ import annotations

from collections.abc import Sequence

import pytest
from typer.testing import CliRunner, Result

import tests.core.toy_game  # noqa: F401  (registers "toy_auction")
from meeple.cli.app import app


class Cli:
    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, args: Sequence[str], input: str | None = None, code: int | None = 0) -> Result:
        result = self.runner.invoke(app, list(args), input=input)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        if code is not None:
            assert result.exit_code == code, result.output
        return result


@pytest.fixture
def cli() -> Cli:
    return Cli()
