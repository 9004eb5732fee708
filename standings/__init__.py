"""Standings of tournaments, seasons and divisions.

``maths`` ranks entrants from plain table records (no Django; import-linter keeps it
so), ``selectors`` reads the league's records for it and the stored rows for pages,
``services`` marks standings dirty, recomputes and stores them and runs the sweep,
``views`` and ``display`` show them. This ``__init__`` imports nothing, so the maths
stays importable without Django.
"""
