"""Words of Django's admin that its own Indonesian catalogue gets wrong. Naming them here
keeps them in the project's catalogue (``makemessages`` collects them), which
``LOCALE_PATHS`` puts before Django's, so the admin shows the project's words."""

from __future__ import annotations

from django.utils.translation import gettext_noop

ADMIN_WORDS = (
    # The button of the admin's action bar: Django's "Berjalan" means "running".
    gettext_noop("Run"),
)
