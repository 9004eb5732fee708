"""Limits on CSV imports in the admin (players, entries): CSV only, and small.

The admin's import form refuses a file that is too large (``IMPORT_MAX_BYTES``), not
named ``.csv``, not declared as text, or not valid UTF-8 text, before django-import-export
parses it. ``IMPORT_FORMATS`` (settings) already offers CSV as the only format.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _
from import_export.forms import ImportForm

CSV_CONTENT_TYPES = {
    "text/csv",
    "text/plain",
    "application/csv",
    "application/vnd.ms-excel",  # what some browsers on Windows call a .csv file
    "application/octet-stream",  # no type given: the content is checked below
}


def import_max_bytes() -> int:
    return int(getattr(settings, "IMPORT_MAX_BYTES", 1024 * 1024))


def csv_upload_check(upload: UploadedFile[Any]) -> None:
    """Raise ``ValidationError`` unless ``upload`` is a small UTF-8 CSV file."""
    limit = import_max_bytes()
    if upload.size is None or upload.size > limit:
        raise forms.ValidationError(
            _("The file is too large (at most %(max)s).") % {"max": filesizeformat(limit)},
            code="file_too_large",
        )
    name = (upload.name or "").lower()
    content_type = (upload.content_type or "").split(";")[0].strip().lower()
    if not name.endswith(".csv") or content_type not in CSV_CONTENT_TYPES:
        raise forms.ValidationError(_("Upload a CSV file (.csv)."), code="not_csv")
    head = upload.read(min(limit, 64 * 1024))
    upload.seek(0)
    if b"\x00" in head:
        raise forms.ValidationError(_("Upload a CSV file (.csv)."), code="not_csv")
    try:
        head.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # A multi-byte character cut at the end of the sample is not an error.
        if exc.start < len(head) - 3:
            raise forms.ValidationError(_("The file is not UTF-8 text."), code="not_utf8") from exc


class CsvImportForm(ImportForm):
    """django-import-export's import form with the CSV limits above."""

    def clean_import_file(self) -> Any:
        upload = self.cleaned_data["import_file"]
        csv_upload_check(upload)
        return upload
