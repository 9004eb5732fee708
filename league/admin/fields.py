"""Form fields of the organisers' admin for values stored as JSON lists, so nobody types
JSON: a tournament's tiebreak order as a list the organiser arranges (add, remove, move up
and down; ``static/league/tiebreak_order.js``), and three-player placing points as three
number fields. Both hand the stored list to the model field unchanged in shape, and the
tiebreak order is checked by the same validator as the API's (``league.hooks``).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from league.hooks import tiebreak_choices, tiebreaks_clean


class TiebreakOrderWidget(forms.Widget):
    """The chosen tiebreaks as an ordered list (one hidden input each, in order) with
    buttons to move and remove them, and a picker of the others to add."""

    template_name = "league/widgets/tiebreak_order.html"

    class Media:
        js = ["league/tiebreak_order.js"]
        css = {"all": ["league/admin_fields.css"]}

    def format_value(self, value: Any) -> list[str]:
        if not value:
            return []
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value]

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        labels = dict(tiebreak_choices())
        chosen = context["widget"]["value"]
        context["widget"]["chosen"] = [(key, labels.get(key, key)) for key in chosen]
        context["widget"]["available"] = [
            (key, label) for key, label in labels.items() if key not in chosen
        ]
        return context

    def value_from_datadict(self, data: Any, files: Any, name: str) -> list[str]:
        getlist = getattr(data, "getlist", None)
        values = getlist(name) if getlist is not None else data.get(name) or []
        return [str(v) for v in values if str(v).strip()]

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        # An emptied list sends nothing, and still means "empty" (the format's default).
        return False


class TiebreakOrderField(forms.Field):
    """A tiebreak order: stored names, checked by the ranking app's validator."""

    widget = TiebreakOrderWidget

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("encoder", None)
        kwargs.pop("decoder", None)
        kwargs.pop("max_length", None)
        kwargs["required"] = False
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> list[str]:
        if not value:
            return []
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value]

    def validate(self, value: Any) -> None:
        super().validate(value)
        tiebreaks_clean(value)  # raises ValidationError in the user's language

    def clean(self, value: Any) -> list[str]:
        cleaned = super().clean(value)
        return tiebreaks_clean(cleaned)

    def has_changed(self, initial: Any, data: Any) -> bool:
        return self.to_python(initial) != self.to_python(data)


INCOMPLETE = _("Give all three numbers (first, second, third), or none for 3, 1, 0.")
PLACES = (_("First"), _("Second"), _("Third"))


class PlacingPointsWidget(forms.MultiWidget):
    """Three labelled number inputs: match points for first, second and third."""

    template_name = "league/widgets/placing_points.html"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        number = {"step": "0.5", "min": "0", "max": "100", "class": "vIntegerField"}
        super().__init__([forms.NumberInput(attrs=number) for _ in PLACES], attrs)

    def decompress(self, value: Any) -> list[Any]:
        if isinstance(value, str):
            return [None, None, None]  # a value the form could not read is shown empty
        values = list(value or [])
        return [*values[:3], *[None] * (3 - len(values[:3]))]

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        for subwidget, label in zip(context["widget"]["subwidgets"], PLACES, strict=True):
            subwidget["label"] = label
        return context


class PlacingPointsField(forms.MultiValueField):
    """Placing points at three-player tables as ``[first, second, third]`` (numbers), or
    ``[]`` when all three are left empty (the default 3, 1, 0)."""

    widget = PlacingPointsWidget

    def __init__(self, **kwargs: Any) -> None:
        for name in ("encoder", "decoder", "max_length"):
            kwargs.pop(name, None)
        fields = [
            forms.DecimalField(
                max_digits=4,
                decimal_places=1,
                min_value=Decimal(0),
                max_value=Decimal(100),
                label=label,
            )
            for label in PLACES
        ]
        kwargs["required"] = False
        kwargs["error_messages"] = {"incomplete": INCOMPLETE}
        super().__init__(fields=fields, require_all_fields=False, **kwargs)

    def compress(self, data_list: Sequence[Any]) -> list[float]:
        values = list(data_list or [])
        if not values or all(v in (None, "") for v in values):
            return []
        if any(v in (None, "") for v in values):
            raise ValidationError(INCOMPLETE, code="placing_points_incomplete")
        return [float(v) for v in values]

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            return self.compress(self.clean(data)) != list(initial or [])
        except ValidationError:
            return True
