"""Matches: the hands of each table's match, entered hand by hand and checked by ``allfives``."""
