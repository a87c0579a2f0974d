"""The rules pages: /<lang>/rules/ and /<lang>/rules/<slug>/, plus the try-it boards' endpoint."""

from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import content
from .engine_bridge import try_board_legal_cards, try_board_winner
from .examples import ExampleError, full_trick, parse_choice, reader_seat

# The index lists the pages with these short blurbs (the pages' own titles come from
# their content files).
INDEX_BLURBS = {
    "classic": _("Everything about Joker for four: pulkas, trump, bids, the joker, scoring."),
    "japanese": _("Joker for two with five table columns: dealing, columns, play and the match."),
    "classic-vs-japanese": _("The two games side by side: what is the same and what is not."),
    "strategy": _("First tips for bidding, playing the joker and reading the table."),
    "glossary": _("Every word you will hear at the table, explained."),
    "khishti": _("The penalty for a bid that took no trick, and how the table sets it."),
    "all-games": _("What you can play here and how to start a table of each kind."),
    "faq": _("Short answers to the questions players ask most."),
}


def alternates(url_for_language):
    """hreflang alternates: every language plus x-default (Georgian, the site's default)."""
    links = []
    for code, name in content.LANGUAGES_WITH_NAMES:
        with translation.override(code):
            links.append({"lang": code, "name": name, "path": url_for_language()})
    default = next(link for link in links if link["lang"] == content.DEFAULT_LANGUAGE)
    return links, default


def index(request):
    lang = translation.get_language()
    pages = [content.load_page(lang, slug) for slug in content.PAGE_SLUGS]
    entries = [
        {"slug": page.slug, "title": page.title, "blurb": INDEX_BLURBS[page.slug]} for page in pages if page
    ]
    links, default = alternates(lambda: reverse("rules_pages:index"))
    return render(request, "rules_pages/index.html", {
        "entries": entries, "alternates": links, "x_default": default, "lang": lang,
    })


def page(request, slug):
    lang = translation.get_language()
    rules_page = content.load_page(lang, slug)
    if rules_page is None:
        raise Http404("No such rules page")
    links, default = alternates(lambda: reverse("rules_pages:page", args=[slug]))
    return render(request, "rules_pages/page.html", {
        "page": rules_page, "alternates": links, "x_default": default, "lang": lang,
        "siblings": [
            {"slug": s, "title": p.title}
            for s in content.PAGE_SLUGS if (p := content.load_page(lang, s)) is not None
        ],
    })


def _bad_request(message, detail):
    return JsonResponse({"error": message, "detail": detail}, status=400)


def try_board(request, slug, example_id):
    """JSON for a try-it board: without ``choice`` the allowed cards; with it, the verdict
    on the reader's card and, when it is allowed, the whole trick and who wins it."""
    lang = translation.get_language()
    example = content.find_example(lang, slug, example_id)
    if example is None or example.kind != "try":
        raise Http404("No such example board")
    legal = try_board_legal_cards(example)
    answer = {"legal": legal, "why": example.localized["why"]}
    choice = request.GET.get("choice")
    if choice is None:
        return JsonResponse(answer)
    try:
        play = parse_choice(example, choice)
    except ExampleError as exc:
        return _bad_request(gettext("Pick one of your cards on this board."), str(exc))
    answer["choice"] = choice
    answer["allowed"] = play.card in legal
    if not answer["allowed"]:
        answer["message"] = gettext("That card is not allowed here.")
        return JsonResponse(answer)
    winner = try_board_winner(example, choice)
    plays = content.trick_plays_context(example, full_trick(example, play))
    winner_name = content.seat_label(example, winner)
    if winner == reader_seat(example):
        message = gettext("Allowed. You take the trick.")
    else:
        message = gettext("Allowed. The trick goes to %(name)s.") % {"name": winner_name}
    answer.update({
        "message": message,
        "winner": winner,
        "winner_name": winner_name,
        "reader": reader_seat(example),
        "trick_html": render_to_string("rules_pages/trick.html", {"plays": plays, "winner": winner}),
    })
    return JsonResponse(answer)
