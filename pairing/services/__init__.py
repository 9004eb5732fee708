"""Pairing a round: reading the field, running the chosen algorithm, storing the draft,
checking hand edits and reporting progress (the manager around ``pairing.algorithms``)."""
