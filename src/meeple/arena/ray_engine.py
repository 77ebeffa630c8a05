"""Running tournament games on Ray: a local cluster by default, or an existing one given its address.

Each game is one Ray task running the function it is given (the tournament passes
:func:`meeple.arena.tournament.play_task`); since a game's result depends only on its task (seeds included), the
results are identical to the multiprocessing engine's. Ray is an optional dependency (``pip install "meeple[ray]"``).
This module knows nothing of tournaments, so the tournament can start it without an import cycle.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from meeple.core.errors import InvalidParameterError

T = TypeVar("T")
R = TypeVar("R")


def ray_available() -> bool:
    """Return True if the ``ray`` package can be imported."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def run_on_ray(
    tasks: Sequence[T],
    jobs: int,
    address: str | None,
    on_result: Callable[[R], None],
    play: Callable[[T], R],
) -> None:
    """Run ``play(task)`` for every task as Ray tasks and call ``on_result`` for each result, in completion order.

    Args:
        tasks: the games (picklable).
        jobs: CPUs of the local cluster started when ``address`` is None (ignored when joining a cluster).
        address: a Ray cluster address (``"auto"``, ``"host:6379"``, ``"ray://host:10001"``...) or None for a new
            local cluster (never an existing one found on this machine).
        on_result: called in the driver for each finished game.
        play: the module-level function that plays one task (Ray ships it to the workers by reference).

    Raises:
        InvalidParameterError: Ray is not installed.
    """
    try:
        import ray
    except ImportError:
        raise InvalidParameterError('the ray engine needs Ray: pip install "meeple[ray]"') from None
    if not tasks:
        return
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None:
            # "local": a new cluster of our own, even if `ray start` left one running on this machine (plain
            # ray.init() would silently join that one, with its CPU count instead of --jobs)
            kwargs["address"] = "local"
            kwargs["num_cpus"] = max(1, jobs)
            # workers must import the same code as the driver (games registered from local modules included)
            kwargs["runtime_env"] = {"env_vars": {"PYTHONPATH": os.pathsep.join(_python_path())}}
        else:
            kwargs["address"] = address
        ray.init(**kwargs)
        started = True
    try:
        remote = ray.remote(num_cpus=1)(play)
        pending = [remote.remote(task) for task in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                on_result(ray.get(ref))
    finally:
        if started:
            ray.shutdown()


def _python_path() -> list[str]:
    """Return the driver's working directory and ``PYTHONPATH`` entries, for the workers' ``PYTHONPATH``."""
    paths = [os.getcwd(), *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
    out: list[str] = []
    for p in paths:
        if p and p not in out:
            out.append(p)
    return out
