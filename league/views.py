"""Public pages of the league: home (running tournaments, the current season, recent results)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.models import Season, TableResult, Tournament


def home(request: HttpRequest) -> HttpResponse:
    context = {
        "running": Tournament.objects.filter(status=Tournament.Status.RUNNING).select_related(
            "season"
        )[:20],
        "season": Season.objects.filter(status=Season.Status.RUNNING).first(),
        "recent": TableResult.objects.select_related("table__round__tournament").order_by(
            "-finished_at"
        )[:10],
    }
    return render(request, "league/home.html", context)
