"""Matches: the hands of each table's match, entered hand by hand and checked by
``allfives``; the public scoresheets and the table cards.

``services`` judge every write by replaying the match through the engine and store only
what it accepts (``verdicts``), with the match's lifecycle (``lifecycle``), hands
(``hands``), optimistic versions (``concurrency``) and idempotent resends
(``idempotency``); a finished match hands its result to ``league`` as plain values.
"""
