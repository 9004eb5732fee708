"""The organiser's desk under ``/admin/desk/`` and the public projector view.

Stable names: ``desk:desk`` (tournament slug) and ``desk:projector`` (tournament slug).
"""

from django.urls import URLPattern, URLResolver, path

from desk import views

app_name = "desk"

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/desk/<slug:slug>/", views.desk_page, name="desk"),
    path("admin/desk/<slug:slug>/board/", views.board, name="board"),
    path(
        "admin/desk/<slug:slug>/rounds/<int:number>/progress/",
        views.progress,
        name="progress",
    ),
    path("admin/desk/<slug:slug>/pair/", views.pair, name="pair"),
    path("admin/desk/<slug:slug>/publish/", views.publish, name="publish"),
    path("admin/desk/<slug:slug>/close/", views.close, name="close"),
    path("admin/desk/<slug:slug>/next/", views.next_round, name="next"),
    path("admin/desk/<slug:slug>/finish/", views.finish, name="finish"),
    path("admin/desk/<slug:slug>/knockout/start/", views.knockout_start, name="knockout_start"),
    path("admin/desk/<slug:slug>/knockout/decide/", views.knockout_decide, name="knockout_decide"),
    path("admin/desk/<slug:slug>/knockout/undo/", views.knockout_undo, name="knockout_undo"),
    path("admin/desk/<slug:slug>/entries/add/", views.entry_add, name="entry_add"),
    path("admin/desk/<slug:slug>/entries/withdraw/", views.withdraw, name="withdraw"),
    path("admin/desk/<slug:slug>/entries/check-in/", views.check_in, name="check_in"),
    path(
        "admin/desk/<slug:slug>/applications/decide/",
        views.application_decide,
        name="application_decide",
    ),
    path("admin/desk/<slug:slug>/mail/retry/", views.mail_retry, name="mail_retry"),
    path("admin/desk/<slug:slug>/tables/<int:number>/", views.table_page, name="table"),
    path("admin/desk/<slug:slug>/result/", views.result, name="result"),
    path("admin/desk/<slug:slug>/clock/start/", views.clock_start, name="clock_start"),
    path("admin/desk/<slug:slug>/clock/call/", views.time_call, name="time_call"),
    path("tournaments/<slug:slug>/projector/", views.projector, name="projector"),
    path("tournaments/<slug:slug>/projector/live/", views.projector_live, name="projector_live"),
]
