"""The engine as a zip for the scoring device's Pyodide: ``allfives`` from its source,
with ``matches.device`` and ``matches.wording`` (standard library and ``allfives``
only) under a ``matches`` package of their own. Built once per process from the files
the server itself runs, so the device never holds a second copy of a rule."""

from __future__ import annotations

import functools
import hashlib
import io
import zipfile
from pathlib import Path

import allfives
import matches

_DEVICE_MODULES = ("device.py", "wording.py")
_STAMP = (2026, 1, 1, 0, 0, 0)  # fixed times: the same source gives the same bytes


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=_STAMP)
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


@functools.cache
def engine_bundle() -> tuple[bytes, str]:
    """The zip's bytes and a digest of them (its version, for caches)."""
    engine = Path(allfives.__file__).parent
    app = Path(matches.__file__).parent
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(engine.glob("*.py")):
            _add(archive, f"allfives/{path.name}", path.read_bytes())
        _add(archive, "matches/__init__.py", b'"""The scoring device\'s part of matches."""\n')
        for name in _DEVICE_MODULES:
            _add(archive, f"matches/{name}", (app / name).read_bytes())
    data = buffer.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:16]
