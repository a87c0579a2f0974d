"""The forms on the confirmation pages: every action needs a reason."""

from datetime import timedelta

from django import forms
from django.utils.translation import gettext_lazy as _

MAX_ADJUSTMENT = 1_000_000


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Required. Kept in the audit log with your name and the time."),
    )


class BanForm(ReasonForm):
    DURATIONS = {
        "1h": timedelta(hours=1),
        "1d": timedelta(days=1),
        "7d": timedelta(days=7),
        "30d": timedelta(days=30),
        "forever": None,
    }
    duration = forms.ChoiceField(
        label=_("For how long"),
        choices=[("1h", _("One hour")), ("1d", _("One day")), ("7d", _("A week")), ("30d", _("30 days")),
                 ("forever", _("For good"))],
        initial="1d",
        widget=forms.RadioSelect,
    )
    field_order = ["duration", "reason"]

    def ban_duration(self):
        return self.DURATIONS[self.cleaned_data["duration"]]


class AdjustWalletForm(ReasonForm):
    amount = forms.IntegerField(
        label=_("Coins"),
        min_value=-MAX_ADJUSTMENT,
        max_value=MAX_ADJUSTMENT,
        help_text=_("Positive to give coins, negative to take them back."),
    )
    # The ledger keeps 200 characters of memo, and the player reads it in their history.
    reason = forms.CharField(
        label=_("Reason"),
        max_length=200,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Required. The player sees it in their coin history; it is also kept in the audit log."),
    )
    field_order = ["amount", "reason"]

    def clean_amount(self):
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError(_("Give a number of coins other than zero."))
        return amount
