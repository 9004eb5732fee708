"""Standings: the pure maths (``maths``) that ranks entrants from table results.

This package's ``__init__`` imports nothing, so ``league.standings.maths`` stays
importable without Django (import-linter keeps the maths free of the ORM).
"""
