"""``manage.py ratings_recompute``: recompute every rating from scratch, in match order."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from league.ratings.services import ratings_recompute_all


class Command(BaseCommand):
    help = (
        "Recompute every player and partnership rating from scratch, in match order "
        "(finished_at, table id). Deterministic: the same results give the same ratings."
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
