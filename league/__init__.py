"""League: players, partnerships, seasons, rule sets, tournaments, rounds, tables, standings,
pairings and ratings."""
