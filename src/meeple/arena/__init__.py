"""Matches, simulations, tournaments, ratings and reports."""
