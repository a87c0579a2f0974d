from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponseForbidden
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from . import services
from .presentation import statement_lines

HISTORY_PAGE_SIZE = 20


@require_GET
def coins_page(request):
    if not services.is_coin_eligible(request.user):
        # Not a redirect: a guest should learn what coins are and how to get them.
        return render(request, "coins/for_accounts_only.html", {"welcome_grant": services.WELCOME_GRANT})
    wallet = services.wallet_for(request.user)
    page = Paginator(services.history(request.user), HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "balance": wallet.balance,
        "staked": services.staked_total(request.user),
        "bonus": services.bonus_status(request.user),
        "page": page,
        "lines": statement_lines(page.object_list, wallet),
        "table_stakes": services.TABLE_STAKES,
        "email_verified": services.has_verified_email(request.user),
        "welcome_grant": services.WELCOME_GRANT,
    }
    return render(request, "coins/page.html", context)


@require_POST
def claim_bonus(request):
    """Claim today's bonus. The button is htmx-driven and disables itself while
    the request runs; a second click (or a second tab) is refused by the ledger
    anyway, so a player is paid once."""
    if not services.is_coin_eligible(request.user):
        # Only a session that ended meanwhile gets here: the form is never shown to guests.
        if request.htmx:
            return HttpResponseForbidden(str(services.NotEligible()))
        return redirect("coins:page")
    error = None
    claimed = None
    try:
        claimed = services.claim_daily_bonus(request.user)
    except services.BonusNotAvailable as refusal:
        error = str(refusal)
    if request.htmx:
        context = {
            "bonus": services.bonus_status(request.user),
            "balance": services.balance_of(request.user),
            "claimed": claimed,
            "error": error,
            "oob": True,
        }
        return render(request, "coins/_bonus.html", context)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _bonus_message(claimed.amount))
    return redirect("coins:page")


def _bonus_message(amount):
    return ngettext(
        "%(amount)s Domino Coin added to your wallet.",
        "%(amount)s Domino Coins added to your wallet.",
        amount,
    ) % {"amount": amount}
