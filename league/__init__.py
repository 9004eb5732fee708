"""League: the core every other app reads — clubs' players and partnerships, seasons and
divisions, rule sets (targets by player count), tournaments and their entries, rounds,
tables, seats and table results.

``models`` (one module per concept), ``services`` (the writes and their rules),
``selectors`` (reads and the per-tournament permission questions), ``admin`` (the
organisers' panel, writing through the services), ``api`` (the API's shared pieces and
the league's endpoints), ``views`` and ``selectors_public`` (the public pages). It never
imports the apps above it (standings, ratings, pairing, matches): ``hooks`` and ``live``
are the registries through which those apps hear of results and lend the pages their
data.
"""
