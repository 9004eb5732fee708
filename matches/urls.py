"""The scorekeeper's pages (included at ``/`` under the language prefix).

Stable names for other apps' links: ``matches:scorekeeper`` (match_id),
``matches:table_scorekeeper`` (table_id), ``matches:hand_edit`` (match_id, number),
``matches:history`` (match_id), ``matches:my_tables``; the organiser's cards with the
private links ``matches:round_cards`` (slug, number) and ``matches:table_card_with_links``
(slug, number, table); the public scoresheet ``matches:public_scoresheet`` (match_id) and
its live part ``matches:public_scoresheet_live`` (match_id).
"""

from django.urls import URLPattern, URLResolver, path

from matches import views, views_offline, views_public

app_name = "matches"

urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/tables/<int:table>/card.pdf",
        views_public.table_card,
        name="table_card",
    ),
    path("my-tables/", views.my_tables_page, name="my_tables"),
    path("matches/<int:match_id>/", views_public.match_scoresheet, name="public_scoresheet"),
    path(
        "matches/<int:match_id>/live/",
        views_public.match_scoresheet_live,
        name="public_scoresheet_live",
    ),
    path("matches/<int:match_id>/score/", views.scorekeeper, name="scorekeeper"),
    path("tables/<int:table_id>/score/", views.table_scorekeeper, name="table_scorekeeper"),
    path("matches/<int:match_id>/hands/<int:number>/edit/", views.hand_edit, name="hand_edit"),
    path("matches/<int:match_id>/hands/<int:number>/confirm/", views.confirm, name="hand_confirm"),
    path("matches/<int:match_id>/hands/<int:number>/dispute/", views.dispute, name="hand_dispute"),
    path("matches/<int:match_id>/hands/<int:number>/delete/", views.delete, name="hand_delete"),
    # A table's private scoring link, short enough to type from the card.
    path("t/<str:key>/", views.table_link, name="table_link"),
    path("t/", views.table_link_typed, name="table_link_typed"),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/cards.pdf",
        views.round_cards,
        name="round_cards",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/tables/<int:table>/card-links.pdf",
        views.table_card_with_links,
        name="table_card_with_links",
    ),
    path("matches/<int:match_id>/mode/", views.mode, name="mode"),
    path("matches/<int:match_id>/finish/", views.finish, name="finish"),
    path("matches/<int:match_id>/reopen/", views.reopen, name="reopen"),
    path("matches/<int:match_id>/history/", views.history, name="history"),
    path("matches/<int:match_id>/device/", views_offline.device_state, name="device_state"),
    path("matches/<int:match_id>/device/send/", views_offline.hand_send_view, name="device_send"),
    path(
        "matches/<int:match_id>/device/report/", views_offline.device_report, name="device_report"
    ),
    path("matches/<int:match_id>/manifest.webmanifest", views_offline.manifest, name="manifest"),
    path(
        "matches/<int:match_id>/history/<int:history_id>/restore/",
        views.restore,
        name="hand_restore",
    ),
]
