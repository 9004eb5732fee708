"""The names of the groups that open the admin to organisers and scorekeepers.

The groups and their model permissions are created by migration
``league/0007_roles``; which rows an organiser may touch is decided per tournament
(``league.selectors``).
"""

ORGANISERS_GROUP = "Organisers"
SCOREKEEPERS_GROUP = "Scorekeepers"
