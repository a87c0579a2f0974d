"""The lesson pages: the two paths, their steps and the practice deal.

Every move is a plain POST form (a button per card, bid or trump), enhanced by
htmx to swap only the lesson's board, so the lesson works without JavaScript.
A move the rules refuse is answered with a 200 page in which the host gives the
engine's reason; only input no button can send (a malformed move) is a 400.
"""

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.players import player_for_request
from games.engine import RANKS, SUITS, full_deck
from games.engine_messages import message_for

from . import board as boards
from . import practice
from .facts import step_params
from .progress import all_progress, mark_done, note_visit, practice_for, progress_for, save_practice
from .steps import PATHS, PRACTICE, judge_move, judge_quiz, lesson, parse_move, question_facts
from .texts import HOSTS, TEXTS
from .texts import PATHS as PATH_TEXTS

# Refusals no button of the page can cause: the request itself is malformed.
MALFORMED_CODES = {"invalid_action", "unknown_card", "invalid_suit", "invalid_trump", "invalid_joker_mode",
                   "bid_out_of_range"}


def say(key, params=None) -> str:
    text = str(TEXTS[key])
    return text % params if params and "%(" in text else text


def host(key) -> dict:
    return {"key": key, "name": str(HOSTS[key]["name"]), "about": str(HOSTS[key]["about"])}


def _lesson_or_404(path):
    if path not in PATHS:
        raise Http404
    return lesson(path)


def _step_list(the_lesson, progress, current_id=None):
    done = set(progress.completed) if progress else set()
    items = [
        {"id": s.id, "number": s.number, "title": say(s.title), "done": s.id in done, "current": s.id == current_id,
         "url": reverse("lessons:step", args=[the_lesson.path, s.id])}
        for s in the_lesson.steps
    ]
    items.append({"id": PRACTICE, "number": len(items) + 1, "title": _("Practice deal"), "done": PRACTICE in done,
                  "current": current_id == PRACTICE, "url": reverse("lessons:practice", args=[the_lesson.path]),
                  "is_practice": True})
    return items


def _path_summary(path, progress):
    the_lesson = lesson(path)
    items = _step_list(the_lesson, progress)
    done = sum(1 for i in items if i["done"])
    resume = None
    if progress and progress.last_step:
        resume = next((i for i in items if i["id"] == progress.last_step), None)
    if resume is None:
        resume = next((i for i in items if not i["done"]), items[0])
    return {
        "path": path,
        "title": str(PATH_TEXTS[path]["title"]),
        "blurb": str(PATH_TEXTS[path]["blurb"]),
        "steps": items,
        "done": done,
        "total": len(items),
        "started": progress is not None and (done > 0 or bool(progress.last_step)),
        "resume": resume,
    }


def index(request):
    player = player_for_request(request, create=False)
    progress = all_progress(player)
    return render(request, "lessons/index.html", {
        "paths": [_path_summary(p, progress.get(p)) for p in PATHS],
        "hosts": [host("keto"), host("gio")],
    })


def path_page(request, path):
    _lesson_or_404(path)
    player = player_for_request(request, create=False)
    return render(request, "lessons/path.html", {
        "summary": _path_summary(path, progress_for(player, path)),
        "hosts": [host("keto"), host("gio")],
    })


# --- a step -----------------------------------------------------------------------------


def _deck_rows():
    """The Joker deck, from the engine: the jokers, then each suit high to low."""
    deck = full_deck()
    rows = [[c for c in deck if c.startswith("X")]]
    for suit in SUITS:
        rows.append(sorted((c for c in deck if c.endswith(suit) and not c.startswith("X")),
                           key=lambda c: -RANKS.index(c[0])))
    return rows


def _choice_view(choice, given, right_value):
    item = {"value": choice["value"], "checked": choice["value"] == given}
    if "label" in choice:
        item["label"] = say(choice["label"])
    elif "seat" in choice:
        item["seat"] = choice["seat"]
    elif "suit" in choice:
        item["suit"] = choice["suit"]
    else:
        item["label"] = choice["value"].replace("-", "−")
    return item


def _quiz_context(step, state, players, results=None):
    by_id = {r.question.id: r for r in results or []}
    questions = []
    for q, right_value, params in question_facts(step, state):
        result = by_id.get(q.id)
        given = result.given if result else None
        choices = [_choice_view(c, given, right_value) for c in q.choices]
        for c in choices:
            if "seat" in c:
                c["label"] = boards.seat_name(players, c["seat"])
        item = {"id": q.id, "text": say(q.text, params), "choices": choices, "answered": bool(result and result.answered)}
        if result and result.answered:
            item["right"] = result.is_right
            item["explanation"] = say(q.right if result.is_right else q.wrong, params)
        questions.append(item)
    return questions


def _step_context(request, the_lesson, step, progress, verdict=None, quiz_results=None, missing_answers=False):
    state = step.state()
    players = (step.position or {}).get("players", [])
    params = step_params(state)
    context = {
        "lesson_path": the_lesson.path,
        "path_title": str(PATH_TEXTS[the_lesson.path]["title"]),
        "step": step,
        "step_count": len(the_lesson.steps) + 1,  # and the practice deal
        "steps": _step_list(the_lesson, progress, step.id),
        "title": say(step.title),
        "host": host(step.host),
        "intro": say(step.intro, params),
        "task": say(step.task, params) if step.task else None,
        "step_url": reverse("lessons:step", args=[the_lesson.path, step.id]),
        "done": bool(progress and step.id in progress.completed),
        "verdict": None,
    }
    following = the_lesson.next_after(step)
    context["next_url"] = (reverse("lessons:step", args=[the_lesson.path, following.id]) if following
                           else reverse("lessons:practice", args=[the_lesson.path]))
    context["next_is_practice"] = following is None
    previous = the_lesson.before(step)
    context["prev_url"] = reverse("lessons:step", args=[the_lesson.path, previous.id]) if previous else None

    if step.kind == "move":
        shown = state
        completed_trick = False
        new_cards = ()
        if verdict is not None and verdict.is_right:
            shown = verdict.after
            completed_trick = True
            new_cards = verdict.new_cards if step.show_new_cards else ()
        context["board"] = boards.build(shown, step.seat, players, interactive=verdict is None or not verdict.is_right,
                                        completed_trick=completed_trick, new_cards=new_cards)
        if verdict is not None:
            played = None if verdict.engine_code in MALFORMED_CODES else boards.action_words(verdict.action, players)
            context["verdict"] = {
                "outcome": verdict.outcome,
                "host": host(verdict.host),
                "engine_message": verdict.engine_message,
                "text": say(verdict.text_key, params) if verdict.text_key else None,
                "played": played,
                "new_cards": list(new_cards),
            }
    else:
        solved = quiz_results is not None and all(r.is_right for r in quiz_results)
        if state is not None:
            context["board"] = boards.build(state, step.seat, players, interactive=False)
            context["score"] = boards.score_rows(state, players, conceal=() if solved else step.conceal)
        if step.show == "deck":
            context["deck_rows"] = _deck_rows()
        context["questions"] = _quiz_context(step, state, players, quiz_results)
        if quiz_results is not None:
            all_right = all(r.is_right for r in quiz_results)
            context["quiz_done"] = all_right
            context["missing_answers"] = missing_answers
            context["verdict"] = {"outcome": "right" if all_right else "wrong", "host": host(step.host)}
    return context


def _render_step(request, context, status=200):
    template = "lessons/_step_body.html" if request.htmx else "lessons/step.html"
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
def step_page(request, path, step_id):
    the_lesson = _lesson_or_404(path)
    step = the_lesson.step(step_id)
    if step is None:
        raise Http404
    if request.method == "GET":
        player = player_for_request(request, create=False)
        note_visit(player, path, step.id)
        return _render_step(request, _step_context(request, the_lesson, step, progress_for(player, path)))

    player = player_for_request(request, create=True)
    status = 200
    if step.kind == "move":
        verdict = judge_move(step, the_lesson.variant, parse_move(request.POST.get("move", ""), step.seat))
        if verdict.is_right:
            mark_done(player, path, step.id)
        else:
            note_visit(player, path, step.id)
        if verdict.engine_code in MALFORMED_CODES:
            status = 400
        context = _step_context(request, the_lesson, step, progress_for(player, path), verdict=verdict)
    else:
        answers = {q.id: request.POST.get(f"q-{q.id}") for q in step.questions}
        results = judge_quiz(step, answers)
        if all(r.is_right for r in results):
            mark_done(player, path, step.id)
        else:
            note_visit(player, path, step.id)
        missing = any(not r.answered for r in results)
        context = _step_context(request, the_lesson, step, progress_for(player, path), quiz_results=results,
                                missing_answers=missing)
    return _render_step(request, context, status)


# --- the practice deal ------------------------------------------------------------------


def _practice_context(request, the_lesson, player, deal, *, refusal=None, hint=None, played=None):
    path = the_lesson.path
    progress = progress_for(player, path)
    context = {
        "lesson_path": path,
        "path_title": str(PATH_TEXTS[path]["title"]),
        "steps": _step_list(the_lesson, progress, PRACTICE),
        "step_count": len(the_lesson.steps) + 1,
        "practice_url": reverse("lessons:practice", args=[path]),
        "prev_url": reverse("lessons:step", args=[path, the_lesson.steps[-1].id]),
        "keto": host("keto"),
        "gio": host("gio"),
        "deal": None,
        "refusal": refusal,
        "hint": None,
        "opponents": len(practice.PLAYERS[path]) - 1,
    }
    if deal is None:
        return context
    players = practice.PLAYERS[path]
    state = practice.load(deal.record)
    over = practice.deal_over(state)
    context["deal"] = {"over": over}
    context["board"] = None if over else boards.build(
        state, practice.LEARNER, players, interactive=True, show_legal=True, completed_trick=not state.trick)
    if over:
        context["result"] = practice.result(state, players)
        context["score"] = boards.score_rows(state, players)
    if hint is not None:
        context["hint"] = {"reason": hint["reason"], "move": boards.action_words(hint["action"], players)}
    return context


def _render_practice(request, context, status=200):
    template = "lessons/_practice_body.html" if request.htmx else "lessons/practice.html"
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
def practice_page(request, path):
    the_lesson = _lesson_or_404(path)
    if request.method == "GET":
        player = player_for_request(request, create=False)
        note_visit(player, path, PRACTICE)
        return _render_practice(request, _practice_context(request, the_lesson, player, practice_for(player, path)))

    player = player_for_request(request, create=True)
    deal = practice_for(player, path)
    if "new" in request.POST or deal is None:
        deal = save_practice(player, path, practice.new_record(path))
        note_visit(player, path, PRACTICE)
        if request.htmx:
            return _render_practice(request, _practice_context(request, the_lesson, player, deal))
        return redirect("lessons:practice", path=path)
    if "hint" in request.POST:
        state = practice.load(deal.record)
        hint = None if practice.deal_over(state) else practice.hint(state)
        return _render_practice(request, _practice_context(request, the_lesson, player, deal, hint=hint))
    record, error = practice.play(deal.record, parse_move(request.POST.get("move", ""), practice.LEARNER))
    if error is None:
        deal = save_practice(player, path, record)
        if practice.deal_over(practice.load(record)):
            mark_done(player, path, PRACTICE)
    refusal = message_for(error) if error is not None else None
    status = 400 if error is not None and error.code in MALFORMED_CODES else 200
    return _render_practice(request, _practice_context(request, the_lesson, player, deal, refusal=refusal), status)
