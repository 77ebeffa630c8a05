"""The ``meeple`` command line (typer + rich): play, simulate, replay, rules, games.

See :mod:`meeple.cli.app` for how commands are registered and :mod:`meeple.cli.render` for the renderer protocol
that games implement.
"""
