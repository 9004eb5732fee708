"""Pairing and seating a round.

``algorithms`` holds the pure algorithms (no Django; one module per format) and the
dispatch table that picks one by format and table size; ``selectors`` reads the whole
field a draw needs up front; ``services`` run the draw, store the draft, check hand
edits, record progress and take requests to pair (``round_pair_request``, used by the
API and the admin alike); ``tasks`` runs a pairing on a worker; ``admin`` adds the
pairing panel to the league's round admin; ``api`` serves the draw and its progress.
"""
