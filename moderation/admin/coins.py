"""Players' wallets, for reading and for the audited staff adjustment. The
ledger's own pages (accounts, entries, stakes, payouts) are the coins app's."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Q, Sum
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

import coins.admin  # noqa: F401  (the ledger's own pages come first)
from coins.admin import ReadOnlyAdmin
from coins.farming import LOSING_PAIR_MIN_MATCHES, LOSING_PAIRS_DAYS, losing_pairs
from coins.models import Account, Entry, Stake

from ..models import Wallet, about
from .actions import ADJUST_WALLET
from .base import StaffActionsMixin, admin_url_for

RECENT_ENTRIES = 20


@admin.register(Wallet)
class WalletAdmin(StaffActionsMixin, ReadOnlyAdmin):
    list_display = ("key", "user", "balance", "staked", "created_at")
    list_filter = ("created_at",)
    search_fields = ("user__username", "key")
    list_select_related = ("user",)
    ordering = ("-balance",)
    fields = ("user", "balance", "staked", "created_at", "recent_entries")
    readonly_fields = ("staked", "recent_entries")
    staff_actions = (ADJUST_WALLET,)
    change_list_template = "admin/moderation/wallet/change_list.html"

    def get_urls(self):
        own = [path("losing-pairs/", self.admin_site.admin_view(self.losing_pairs_view),
                    name="moderation_wallet_losing_pairs")]
        return own + super().get_urls()

    def losing_pairs_view(self, request):
        """Pairs of accounts where one keeps losing coins to the other (coins/farming.py)."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": _("Accounts that keep losing coins to each other"),
            "opts": self.opts,
            "pairs": [(pair, admin_url_for(Wallet, pair.loser.pk), admin_url_for(Wallet, pair.winner.pk))
                      for pair in losing_pairs()],
            "days": LOSING_PAIRS_DAYS,
            "min_matches": LOSING_PAIR_MIN_MATCHES,
        }
        return TemplateResponse(request, "admin/moderation/losing_pairs.html", context)

    def get_queryset(self, request):
        held = Sum("stakes_placed__amount", filter=Q(stakes_placed__state=Stake.State.HELD))
        return super().get_queryset(request).filter(kind=Account.Kind.WALLET).annotate(staked_total=held)

    @admin.display(description=_("staked at tables"), ordering="staked_total")
    def staked(self, wallet):
        return wallet.staked_total or 0

    @admin.display(description=_("latest entries"))
    def recent_entries(self, wallet):
        entries = (Entry.objects.filter(Q(debit=wallet) | Q(credit=wallet))
                   .select_related("debit", "credit").order_by("-id")[:RECENT_ENTRIES])
        rows = []
        for entry in entries:
            change = entry.amount if entry.credit_id == wallet.pk else -entry.amount
            after = entry.credit_balance_after if entry.credit_id == wallet.pk else entry.debit_balance_after
            rows.append((admin_url_for(Entry, entry.pk), timezone.localtime(entry.created_at).strftime("%Y-%m-%d %H:%M"),
                         entry.get_kind_display(), f"{change:+d}", after, entry.memo))
        if not rows:
            return "—"
        body = format_html_join("", "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td>"
                                    "<td>{}</td></tr>", rows)
        return format_html("<table>{}</table>", body)

    def audit_condition(self, wallet):
        return about(wallet, wallet.user)
