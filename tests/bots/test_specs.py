"""Bot specs are parsed strictly (issue 41, item 15): unknown trailing parts are refused, every number is finite and
within its documented range (``meeple.bots.ismcts.RANGES``), with a message saying what is allowed. The CLI
(tests/cli/test_play.py) and the server (tests/server/test_limits.py) refuse the same specs with the same words."""

from __future__ import annotations

import math

import pytest

from meeple.bots import make_bot
from meeple.bots.ismcts import RANGES, ISMCTSBot
from meeple.core import InvalidParameterError

BAD_SPECS = [
    ("hard:junk", "bot 'hard' takes no options"),
    ("medium:1", "bot 'medium' takes no options"),
    ("random:x", "bot 'random' takes no options"),
    ("heuristic:fast", "bot 'heuristic' takes no options"),
    ("ismcts:c=nan", "c (exploration) must be a finite number from 0 to 100"),
    ("ismcts:c=-0.5", "c (exploration) must be a finite number from 0 to 100"),
    ("ismcts:shaping=inf", "shaping (shaping) must be a finite number from 0 to 100"),
    ("ismcts:100:trust=nan", "trust (trust) must be a finite number from -1000 to 1000"),
    ("ismcts:time=inf", "time (time_limit) must be seconds, a finite number more than 0"),
    ("ismcts:time=0", "time (time_limit) must be seconds, a finite number more than 0"),
    ("ismcts:20000001", "N (iterations) must be an integer from 1 to 10000000"),
    ("ismcts:0", "N (iterations) must be an integer from 1 to 10000000"),
    ("ismcts:100:depth=-1", "depth (rollout_depth) must be an integer from 0 to 100000"),
    ("ismcts:100:junk", "malformed ismcts option 'junk'"),
    ("ismcts:100:foo=1", "unknown ismcts option 'foo=1'"),
    ("ismcts:100:200", "option 'iterations' given twice"),
    ("ismcts:100:", "an empty ismcts option"),
    ("ismcts:", "an option must follow ':'"),
    ("ismcts:workers=4096", "workers (workers) must be an integer from 1 to 1024"),
]


@pytest.mark.parametrize(("spec", "words"), BAD_SPECS)
def test_a_bad_spec_is_refused_saying_what_is_allowed(spec: str, words: str) -> None:
    with pytest.raises(InvalidParameterError) as caught:
        make_bot(spec, "citadels")
    assert words in str(caught.value)


@pytest.mark.parametrize(
    "spec",
    ["hard", "HARD", " medium ", "random", "ismcts", "ismcts:50", "ismcts:time=0.5:c=0", "ismcts:1:trust=-1e3:depth=0"],
)
def test_good_specs_still_build(spec: str) -> None:
    assert make_bot(spec, "citadels") is not None


@pytest.mark.parametrize("name", sorted(RANGES))
def test_every_number_of_the_search_is_checked_at_both_ends_and_for_nan(name: str) -> None:
    """The constructor itself refuses what the parser refuses (a program building a bot gets the same check)."""
    _option, low, high, _words = RANGES[name]
    integer = name in ("iterations", "rollout_depth", "workers")
    step = 1 if integer else 0.5
    extremes = [high] if name == "time_limit" else [low, high]
    for value in extremes:
        ISMCTSBot(**{name: value})  # type: ignore[arg-type]
    bad = [low - step, high + step] + ([] if integer else [math.nan, math.inf, -math.inf])
    if name == "time_limit":
        bad.append(low)
    for value in bad:
        with pytest.raises(InvalidParameterError, match=f"must be .*not {value!r}"[:40].replace("(", r"\(")):
            ISMCTSBot(**{name: value})  # type: ignore[arg-type]
