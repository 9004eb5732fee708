"""Players (with the CSV import and export and the bulk registration) and partnerships
in the organisers' admin, scoped by ``league.policy``: contact details only for the
players of the organiser's clubs.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from import_export import fields, resources, widgets
from import_export.admin import ImportExportModelAdmin

from league.admin.base import ClubScopedAdmin, instance_adopt
from league.imports import CsvImportForm
from league.models import (
    Partnership,
    Player,
    Tournament,
)
from league.selectors import (
    clubs_registering_for,
    partnerships_editable_by,
    players_editable_by,
    players_visible_in_admin,
    players_with_contact_for,
    tournaments_managed_by,
    user_is_organiser,
    user_is_superuser,
)
from league.services.records import record_update
from league.services.registration import (
    partnership_create,
    partnership_pair_free_check,
    partnership_players_check,
    partnership_update,
    partnerships_create_bulk,
    players_register_bulk,
)


class PlayerResource(resources.ModelResource):
    """Players in a CSV file. A row updates an existing player only when it names that
    player (an ``id`` or ``slug`` column) and the player belongs to the importer's club;
    a row naming nobody that matches another player by name is a clash to resolve
    (a row error, nothing imported), never a silent update. New players join the
    importer's club."""

    class Meta:
        model = Player
        fields = ("id", "name", "nickname", "club", "slug", "email", "phone", "is_active")
        import_id_fields = ("slug",)
        skip_unchanged = True
        report_skipped = True
        clean_model_instances = True

    def __init__(self, *, user: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.user = user
        self._named_by: str | None = None

    def get_export_queryset(self, request: Any = None) -> QuerySet[Player]:
        # Contact details leave the service only for the players of the importer's clubs.
        return players_with_contact_for(user=self.user)

    def before_import(self, dataset: Any, **kwargs: Any) -> None:
        headers = dataset.headers or []
        self._named_by = "id" if "id" in headers else "slug" if "slug" in headers else None
        if "slug" not in headers:
            # Slugs of new players are derived from name and nickname, never used to match.
            names = dataset["name"] if "name" in headers else [""] * len(dataset)
            nicks = dataset["nickname"] if "nickname" in headers else [""] * len(dataset)
            dataset.append_col(
                [
                    slugify(f"{n or ''} {k or ''}".strip())
                    for n, k in zip(names, nicks, strict=True)
                ],
                header="slug",
            )

    def get_instance(self, instance_loader: Any, row: Any) -> Player | None:
        if self._named_by == "id" and row.get("id"):
            found = Player.objects.filter(pk=row["id"]).first()
            if found is None:
                raise ValidationError(_("No player has the id %(id)s.") % {"id": row["id"]})
        elif self._named_by == "slug" and row.get("slug"):
            found = Player.objects.filter(slug=row["slug"]).first()
        else:
            found = None
            self._clash_check(row)
            row["slug"] = self._free_slug(str(row.get("slug") or row.get("name") or ""))
        if found is not None and not players_editable_by(user=self.user).filter(pk=found.pk):
            raise ValidationError(
                _(
                    "%(who)s plays for another club: you cannot change them. Enter them as a "
                    "visitor, or leave out the id and slug and give a nickname to add a new "
                    "player."
                )
                % {"who": found}
            )
        return found

    def _clash_check(self, row: Any) -> None:
        name = str(row.get("name") or "").strip()
        same = Player.objects.filter(name__iexact=name, nickname=str(row.get("nickname") or ""))
        clash = same.select_related("home_club").first() if name else None
        if clash is not None:
            raise ValidationError(
                _(
                    "Clash: %(who)s (%(club)s) already has this name. Add an id or slug column "
                    "to update your own player, enter theirs as a visitor, or give a nickname "
                    "to add a new player."
                )
                % {"who": clash, "club": clash.home_club or "—"}
            )

    @staticmethod
    def _free_slug(base: str) -> str:
        root = slugify(base)[:120] or "pemain"
        slug, n = root, 1
        while Player.objects.filter(slug=slug).exists():
            n += 1
            slug = f"{root}-{n}"
        return slug

    def before_save_instance(self, instance: Player, row: Any, **kwargs: Any) -> None:
        if instance.pk is None:
            clubs = list(clubs_registering_for(user=self.user)[:2])
            if len(clubs) == 1:
                instance.home_club = clubs[0]
            elif not user_is_superuser(user=self.user):
                raise ValidationError(_("Import from one club at a time."))


class PlayerNamedWidget(widgets.ForeignKeyWidget):
    """A player in a CSV cell, by slug or by name, among the players the importer may
    pair (their clubs'); a name two of them share is an error asking for the slug."""

    def __init__(self, *, user: Any = None) -> None:
        super().__init__(Player, field="slug")
        self.user = user

    def get_queryset(self, value: Any, row: Any, *args: Any, **kwargs: Any) -> QuerySet[Player]:
        return players_editable_by(user=self.user)

    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> Player | None:
        text = str(value or "").strip()
        if not text:
            raise ValidationError(_("A player is missing."))
        players = self.get_queryset(value, row)
        found = players.filter(slug=text).first()
        if found is not None:
            return found
        named = list(players.filter(name__iexact=text)[:2])
        if len(named) > 1:
            raise ValidationError(
                _("Several of your players are named %(name)s: give the slug instead.")
                % {"name": text}
            )
        if not named:
            raise ValidationError(
                _("None of your clubs' players is named %(name)s.") % {"name": text}
            )
        return named[0]

    def render(self, value: Any, obj: Any = None, **kwargs: Any) -> str:
        # By name, as people read the preview and write the file; a shared name, by slug.
        return "" if value is None else str(value.name)


class PartnershipResource(resources.ModelResource):
    """Partnerships in a CSV file: two players (slug or name) a row, and an optional name.
    Every row makes a new partnership through ``partnership_create``; a pair that already
    plays together, or a player not found, is that row's error, and nothing is imported."""

    player_a = fields.Field(column_name="player_a", attribute="player_a")
    player_b = fields.Field(column_name="player_b", attribute="player_b")

    class Meta:
        model = Partnership
        fields = ("name", "player_a", "player_b")
        import_id_fields = ()
        clean_model_instances = True
        use_transactions = True

    def __init__(self, *, user: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.user = user
        for name in ("player_a", "player_b"):
            self.fields[name].widget = PlayerNamedWidget(user=user)

    def get_instance(self, instance_loader: Any, row: Any) -> None:
        return None  # every row is a new partnership

    def import_instance(self, instance: Partnership, row: Any, **kwargs: Any) -> None:
        super().import_instance(instance, row, **kwargs)
        a, b = instance.player_a, instance.player_b
        partnership_players_check(partnership=Partnership(), player_a=a, player_b=b)
        partnership_pair_free_check(player_a=a, player_b=b)
        if not instance.name:
            instance.name = f"{a.name} & {b.name}"
        instance.slug = "-"  # derived by partnership_create; set only to pass full_clean

    def validate_instance(
        self, instance: Partnership, import_validation_errors: Any = None, **kwargs: Any
    ) -> None:
        # A row already refused by the registration rules is not also checked against the
        # database's constraints, whose messages are not for people.
        if import_validation_errors:
            raise ValidationError(import_validation_errors)
        super().validate_instance(instance, import_validation_errors, **kwargs)

    def do_instance_save(self, instance: Partnership, is_create: bool) -> None:
        saved = partnership_create(
            player_a=instance.player_a, player_b=instance.player_b, name=instance.name
        )
        instance_adopt(instance, saved)


class RegisterPlayersForm(forms.Form):
    tournament = forms.ModelChoiceField(queryset=Tournament.objects.none(), label=_("Tournament"))

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tournament"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = tournaments_managed_by(user=user).exclude(
            status=Tournament.Status.FINISHED
        )


@admin.register(Player)
class PlayerAdmin(ClubScopedAdmin, ImportExportModelAdmin):
    """Players: organisers find everyone (to enter visitors), but change and read the
    contact details of their own clubs' players only."""

    resource_classes = [PlayerResource]
    import_form_class = CsvImportForm
    list_display = ["name", "nickname", "home_club", "is_active", "created_at"]
    list_filter = ["is_active", "home_club"]
    search_fields = ["name", "nickname", "club", "slug"]
    prepopulated_fields = {"slug": ("name",)}
    actions = ["register_in_tournament", "make_partnerships"]
    club_field = "home_club"
    registering = True

    def view_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return players_visible_in_admin(user=request.user)

    def change_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return players_editable_by(user=request.user)

    def get_exclude(self, request: HttpRequest, obj: Player | None = None) -> Any:
        excluded = list(super().get_exclude(request, obj) or [])
        if obj is not None and not players_with_contact_for(user=request.user).filter(pk=obj.pk):
            excluded += ["email", "phone"]
        return excluded

    def has_export_permission(self, request: HttpRequest) -> bool:
        return user_is_organiser(user=request.user)

    def has_import_permission(self, request: HttpRequest) -> bool:
        return bool(
            user_is_superuser(user=request.user) or clubs_registering_for(user=request.user)
        )

    def get_export_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        contact = players_with_contact_for(user=request.user).values("pk")
        exported: QuerySet[Player] = super().get_export_queryset(request)
        return exported.filter(pk__in=contact)

    def get_import_resource_kwargs(self, request: HttpRequest, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_import_resource_kwargs(request, **kwargs), "user": request.user}

    def get_export_resource_kwargs(self, request: HttpRequest, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_export_resource_kwargs(request, **kwargs), "user": request.user}

    @admin.action(description=_("Make partnerships from the selected players"))
    def make_partnerships(
        self, request: HttpRequest, queryset: QuerySet[Player]
    ) -> HttpResponse | None:
        """Pair the selected players two by two, in the order of their names, after a page
        showing the pairs; an odd number is refused."""
        return _make_partnerships(self, request, queryset)  # type: ignore[no-any-return]

    @admin.action(description=_("Register the selected players in a tournament"))
    def register_in_tournament(
        self, request: HttpRequest, queryset: QuerySet[Player]
    ) -> HttpResponse | None:
        if "apply" in request.POST:
            form = RegisterPlayersForm(request.POST, user=request.user)
            if form.is_valid():
                tournament = form.cleaned_data["tournament"]
                try:
                    entries = players_register_bulk(tournament=tournament, players=queryset)
                except ValidationError as exc:
                    self.message_user(request, "; ".join(exc.messages), messages.ERROR)
                    return None
                self.message_user(
                    request,
                    ngettext(
                        "%(n)d player registered in %(t)s.",
                        "%(n)d players registered in %(t)s.",
                        len(entries),
                    )
                    % {"n": len(entries), "t": tournament},
                    messages.SUCCESS,
                )
                return None
        else:
            form = RegisterPlayersForm(user=request.user)
        return TemplateResponse(
            request,
            "admin/league/register_players.html",
            {
                **self.admin_site.each_context(request),
                "title": _("Register players in a tournament"),
                "form": form,
                "players": queryset,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                "opts": self.model._meta,
            },
        )


class PartnershipForm(forms.ModelForm):  # type: ignore[type-arg]
    """A partnership's two players, checked by the registration rules at the players'
    fields: two different players, fixed once the partnership is entered."""

    class Meta:
        model = Partnership
        fields = ["name", "slug", "player_a", "player_b", "seasons", "is_active"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        try:
            partnership_players_check(
                partnership=self.instance,
                player_a=cleaned.get("player_a"),
                player_b=cleaned.get("player_b"),
            )
        except ValidationError as exc:
            self.add_error("player_b", exc.messages)
        return cleaned


def _make_partnerships(admin_: Any, request: HttpRequest, queryset: QuerySet[Player]) -> Any:
    players = list(queryset.order_by("name", "id"))
    if len(players) % 2:
        admin_.message_user(
            request,
            _("Choose an even number of players: they are paired two by two (%(n)d chosen).")
            % {"n": len(players)},
            messages.ERROR,
        )
        return None
    editable = players_editable_by(user=request.user).filter(pk__in=[p.pk for p in players])
    if editable.count() != len(players):
        admin_.message_user(request, _("You may pair only your clubs' players."), messages.ERROR)
        return None
    if "apply" in request.POST:
        try:
            made = partnerships_create_bulk(players=players)
        except ValidationError as exc:
            admin_.message_user(request, "; ".join(exc.messages), messages.ERROR)
            return None
        admin_.message_user(
            request,
            ngettext("%(n)d partnership made.", "%(n)d partnerships made.", len(made))
            % {"n": len(made)},
            messages.SUCCESS,
        )
        return None
    return TemplateResponse(
        request,
        "admin/league/make_partnerships.html",
        {
            **admin_.admin_site.each_context(request),
            "title": _("Make partnerships from these players"),
            "pairs": list(zip(players[::2], players[1::2], strict=True)),
            "players": players,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "opts": admin_.model._meta,
        },
    )


@admin.register(Partnership)
class PartnershipAdmin(ClubScopedAdmin, ImportExportModelAdmin):
    resource_classes = [PartnershipResource]
    import_form_class = CsvImportForm
    form = PartnershipForm
    list_display = ["name", "player_a", "player_b", "is_active"]
    list_filter = ["is_active", "seasons"]
    search_fields = ["name", "player_a__name", "player_b__name"]
    autocomplete_fields = ["player_a", "player_b"]
    filter_horizontal = ["seasons"]
    prepopulated_fields = {"slug": ("name",)}
    club_field = ""

    def view_queryset(self, request: HttpRequest) -> QuerySet[Partnership]:
        visible = players_visible_in_admin(user=request.user).values("pk")
        return Partnership.objects.filter(player_a__in=visible, player_b__in=visible)

    def change_queryset(self, request: HttpRequest) -> QuerySet[Partnership]:
        return partnerships_editable_by(user=request.user)

    def has_export_permission(self, request: HttpRequest) -> bool:
        return user_is_organiser(user=request.user)

    def has_import_permission(self, request: HttpRequest) -> bool:
        return bool(
            user_is_superuser(user=request.user) or clubs_registering_for(user=request.user)
        )

    def get_import_resource_kwargs(self, request: HttpRequest, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_import_resource_kwargs(request, **kwargs), "user": request.user}

    def get_export_resource_kwargs(self, request: HttpRequest, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_export_resource_kwargs(request, **kwargs), "user": request.user}

    def save_model(self, request: HttpRequest, obj: Partnership, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if change:
            stored = Partnership.objects.get(pk=obj.pk)
            fields = {
                k: data[k]
                for k in ("name", "slug", "player_a", "player_b", "is_active")
                if k in data
            }
            instance_adopt(obj, partnership_update(partnership=stored, fields=fields))
            return
        saved = partnership_create(
            player_a=data["player_a"], player_b=data["player_b"], name=data.get("name", "")
        )
        extra = {"is_active": data.get("is_active", True)}
        if data.get("slug") and not Partnership.objects.filter(slug=data["slug"]).exists():
            extra["slug"] = data["slug"]
        instance_adopt(obj, record_update(instance=saved, fields=extra))
