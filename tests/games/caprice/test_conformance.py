from __future__ import annotations

import pytest

from meeple.core.testing import check_game


@pytest.mark.parametrize("exchange", ["optional", "mandatory"])
def test_conformance_all_player_counts(exchange: str) -> None:
    report = check_game("caprice", seeds=range(15), params={"third_symbol_exchange": exchange}, check_every=3)
    assert report.player_counts == (2, 3, 4)
    assert report.games == 45


@pytest.mark.parametrize("exchange", ["optional", "mandatory"])
def test_conformance_manual_order(exchange: str) -> None:
    check_game(
        "caprice",
        seeds=range(3),
        params={"third_symbol_exchange": exchange, "symbol_order": "manual"},
        check_every=4,
    )


def test_conformance_fixed_first_player() -> None:
    check_game("caprice", seeds=range(2), player_counts=[3], params={"first_player": 2}, check_every=5)
