"""Writes to matches, one function per action (``<entity>_<action>``).

Every write that touches a hand goes through the rules engine: the whole match is
replayed (``allfives.replay``) with the change, and only what the engine accepts is
stored, together with its verdict. Writes carry the match's ``version``; a stale
one raises ``StaleVersionError``. Callers (API views, pages, the demo command)
parse input, call one of these and shape the output.
"""
