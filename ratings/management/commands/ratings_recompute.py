"""``manage.py ratings_recompute``: recompute every rating from scratch, in match order."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ratings.selectors import ratings_calibration
from ratings.services.rating import ratings_recompute_all


class Command(BaseCommand):
    help = (
        "Recompute every player and partnership rating from scratch, in match order "
        "(finished_at, table id). Deterministic: the same results give the same ratings."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--calibration",
            action="store_true",
            help="Then show how often each predicted chance of finishing first came true.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        report = ratings_recompute_all()
        elapsed = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"Rated {report.matches_count} matches ({report.events_count} rating events) "
                f"in {elapsed:.2f} s."
            )
        )
        if report.skipped_table_ids:
            self.stdout.write(
                self.style.WARNING(
                    "Not rated, their seats do not match their result: tables "
                    + ", ".join(str(t) for t in report.skipped_table_ids)
                )
            )
        if options["calibration"]:
            self.stdout.write("chance of first  sides  predicted  observed  z (|z| < 2 is usual)")
            for b in ratings_calibration():
                self.stdout.write(
                    f"{b.low:.1f}-{b.high:.1f}        {b.count:6d}  {b.predicted:9.3f}  "
                    f"{b.observed:8.3f}  {b.z:+.2f}"
                )
