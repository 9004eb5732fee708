"""The public sign-up form: what the player gives, how they are listed, the consent to
mail, and the honeypot field that people never see (a bot that fills it is refused)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from entrants.models import ListedAs


class SignUpForm(forms.Form):
    name = forms.CharField(label=_("Full name"), max_length=120)
    nickname = forms.CharField(label=_("Nickname"), max_length=60, required=False)
    listed_as = forms.ChoiceField(
        label=_("On public pages, show"),
        choices=ListedAs.choices,
        initial=ListedAs.NAME,
        widget=forms.RadioSelect,
    )
    club_name = forms.CharField(label=_("Club"), max_length=120, required=False)
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Private: only the organisers see it."),
    )
    phone = forms.CharField(
        label=_("Phone or WhatsApp"),
        max_length=40,
        required=False,
        help_text=_("Private: only the organisers see it."),
    )
    may_email = forms.BooleanField(
        label=_("Email me my table and seat when a round is published"), required=False
    )
    partner_name = forms.CharField(label=_("Partner's full name"), max_length=120, required=False)
    partner_nickname = forms.CharField(label=_("Partner's nickname"), max_length=60, required=False)
    partner_listed_as = forms.ChoiceField(
        label=_("On public pages, show for my partner"),
        choices=ListedAs.choices,
        initial=ListedAs.NAME,
        widget=forms.RadioSelect,
    )
    partner_email = forms.EmailField(
        label=_("Partner's email"),
        required=False,
        help_text=_("Private: only the organisers see it."),
    )
    #: The honeypot: hidden from people by the page's style sheet, filled in by bots.
    website = forms.CharField(label=_("Leave this empty"), required=False)

    def __init__(self, *args: Any, pairs: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not pairs:
            for name in ("partner_name", "partner_nickname", "partner_listed_as", "partner_email"):
                del self.fields[name]
        else:
            self.fields["partner_name"].required = True
        self.fields["website"].widget.attrs.update({"autocomplete": "off", "tabindex": "-1"})
        self.fields["name"].widget.attrs.update({"autocomplete": "name"})
        self.fields["email"].widget.attrs.update({"autocomplete": "email"})
        self.fields["phone"].widget.attrs.update({"autocomplete": "tel", "inputmode": "tel"})

    @property
    def is_bot(self) -> bool:
        return bool(self.data.get("website"))
