"""The writes of entrants: applications and the player links (``applications``), the
presence rule per round (``presence``), and the mail of a published round: queued
(``announce``) and sent (``notifications``)."""
