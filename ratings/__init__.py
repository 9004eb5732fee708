"""Ratings: OpenSkill (Weng-Lin, Plackett-Luce) skill ratings for players and partnerships.

``maths`` rates matches on plain values (no Django), ``chart`` draws a rating history
as SVG (no Django), ``services`` keeps the rating rows in step with table results, and
``selectors`` reads leaderboards, histories, win probabilities and rating seeds. This
package's ``__init__`` imports nothing, so the pure modules stay importable without
Django (import-linter keeps them free of the ORM).
"""
