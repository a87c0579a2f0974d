"""The lesson's steps: read from steps/<path>.json, and the judge of a learner's answer.

A *move* step is a position (a joker-record/1 document the engine replays), the
seat the learner plays, the moves the step accepts and, for other legal moves,
what the hosts say about them. The engine judges every move first: an illegal
one is explained with the engine's own refusal (`games.engine_messages`), never
with a sentence written for the step. A *quiz* step asks questions whose
answers are facts the engine computes (facts.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from games.engine import IllegalAction, Play, action_from_record, state_from_record
from games.engine.bot import choose_action
from games.engine_messages import message_for

from . import facts
from .texts import TEXTS

STEPS_DIR = Path(__file__).resolve().parent / "steps"
PATHS = ("classic", "japanese")
PRACTICE = "practice"


@dataclass(frozen=True)
class Reply:
    """Something a host says: who, and the key of the text."""

    host: str
    text: str


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    fact: dict
    choices: tuple
    right: str
    wrong: str


@dataclass(frozen=True)
class Step:
    path: str
    index: int
    id: str
    kind: str  # "move" or "quiz"
    title: str
    host: str
    intro: str
    position: dict | None = None
    task: str | None = None
    seat: int = 0
    accept: tuple = ()
    accept_all_legal: bool = False
    right: Reply | None = None
    unwise: tuple = ()  # (record action, Reply) pairs
    other: Reply | None = None
    finish_trick: bool = False
    winner: int | None = None
    show_new_cards: bool = False
    show: str | None = None
    questions: tuple = ()
    conceal: tuple = ()  # parts of a quiz's score sheet hidden until every answer is right

    @property
    def number(self) -> int:
        return self.index + 1

    def state(self):
        """A fresh engine state of the step's position (None for a quiz about the deck alone)."""
        return state_from_record(self.position) if self.position is not None else None

    def text_keys(self) -> list[str]:
        keys = [self.title, self.intro]
        if self.task:
            keys.append(self.task)
        for reply in [self.right, self.other] + [r for _a, r in self.unwise]:
            if reply is not None:
                keys.append(reply.text)
        for q in self.questions:
            keys += [q.text, q.right, q.wrong] + [c["label"] for c in q.choices if "label" in c]
        return keys


@dataclass(frozen=True)
class Lesson:
    path: str
    variant: str
    steps: tuple

    def step(self, step_id: str) -> Step | None:
        return next((s for s in self.steps if s.id == step_id), None)

    def next_after(self, step: Step) -> Step | None:
        return self.steps[step.index + 1] if step.index + 1 < len(self.steps) else None

    def before(self, step: Step) -> Step | None:
        return self.steps[step.index - 1] if step.index > 0 else None

    @property
    def step_ids(self) -> list[str]:
        return [s.id for s in self.steps]


def _reply(data) -> Reply | None:
    return Reply(data["host"], data["text"]) if data else None


def _step(path: str, index: int, data: dict) -> Step:
    questions = tuple(
        Question(q["id"], q["text"], q["fact"], tuple(q["choices"]), q["right"], q["wrong"])
        for q in data.get("questions", ())
    )
    return Step(
        path=path,
        index=index,
        id=data["id"],
        kind=data["kind"],
        title=data["title"],
        host=data["host"],
        intro=data["intro"],
        position=data.get("position"),
        task=data.get("task"),
        seat=data.get("seat", 0),
        accept=tuple(data.get("accept", ())),
        accept_all_legal=data.get("accept_all_legal", False),
        right=_reply(data.get("right")),
        unwise=tuple((u["action"], Reply(u["host"], u["text"])) for u in data.get("unwise", ())),
        other=_reply(data.get("other")),
        finish_trick=data.get("finish_trick", False),
        winner=data.get("winner"),
        show_new_cards=data.get("show_new_cards", False),
        show=data.get("show"),
        questions=questions,
        conceal=tuple(data.get("conceal", ())),
    )


@cache
def lesson(path: str) -> Lesson:
    if path not in PATHS:
        raise KeyError(path)
    data = json.loads((STEPS_DIR / f"{path}.json").read_text(encoding="utf-8"))
    steps = tuple(_step(path, i, s) for i, s in enumerate(data["steps"]))
    ids = [s.id for s in steps]
    if len(set(ids)) != len(ids) or PRACTICE in ids:
        raise ValueError(f"{path}: step ids must be unique and not {PRACTICE!r}")
    unknown = [key for s in steps for key in s.text_keys() if key not in TEXTS]
    if unknown:
        raise ValueError(f"{path}: text keys missing from lessons/texts.py: {unknown}")
    return Lesson(path=path, variant=data["variant"], steps=steps)


# --- judging a move ---------------------------------------------------------------------


def canonical(action, variant: str):
    """One form per move: a Japanese joker always takes, so "take" and no mode are the same move."""
    if variant == "japanese" and type(action) is Play and action.joker == "take":
        return Play(action.seat, action.card, None, action.suit)
    return action


def parse_move(value: str, seat: int) -> dict:
    """The record action a form button stands for: "play AS", "play X1 take C", "bid 2", "trump H".

    The result is only shaped, not checked: the engine judges it.
    """
    words = (value or "").split()
    if not words:
        return {"seat": seat}
    kind, rest = words[0], words[1:]
    if kind == "play" and rest:
        record = {"seat": seat, "play": rest[0]}
        if len(rest) > 1 and rest[1] != "-":
            record["joker"] = rest[1]
        if len(rest) > 2:
            record["suit"] = rest[2]
        return record
    if kind == "bid" and len(rest) == 1:
        return {"seat": seat, "bid": int(rest[0]) if rest[0].isdigit() else rest[0]}
    if kind == "trump" and len(rest) == 1:
        return {"seat": seat, "trump": rest[0]}
    return {"seat": seat, kind: " ".join(rest)}


def move_value(action) -> str:
    """The form value of an engine action (the inverse of parse_move)."""
    rec = action.to_record() if hasattr(action, "to_record") else action
    if "play" in rec:
        words = ["play", rec["play"]]
        if "joker" in rec or "suit" in rec:
            words.append(rec.get("joker") or "-")
        if "suit" in rec:
            words.append(rec["suit"])
        return " ".join(words)
    if "bid" in rec:
        return f"bid {rec['bid']}"
    return f"trump {rec['trump']}"


@dataclass
class Verdict:
    outcome: str  # "right", "unwise", "other" or "illegal"
    host: str
    text_key: str | None = None  # the host's text (not for "illegal")
    engine_code: str | None = None  # the engine's refusal code ("illegal")
    engine_message: str | None = None  # the engine's refusal, in the reader's language
    action: dict | None = None
    after: object = None  # the position after a right move (and the trick finished)
    before: object = None
    new_cards: list = field(default_factory=list)

    @property
    def is_right(self) -> bool:
        return self.outcome == "right"


def accepted_actions(step: Step, variant: str) -> set:
    return {canonical(action_from_record(a), variant) for a in step.accept}


def finish_trick(state, seat: int) -> None:
    """Let the others (bots) play until the trick the learner played to is complete."""
    while state.trick and state.to_act is not None and state.to_act != seat:
        state.apply(choose_action(state, state.to_act))


def judge_move(step: Step, variant: str, record: dict) -> Verdict:
    state = step.state()
    after = state.copy()
    try:
        action = action_from_record(record)
        after.apply(action)
    except IllegalAction as error:
        return Verdict("illegal", "keto", engine_code=error.code, engine_message=message_for(error), action=record)
    action = canonical(action, variant)
    if action in accepted_actions(step, variant):
        if step.finish_trick:
            finish_trick(after, step.seat)
        new_cards = [c for c in after.hand(step.seat) if c not in set(state.hand(step.seat))]
        return Verdict("right", step.right.host, step.right.text, action=action.to_record(), after=after,
                       before=state, new_cards=new_cards)
    for unwise_record, reply in step.unwise:
        if canonical(action_from_record(unwise_record), variant) == action:
            return Verdict("unwise", reply.host, reply.text, action=action.to_record())
    reply = step.other
    return Verdict("other", reply.host if reply else "keto", reply.text if reply else None, action=action.to_record())


# --- judging a quiz ---------------------------------------------------------------------


@dataclass
class QuestionResult:
    question: Question
    given: str | None
    right_value: str
    params: dict

    @property
    def answered(self) -> bool:
        return self.given is not None

    @property
    def is_right(self) -> bool:
        return self.given == self.right_value


def question_facts(step: Step, state=None) -> list[tuple[Question, str, dict]]:
    """Each question with its right value and explanation numbers, from the engine."""
    if state is None and step.position is not None:
        state = step.state()
    common = facts.step_params(state)
    out = []
    for q in step.questions:
        value, params = facts.answer(q.fact, state)
        out.append((q, value, common | params))
    return out


def judge_quiz(step: Step, answers: dict) -> list[QuestionResult]:
    results = []
    for q, value, params in question_facts(step):
        given = answers.get(q.id)
        if given is not None and given not in {c["value"] for c in q.choices}:
            given = None  # not one of the choices: as good as no answer
        results.append(QuestionResult(q, given, value, params))
    return results
