"""The four games, one package each with the same split."""
