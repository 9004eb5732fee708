"""The Indonesian catalogue is complete, keeps every placeholder, and its compiled
``.mo`` (committed, so a fresh machine needs no gettext) matches the ``.po``.

The ``.po`` is read by a small parser here (no polib in the requirements); the
``.mo`` by the standard library's ``gettext``. No database is needed.
"""

from __future__ import annotations

import ast
import gettext as stdlib_gettext
import pathlib
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass, field

import django
import pytest
from django.utils import translation

LC_MESSAGES = pathlib.Path(__file__).resolve().parents[2] / "locale" / "id" / "LC_MESSAGES"
PO = LC_MESSAGES / "django.po"
MO = LC_MESSAGES / "django.mo"

_PERCENT = re.compile(r"%(?:\([^)]*\))?[#0 +\-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa%]")
_BRACE = re.compile(r"\{[^{}]*\}")
_TAG = re.compile(r"<[^<>]+>")


@dataclass
class Entry:
    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False
    line: int = 0

    @property
    def key(self) -> str:
        return self.msgid if self.msgctxt is None else f"{self.msgctxt}\x04{self.msgid}"


def _unquote(text: str, line: int) -> str:
    text = text.strip()
    if not (text.startswith('"') and text.endswith('"')):
        raise ValueError(f"{PO.name}:{line}: expected a quoted string, got {text!r}")
    return str(ast.literal_eval(text))


def parse_po(path: pathlib.Path) -> list[Entry]:
    """Every entry of a .po file, the header (msgid "") first."""
    entries: list[Entry] = []
    current = Entry()
    target: tuple[str, int] | None = None  # the field continuation lines add to

    def flush() -> None:
        nonlocal current, target
        if target is not None:  # else keep the comments and flags gathered so far
            entries.append(current)
            current, target = Entry(), None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
            if line.startswith("|"):  # an obsolete entry's previous msgid
                continue
        if not line:
            flush()
            continue
        if line.startswith("#"):
            flush()  # a comment after a msgstr starts the next entry
            if line.startswith("#,"):
                current.flags.update(f.strip() for f in line[2:].split(",") if f.strip())
            continue
        if line.startswith('"'):
            if target is None:
                raise ValueError(f"{path.name}:{number}: string outside an entry")
            name, index = target
            value = _unquote(line, number)
            if name == "msgctxt":
                current.msgctxt = (current.msgctxt or "") + value
            elif name == "msgid":
                current.msgid += value
            elif name == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + value
            else:
                current.msgstr[index] += value
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and target is not None and target[0] != "msgctxt":
            flush()
        current.obsolete = current.obsolete or obsolete
        current.line = current.line or number
        value = _unquote(rest, number)
        if keyword == "msgctxt":
            current.msgctxt, target = value, ("msgctxt", 0)
        elif keyword == "msgid":
            current.msgid, target = value, ("msgid", 0)
        elif keyword == "msgid_plural":
            current.msgid_plural, target = value, ("msgid_plural", 0)
        elif keyword == "msgstr":
            current.msgstr[0], target = value, ("msgstr", 0)
        elif match := re.fullmatch(r"msgstr\[(\d+)\]", keyword):
            index = int(match.group(1))
            current.msgstr[index], target = value, ("msgstr", index)
        else:
            raise ValueError(f"{path.name}:{number}: unknown keyword {keyword!r}")
    flush()
    return entries


ALL = parse_po(PO)
HEADER = ALL[0]
ENTRIES = [e for e in ALL[1:] if not e.obsolete]


def placeholders(text: str) -> Counter[str]:
    found = [m for m in _PERCENT.findall(text) if m != "%%"]
    return Counter(found + _BRACE.findall(text))


def _edges(text: str) -> tuple[str, str]:
    """The leading and trailing whitespace (newlines included)."""
    return text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]


def _id(entry: Entry) -> str:
    return f"line {entry.line}: {entry.msgid[:60]!r}"


def test_the_catalogue_is_parsed_whole() -> None:
    assert HEADER.msgid == ""
    assert len(ENTRIES) > 600
    assert len({e.key for e in ENTRIES}) == len(ENTRIES), "duplicate msgids"
    assert any(e.msgid_plural for e in ENTRIES)


def test_the_header_is_indonesian_utf8_with_one_plural_form() -> None:
    header = HEADER.msgstr[0]
    assert "fuzzy" not in HEADER.flags
    assert "Language: id\n" in header
    assert "charset=UTF-8" in header
    assert "Plural-Forms: nplurals=1; plural=0;" in header
    assert "Last-Translator: Kelipatan team" in header


def test_every_entry_is_translated() -> None:
    untranslated = [
        _id(e) for e in ENTRIES if not e.msgstr or any(not s.strip() for s in e.msgstr.values())
    ]
    assert untranslated == []


def test_no_entry_is_fuzzy() -> None:
    assert [_id(e) for e in ENTRIES if "fuzzy" in e.flags] == []


def test_plural_entries_fill_exactly_the_one_indonesian_form() -> None:
    wrong = [_id(e) for e in ENTRIES if e.msgid_plural is not None and set(e.msgstr) != {0}]
    assert wrong == []


def format_problems(entry: Entry) -> list[str]:
    """What a translation changed that it must keep: placeholders, HTML tags, and
    leading/trailing whitespace. With one plural form, msgstr[0] serves every n, so a
    plural entry is compared with its msgid_plural."""
    source = entry.msgid_plural if entry.msgid_plural is not None else entry.msgid
    found = []
    for index, translated in sorted(entry.msgstr.items()):
        where = f"{_id(entry)} msgstr[{index}]"
        if placeholders(translated) != placeholders(source):
            found.append(f"{where}: placeholders {placeholders(translated)}")
        if Counter(_TAG.findall(translated)) != Counter(_TAG.findall(source)):
            found.append(f"{where}: HTML tags")
        if _edges(translated) != _edges(source):
            found.append(f"{where}: leading/trailing whitespace")
    return found


def test_translations_keep_placeholders_tags_and_edges() -> None:
    assert [p for e in ENTRIES for p in format_problems(e)] == []


def test_the_format_check_catches_a_lost_or_renamed_placeholder() -> None:
    good = Entry(msgid="Seat {seat}: %(n)d <b>x</b>", msgstr={0: "Kursi {seat}: %(n)d <b>x</b>"})
    assert format_problems(good) == []
    for broken in (
        "Kursi {kursi}: %(n)d <b>x</b>",
        "Kursi {seat}: %(n)s <b>x</b>",
        "Kursi {seat}: <b>x</b>",
        "Kursi {seat}: %(n)d x",
        " Kursi {seat}: %(n)d <b>x</b>",
    ):
        assert format_problems(Entry(msgid=good.msgid, msgstr={0: broken})) != [], broken


def _expected_catalog() -> dict[object, str]:
    """What msgfmt puts in the .mo for this .po (translated, non-fuzzy entries)."""
    catalog: dict[object, str] = {}
    for e in ENTRIES:
        if "fuzzy" in e.flags or not all(e.msgstr.values()):
            continue
        if e.msgid_plural is None:
            catalog[e.key] = e.msgstr[0]
        else:
            for index, text in e.msgstr.items():
                catalog[(e.key, index)] = text
    return catalog


def _mo_catalog(path: pathlib.Path) -> dict[object, str]:
    with path.open("rb") as handle:
        catalog = dict(stdlib_gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]
    catalog.pop("", None)  # the header
    return catalog


def test_the_committed_mo_matches_the_po() -> None:
    assert MO.exists(), "run: manage.py compilemessages --ignore=.venv -l id"
    assert _mo_catalog(MO) == _expected_catalog(), (
        "django.mo is stale: run manage.py compilemessages --ignore=.venv -l id"
    )


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext (msgfmt) is not installed")
def test_msgfmt_accepts_the_po_and_compiles_what_is_committed(tmp_path: pathlib.Path) -> None:
    fresh = tmp_path / "django.mo"
    subprocess.run(
        ["msgfmt", "--check", "-o", str(fresh), str(PO)], check=True, capture_output=True
    )
    assert _mo_catalog(fresh) == _mo_catalog(MO)


@pytest.mark.parametrize(
    ("msgid", "indonesian"),
    [
        ("Standings", "Klasemen"),
        ("Save hand", "Simpan ronde"),
        ("Pair this round", "Pasangkan putaran ini"),
        ("Blocked", "Buntu"),
        ("Tile", "Ubin"),
    ],
)
def test_django_serves_the_indonesian_text(msgid: str, indonesian: str) -> None:
    with translation.override("id"):
        assert translation.gettext(msgid) == indonesian
    with translation.override("en"):
        assert translation.gettext(msgid) == msgid


def test_django_serves_formatted_and_plural_indonesian_text() -> None:
    with translation.override("id"):
        assert translation.gettext("Hand %(n)d saved.") % {"n": 3} == "Ronde 3 disimpan."
        assert translation.ngettext("%(n)s hand", "%(n)s hands", 1) % {"n": 1} == "1 ronde"
        assert translation.ngettext("%(n)s hand", "%(n)s hands", 4) % {"n": 4} == "4 ronde"
        assert (
            translation.gettext("Seat {seat} draws from an empty boneyard.").format(seat=2)
            == "Kursi 2 mengambil dari tumpukan sisa yang sudah kosong."
        )


def test_the_admins_words_the_project_corrects_are_its_own_in_indonesian() -> None:
    from config.admin_words import ADMIN_WORDS

    django_catalogue = stdlib_gettext.translation(
        "django",
        pathlib.Path(django.__file__).parent / "contrib" / "admin" / "locale",
        languages=["id"],
    )
    with translation.override("id"):
        for word in ADMIN_WORDS:
            assert translation.gettext(word) != django_catalogue.gettext(word), word
        # The action bar's button: Django's own "Berjalan" means "running".
        assert translation.gettext("Run") == "Jalankan"
