"""The words of the admin's libraries that ship no Indonesian (django-import-export) or
lack a few (django-simple-history's history list, Django's filter). Naming them here
puts them in the project's catalogue (``makemessages`` finds them); Django merges the catalogues, so
their translations also serve the libraries' own ``gettext`` calls and templates. The
admin's JavaScript words missing from Django's Indonesian catalogue are in
``locale/id/LC_MESSAGES/djangojs.po``.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

IMPORT_EXPORT = (
    gettext_noop("Import"),
    gettext_noop("Export"),
    gettext_noop("Resource"),
    gettext_noop("Format"),
    gettext_noop("File to import"),
    gettext_noop("Submit"),
    gettext_noop("This importer will import the following fields: "),
    gettext_noop("This exporter will export the following fields: "),
    gettext_noop(
        "Below is a preview of data to be imported. If you are satisfied with the results, "
        "click 'Confirm import'"
    ),
    gettext_noop("Confirm import"),
    gettext_noop("Errors"),
    gettext_noop("Line number"),
    gettext_noop("Some rows failed to validate"),
    gettext_noop(
        "Please correct these errors in your data where possible, then reupload it using "
        "the form above."
    ),
    gettext_noop("Row"),
    gettext_noop("Non field specific"),
    gettext_noop("Preview"),
    gettext_noop("New"),
    gettext_noop("Skipped"),
    gettext_noop("Delete"),
    gettext_noop("Update"),
    gettext_noop("Select all"),
    gettext_noop("Import finished: {} new, {} updated, {} deleted and {} skipped {}."),
    gettext_noop(
        "No valid data to import. Ensure your file has the correct headers or data for import."
    ),
    gettext_noop(
        "%(exc_name)s encountered while trying to read file. "
        "Ensure you have chosen the correct format for the file."
    ),
    gettext_noop("Value could not be parsed."),
    gettext_noop("Export selected %(verbose_name_plural)s"),
)
EXPORT_COUNT = ngettext_lazy(
    "Export %(len)s selected item.", "Export %(len)s selected items.", "len"
)
SIMPLE_HISTORY = (gettext_noop("Changes"),)
#: Django's Indonesian keeps the English word for the changelist's filter.
DJANGO_ADMIN = (gettext_noop("Filter"),)
