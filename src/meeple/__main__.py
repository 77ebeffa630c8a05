"""``python -m meeple``: the command line (same as the ``meeple`` script)."""

from meeple.cli.app import main

main()
