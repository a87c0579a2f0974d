"""The leaderboard page: one variant at a time, everyone or only the visitor's friends."""

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.models import Variant

from .leaderboard import most_improved, top_ratings
from .services import PROVISIONAL_MATCHES


@require_GET
def leaderboard(request, variant=Variant.CLASSIC):
    if variant not in Variant.values:
        raise Http404
    friends_only = request.user.is_authenticated and request.GET.get("friends") == "1"
    friends_of = request.user if friends_only else None
    return render(request, "ratings/leaderboard.html", {
        "variant": variant,
        "variant_label": Variant(variant).label,
        "variants": Variant.choices,
        "friends_only": friends_only,
        "top": top_ratings(variant, friends_of=friends_of),
        "improved": most_improved(variant, friends_of=friends_of),
        "min_matches": PROVISIONAL_MATCHES,
    })
