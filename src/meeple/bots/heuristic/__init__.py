"""Per-game heuristic bots: each reads only its seat's observation and legal actions."""
