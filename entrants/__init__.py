"""Entrants: players taking part themselves. A tournament's organiser opens sign-up
(``SignUp``: opening and closing times, a cap, a waiting list); a player, or a pair of
players, applies from a public page (``Application``) and holds a private player link
(``PlayerLink``) to their own entry; the organiser approves or declines in the admin;
on the day the player checks in from the link (or the organiser does, or scans the
entry card's QR code); when a round is published each checked-in player who agreed to
mail is told their table and seat (``Notification``), and the organiser has ready-to-send
WhatsApp texts per table. Whether a round seats checked-in entries only is the
organiser's choice per round (``RoundPresence``), read by pairing through
``league.hooks``.
"""
