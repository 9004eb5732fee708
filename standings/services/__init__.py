"""Writes for standings: ``requests`` marks them dirty and queues a refresh (the
``league.hooks`` listener); ``refresh`` recomputes and stores the rows and runs the sweep."""
