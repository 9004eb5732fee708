"""Public standings pages (tournament, season, division) and their CSV export.

The views read the stored rows (``standings.selectors``) and shape them for
people; they compute nothing. The ranked table is rendered once per stored version,
language and sort order and kept in the cache, so a busy page costs two queries: the
scope with its standings, and how many tables of the published rounds are finished
(counted live, so that "provisional" and "final" are true to the minute). While
matches are in play the page polls itself with htmx; once the standings are final the
poll answers 286 and htmx stops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from league.exports import csv_writer
from league.live import tables_live
from league.models import Division, Tournament
from league.points import number_text
from standings.display import (
    LOT,
    column_labels,
    draw_numbers,
    progress_text,
    row_status,
    row_values,
    separation_text,
    table_columns,
)
from standings.maths import TIEBREAKS
from standings.models import Standings, StandingsRow
from standings.selectors import (
    StandingsProgress,
    TableInPlay,
    division_with_standings,
    season_with_standings,
    sortable_columns,
    standings_cache_key,
    standings_progress,
    standings_rows,
    standings_sort_key,
    standings_zone,
    tables_in_play,
    tournament_with_standings,
)

POLL_SECONDS = 10
STOP_POLLING = 286  # htmx stops polling on this status


@dataclass(frozen=True, slots=True)
class Cell:
    key: str
    text: str
    label: str = ""
    #: Shown at a phone's width too (rank, name, match points, the first tiebreak);
    #: the other columns fold into the row's details there.
    is_priority: bool = True


@dataclass(frozen=True, slots=True)
class DisplayRow:
    position: int
    rank: str
    name: str
    cells: list[Cell]
    status: str
    zone: str
    why: str

    @property
    def folded(self) -> list[Cell]:
        """The cells a phone shows in the row's details rather than as columns."""
        return [cell for cell in self.cells if not cell.is_priority]


def tournament_standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, standings = _get(tournament_with_standings, slug=slug)
    is_live = tournament.status == Tournament.Status.RUNNING
    progress = _progress(standings, is_over=tournament.status == Tournament.Status.FINISHED)
    return _page(
        request,
        title=_("Standings: %(name)s") % {"name": tournament.name},
        standings=standings,
        progress=progress,
        division=None,
        is_live=is_live,
        in_play=tables_in_play(tournament_id=tournament.pk)
        if is_live and _may_be_playing(standings, progress)
        else [],
        csv_url=reverse("standings:tournament_standings_csv", kwargs={"slug": slug}),
        json_url=reverse("api-tournament-standings", kwargs={"slug": slug}),
    )


def season_standings(request: HttpRequest, slug: str) -> HttpResponse:
    season, standings = _get(season_with_standings, slug=slug)
    return _page(
        request,
        title=_("Season table: %(name)s") % {"name": season.name},
        standings=standings,
        progress=_progress(standings, is_over=season.status == season.Status.FINISHED),
        division=None,
        is_live=season.status == season.Status.RUNNING,
        in_play=[],
        csv_url=reverse("standings:season_standings_csv", kwargs={"slug": slug}),
        json_url=reverse("api-season-standings", kwargs={"slug": slug}),
    )


def division_standings(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division, standings = _get(division_with_standings, season_slug=slug, division_id=division_id)
    kwargs = {"slug": slug, "division_id": division_id}
    return _page(
        request,
        title=_("Division table: %(name)s") % {"name": str(division)},
        standings=standings,
        progress=_progress(
            standings, is_over=division.season.status == division.season.Status.FINISHED
        ),
        division=division,
        is_live=division.season.status == division.season.Status.RUNNING,
        in_play=[],
        csv_url=reverse("standings:division_standings_csv", kwargs=kwargs),
        json_url=reverse("api-division-standings", kwargs=kwargs),
    )


def tournament_standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    _tournament, standings = _get(tournament_with_standings, slug=slug)
    return _csv(request, standings=standings, filename=f"standings-{slug}.csv")


def season_standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    _season, standings = _get(season_with_standings, slug=slug)
    return _csv(request, standings=standings, filename=f"season-{slug}.csv")


def division_standings_csv(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division, standings = _get(division_with_standings, season_slug=slug, division_id=division_id)
    return _csv(
        request,
        standings=standings,
        filename=f"division-{slug}-{division_id}.csv",
        division=division,
    )


def _progress(standings: Standings | None, *, is_over: bool) -> StandingsProgress | None:
    if standings is None or standings.computed_at is None:
        return None
    return standings_progress(standings=standings, is_over=is_over)


def _may_be_playing(standings: Standings | None, progress: StandingsProgress | None) -> bool:
    """Whether a table may be in play or about to start: the stored rows say so, a
    change (a table starting asks for a refresh too) is not counted yet, or a table of
    a published round has no result. Else the query is saved."""
    return (
        standings is None
        or standings.is_provisional
        or standings.is_dirty
        or (progress is not None and not progress.is_final)
    )


def _get(selector: Callable[..., tuple[Any, Standings | None]], **kwargs: Any) -> Any:
    try:
        return selector(**kwargs)
    except ObjectDoesNotExist:
        raise Http404(_("No such standings.")) from None


def _page(
    request: HttpRequest,
    *,
    title: str,
    standings: Standings | None,
    progress: StandingsProgress | None,
    division: Division | None,
    is_live: bool,
    in_play: Sequence[TableInPlay],
    csv_url: str,
    json_url: str,
) -> HttpResponse:
    sort = request.GET.get("sort")
    column, descending = standings_sort_key(sort=sort)
    is_polling = is_live and _may_be_playing(standings, progress)
    is_final, progress_line = progress_text(progress) if progress is not None else (False, "")
    context = {
        "title": title,
        "standings": standings,
        "is_final": is_final,
        "progress_line": progress_line,
        "division": division,
        "table_html": _table_html(standings, division, column, descending),
        "in_play": _in_play_rows(in_play),
        "is_polling": is_polling,
        "poll_seconds": POLL_SECONDS,
        "poll_url": request.get_full_path(),
        "csv_url": csv_url,
        "json_url": json_url,
    }
    if request.headers.get("HX-Request"):
        response = render(request, "standings/_live.html", context)
        if not is_polling:
            response.status_code = STOP_POLLING
        return response
    return render(request, "standings/page.html", context)


def _table_html(
    standings: Standings | None, division: Division | None, column: str, descending: bool
) -> str:
    """The ranked table, rendered once per stored version, language and sort."""
    if standings is None or standings.computed_at is None:
        return ""
    key = standings_cache_key(
        standings=standings,
        variant=f"html:{get_language()}:{'-' if descending else ''}{column}",
        division=division,
    )
    html = cache.get(key)
    if html is None:
        sort = f"{'-' if descending else ''}{column}"
        rows = standings_rows(standings=standings, sort=sort)
        columns = _columns(standings)
        labels = column_labels()
        priority = priority_columns(standings.tiebreaks)
        html = render_to_string(
            "standings/_table.html",
            {
                "rows": _display_rows(
                    rows,
                    columns,
                    division,
                    in_rank_order=column == "rank",
                    separator=str(get_format("DECIMAL_SEPARATOR")),
                    for_people=True,
                    priority=priority,
                ),
                "headers": [
                    {
                        **_header(name, labels[name], column, descending),
                        "is_priority": name in priority,
                    }
                    for name in ("rank", "name", *columns)
                ],
                "span": len(columns) + 3,
                "has_lot": LOT in columns,
                "division": division,
            },
        )
        cache.set(key, html, timeout=3600)
    return str(html)


def _columns(standings: Standings) -> list[str]:
    return table_columns(standings.tiebreaks)


def priority_columns(tiebreaks: Sequence[str]) -> frozenset[str]:
    """The columns a phone shows: rank, name, match points and the first tiebreak
    after them."""
    first = next((t for t in tiebreaks if t != "match_points"), None)
    return frozenset({"rank", "name", "match_points", *([first] if first else [])})


def _header(key: str, label: str, column: str, descending: bool) -> dict[str, Any]:
    """A column heading with the link that sorts by it (again: the other way); the
    first click puts the best first."""
    sortable = key in sortable_columns()
    spec = TIEBREAKS.get(key)
    first_descending = key not in ("rank", "name") and (spec is None or spec.higher_is_better)
    next_descending = not descending if key == column else first_descending
    return {
        "label": label,
        "href": f"?sort={'-' if next_descending else ''}{key}" if sortable else "",
        "aria_sort": ("descending" if descending else "ascending") if key == column else "",
    }


def _display_rows(
    rows: list[StandingsRow],
    columns: list[str],
    division: Division | None,
    *,
    in_rank_order: bool,
    separator: str,
    for_people: bool,
    priority: frozenset[str] = frozenset(),
) -> list[DisplayRow]:
    """Rows shaped for people: localised numbers (points with ½ ``for_people``), the lot
    as a draw number, status, zone and "why am I here?"."""
    count = len(rows)
    draws = draw_numbers(rows)
    labels = column_labels()
    shaped = []
    for index, row in enumerate(rows):
        values = row_values(row, separator, draws=draws, for_people=for_people)
        why = ""
        if in_rank_order and index + 1 < count and row.separation:
            why = separation_text(
                separation=row.separation,
                upper=row.name,
                lower=rows[index + 1].name,
                separator=separator,
                draws=draws,
            )
        shaped.append(
            DisplayRow(
                position=row.position,
                rank=str(row.rank),
                name=row.name,
                cells=[
                    Cell(key, values[key], labels[key], not priority or key in priority)
                    for key in columns
                ],
                status=row_status(row),
                zone=standings_zone(division=division, position=row.position, count=count),
                why=why,
            )
        )
    return shaped


def _in_play_rows(in_play: Sequence[TableInPlay]) -> list[dict[str, Any]]:
    """Tables in play with their live score when score entry reports one."""
    live = tables_live(table_ids=[table.table_id for table in in_play])
    shaped = []
    for table in in_play:
        now = live.get(table.table_id)
        shaped.append(
            {
                "number": table.number,
                "round": table.round_number,
                "sides": table.sides,
                "totals": []
                if now is None
                else [number_text(now.totals[s]) for s in sorted(now.totals)],
                "hands": None if now is None else now.hands_count,
                "url": "" if now is None else now.url,
            }
        )
    return shaped


def _csv(
    request: HttpRequest,
    *,
    standings: Standings | None,
    filename: str,
    division: Division | None = None,
) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv_writer(response)
    columns = _columns(standings) if standings else table_columns(())
    labels = column_labels()
    writer.writerow(
        [labels["rank"], labels["name"]]
        + [labels[c] for c in columns]
        + [_("Status"), _("Zone"), _("Why above the next")]
    )
    if standings is None or standings.computed_at is None:
        return response
    sort = request.GET.get("sort")
    column, _descending = standings_sort_key(sort=sort)
    rows = standings_rows(standings=standings, sort=sort)
    zones = {"promotion": _("promotion"), "relegation": _("relegation"), "": ""}
    # Number columns a spreadsheet can sum: a dot for decimals whatever the language, a
    # half as .5 (the sentences are for people: ½); the lot as its draw number.
    for row in _display_rows(
        rows, columns, division, in_rank_order=column == "rank", separator=".", for_people=False
    ):
        writer.writerow(
            [
                row.rank,
                row.name,
                *(cell.text for cell in row.cells),
                row.status,
                zones[row.zone],
                row.why,
            ]
        )
    return response
