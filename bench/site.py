"""Public-site page times on the demo data, printed as figures; not a test.

Builds a throwaway database (Django's test-database helpers: SQLite by default, or
the server named by DATABASE_URL), fills it with ``manage.py demo``, then requests
every kind of public page in both languages through Django's full request cycle
(middleware, views, templates) and prints the median and 95th-percentile time per
page: wall-clock, and CPU time of this process (what the page itself costs, unmoved
by other work on a busy machine). Aim: a median under 100 ms for every HTML page.
The PDF table card is timed too, but it is a download for scorekeepers, not a page,
and has no such aim.

    .venv/bin/python bench/site.py [--repeat 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from league.models import Partnership, Player, Round, Season, Table, Tournament  # noqa: E402
from matches.models import Match  # noqa: E402

AIM_MS = 100.0


def pages() -> list[tuple[str, str]]:
    """(label, path) for every kind of public page, picked from the demo data."""
    found: list[tuple[str, str]] = [("home", "/"), ("tournament list", "/tournaments/")]
    for tournament in Tournament.objects.exclude(status=Tournament.Status.DRAFT):
        found.append((f"tournament {tournament.slug}", tournament.get_absolute_url()))
    public_rounds = Round.objects.exclude(status=Round.Status.DRAFT)
    live = public_rounds.filter(status=Round.Status.PUBLISHED).select_related("tournament")
    finished = public_rounds.filter(status=Round.Status.FINISHED).select_related("tournament")
    for label, rnd in (("round (live)", live.first()), ("round (finished)", finished.first())):
        if rnd is not None:
            base = f"/tournaments/{rnd.tournament.slug}/rounds/{rnd.number}/"
            found.append((label, base))
            if label == "round (live)":
                found.append(("round live fragment", base + "live/"))
    busiest = (
        Player.objects.annotate(n=Count("seats")).order_by("-n").first() or Player.objects.first()
    )
    if busiest is not None:
        found.append(("player (busiest)", busiest.get_absolute_url()))
    partnership = Partnership.objects.first()
    if partnership is not None:
        found.append(("partnership", partnership.get_absolute_url()))
    season = Season.objects.first()
    if season is not None:
        found.append(("season", season.get_absolute_url()))
    longest = Match.objects.order_by("-hands_count").first()
    if longest is not None:
        found.append((f"scoresheet ({longest.hands_count} hands)", f"/matches/{longest.pk}/"))
        found.append(("scoresheet live fragment", f"/matches/{longest.pk}/live/"))
    table = Table.objects.filter(round__in=public_rounds).select_related("round__tournament")
    first = table.first()
    if first is not None:
        found.append(
            (
                "table card PDF",
                f"/tournaments/{first.round.tournament.slug}/rounds/{first.round.number}"
                f"/tables/{first.number}/card.pdf",
            )
        )
    return found


def time_page(client: Client, path: str, repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds of each of ``repeat`` requests, sorted."""
    response = client.get(path)  # warm the template and URL caches
    assert response.status_code == 200, (path, response.status_code)
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(path)
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    return sorted(wall), sorted(cpu)


def p95(times: list[float]) -> float:
    return times[max(0, round(0.95 * len(times)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        start = time.perf_counter()
        call_command("demo", verbosity=0)
        print(f"demo data built in {time.perf_counter() - start:.1f} s on {connection.vendor}")
        client = Client()
        print(
            f"{'page':<40} {'lang':<4} {'median ms':>9} {'p95 ms':>8}"
            f" {'cpu median':>10} {'cpu p95':>8}"
        )
        worst_wall = worst_cpu = 0.0
        for label, path in pages():
            for language, prefix in (("id", ""), ("en", "/en")):
                wall, cpu = time_page(client, prefix + path, args.repeat)
                median, cpu_median = statistics.median(wall), statistics.median(cpu)
                if not path.endswith(".pdf"):
                    worst_wall = max(worst_wall, median)
                    worst_cpu = max(worst_cpu, cpu_median)
                print(
                    f"{label[:40]:<40} {language:<4} {median:>9.1f} {p95(wall):>8.1f}"
                    f" {cpu_median:>10.1f} {p95(cpu):>8.1f}"
                )
        for what, worst in (("wall-clock", worst_wall), ("CPU", worst_cpu)):
            verdict = "met" if worst < AIM_MS else "MISSED"
            print(
                f"slowest HTML page, median {what}: {worst:.1f} ms"
                f" (aim < {AIM_MS:.0f} ms: {verdict})"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
