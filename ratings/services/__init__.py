"""Writes for ratings: ``rating`` replays rated matches into the rating rows (new,
corrected or cleared results, full recomputes, the catch-up sweep); ``scheduling``
queues a re-rating when a table's result changes."""
