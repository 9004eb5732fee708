"""``python -m allfives``: the command line (see `allfives.cli`)."""

from __future__ import annotations

import sys

from allfives.cli import main

if __name__ == "__main__":
    sys.exit(main())
