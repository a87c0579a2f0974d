from django import forms
from django.conf import settings
from django.utils.translation import get_language, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from .languages import ModelLabelsAsWritten
from .models import AccessToken, Player
from .names import refusal_for_name
from .tokens import LIFETIME_DAYS


class ProfileForm(ModelLabelsAsWritten, forms.ModelForm):
    class Meta:
        model = Player
        fields = ["display_name", "language"]
        help_texts = {
            "display_name": _("The name other players see at the tables. Leave empty to use your username."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].required = True
        self.fields["language"].choices = list(settings.LANGUAGES)
        # A member who never chose reads the page's language: the form offers it, so saving a new
        # name keeps the page as it is (it offered the first language, and a Russian reader who
        # saved a name was switched to Georgian).
        if not self.instance.language:
            self.initial["language"] = get_language()
        # Each language is named in its own words, which no page language translates.
        self.fields["language"].widget.attrs["translate"] = "no"

    def clean_display_name(self):
        name = " ".join(self.cleaned_data["display_name"].split())
        refusal = refusal_for_name(name, user=self.instance.user) if name else None
        if refusal is not None:
            raise forms.ValidationError(refusal)
        return name


class AccessTokenForm(ModelLabelsAsWritten, forms.ModelForm):
    lifetime = forms.TypedChoiceField(
        label=_("Expires"),
        choices=[("", _("never"))] + [
            (str(days), ngettext_lazy("in %(days)d day", "in %(days)d days", "days") % {"days": days})
            for days in LIFETIME_DAYS if days
        ],
        coerce=int, empty_value=None, required=False,
    )

    class Meta:
        model = AccessToken
        fields = ["name", "scope"]
        help_texts = {"name": _("What the token is for, e.g. “my bot”.")}
        widgets = {"scope": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scope"].required = False  # left out: a token that may play, as before scopes

    def clean_scope(self):
        return self.cleaned_data["scope"] or AccessToken.PLAY

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Give the token a name."))
        return name


class FriendSearchForm(forms.Form):
    q = forms.CharField(label=_("Find a player by name"), max_length=150, required=False)
