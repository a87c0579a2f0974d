"""The rules pages' content: Markdown files per language, rendered with the site's card faces.

A page is ``rules_pages/content/<lang>/<slug>.md``: front matter (``title``,
``description``) between two ``---`` lines, then Markdown. On top of Markdown:

- ``[[AS]]`` draws a card inside the text, ``[[AS KH --]]`` a row of cards
  (``--`` is a face-down card), ``[[columns AC 9H]]`` Japanese table columns (a
  face-down card under each face-up one), ``[[H]]`` a suit symbol, ``[[none]]`` the
  no-trump mark;
- a fenced ```` ```example ```` block holds a worked example as JSON (schema in
  docs/rules_pages.md) and is drawn as an example box;
- every heading carries an explicit id, ``## Scoring {#scoring}``, the same in all
  three languages, so a link to a section works in every translation.
"""

import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from markdown.extensions import Extension
from markdown.extensions.toc import TocExtension
from markdown.inlinepatterns import InlineProcessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from games import card_faces

from .examples import ExampleError, parse_example, plays_of, reader_seat

CONTENT_DIR = Path(__file__).resolve().parent / "content"
# In the order the index lists them.
PAGE_SLUGS = (
    "classic",
    "japanese",
    "classic-vs-japanese",
    "strategy",
    "glossary",
    "khishti",
    "all-games",
    "faq",
)
LANGUAGES_WITH_NAMES = tuple(settings.LANGUAGES)
LANGUAGES = tuple(code for code, _name in LANGUAGES_WITH_NAMES)
DEFAULT_LANGUAGE = settings.LANGUAGE_CODE
CARD_MARK = re.compile(r"\[\[([^\[\]]+)\]\]")
HEADING_ID = re.compile(r"^#{2,3} .*\{#[a-z0-9-]+\}\s*$")


class ContentError(ValueError):
    """A content file that breaks the content rules (front matter, card codes, examples, ids)."""


@dataclass
class Page:
    slug: str
    lang: str
    title: str
    description: str
    html: str
    toc: list  # [{"id", "name", "children": [...]}]
    examples: list = field(default_factory=list)
    interactive: bool = False


def content_path(lang, slug):
    return CONTENT_DIR / lang / f"{slug}.md"


def split_front_matter(text, where):
    """(front matter dict, body, number of lines before the body)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        raise ContentError(f"{where}: a content file starts with front matter between '---' lines")
    try:
        end = lines.index("---", 1)
    except ValueError as exc:
        raise ContentError(f"{where}: front matter is not closed by '---'") from exc
    meta = {}
    for line in lines[1:end]:
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise ContentError(f"{where}: front matter line {line!r} is not 'key: value'")
        meta[key.strip()] = value.strip()
    for key in ("title", "description"):
        if not meta.get(key):
            raise ContentError(f"{where}: front matter needs a non-empty {key!r}")
    return meta, "\n".join(lines[end + 1:]), end + 1


# --- Markdown extensions -------------------------------------------------------------


class CardMarks(InlineProcessor):
    """``[[AS]]``, ``[[AS KH --]]``, ``[[H]]``, ``[[none]]`` -> card faces / suit symbols."""

    def __init__(self, md, where):
        super().__init__(CARD_MARK.pattern, md)
        self.where = where

    def handleMatch(self, m, data):
        codes = m.group(1).split()
        try:
            if codes[0] == "columns":
                html = card_faces.render_columns(codes[1:], "sm")
            elif len(codes) == 1 and (codes[0] in card_faces.SUITS or codes[0] == "none"):
                html = card_faces.render_suit(codes[0])
            elif len(codes) == 1 and codes[0] not in card_faces.BACK_CODES:
                html = card_faces.render_card(codes[0], "xs")
            else:
                html = card_faces.render_cards(codes, "sm")
        except ValueError as exc:
            raise ContentError(f"{self.where}: {exc}") from exc
        return self.md.htmlStash.store(html), m.start(0), m.end(0)


class ExampleBlocks(Preprocessor):
    """Fenced ```example blocks -> example boxes; the parsed examples are kept on the page."""

    def __init__(self, md, where, examples, slug, line_offset):
        super().__init__(md)
        self.where = where
        self.examples = examples
        self.slug = slug
        self.line_offset = line_offset  # lines of front matter, so errors name the file's line

    def run(self, lines):
        out, block, start = [], None, 0
        for number, line in enumerate(lines, 1):
            if block is None:
                if line.strip() == "```example":
                    block, start = [], number + self.line_offset
                else:
                    out.append(line)
            elif line.strip() == "```":
                example = self._parse("\n".join(block), start)
                html = render_to_string("rules_pages/example_box.html", example_context(example, self.slug))
                out += ["", self.md.htmlStash.store(html), ""]
                block = None
            else:
                block.append(line)
        if block is not None:
            raise ContentError(f"{self.where}: the example block opened at line {start} is not closed")
        return out

    def _parse(self, text, line):
        try:
            example = parse_example(text, where=f"{self.where}, line {line}")
        except ExampleError as exc:
            raise ContentError(str(exc)) from exc
        if any(seen.id == example.id for seen in self.examples):
            raise ContentError(f"{self.where}, line {line}: example id {example.id!r} is used twice")
        self.examples.append(example)
        return example


class TableWrapper(Treeprocessor):
    """Wide tables scroll sideways on a phone instead of breaking the page."""

    def run(self, root):
        found = [(parent, index, child) for parent in root.iter() for index, child in enumerate(parent)
                 if child.tag == "table"]
        for parent, index, table in found:
            wrapper = etree.Element("div", {"class": "table-scroll"})
            parent.remove(table)
            wrapper.append(table)
            parent.insert(index, wrapper)


class RulesContent(Extension):
    def __init__(self, where, examples, slug, line_offset=0):
        super().__init__()
        self.where = where
        self.examples = examples
        self.slug = slug
        self.line_offset = line_offset

    def extendMarkdown(self, md):
        # Before fenced_code (25) so ```example is ours; after whitespace normalising (30).
        md.preprocessors.register(ExampleBlocks(md, self.where, self.examples, self.slug, self.line_offset), "rules_examples", 28)
        # Ahead of links (160) so "[[" is never read as a link.
        md.inlinePatterns.register(CardMarks(md, self.where), "rules_cards", 175)
        md.treeprocessors.register(TableWrapper(md), "rules_tables", 1)


# --- Examples as template context ------------------------------------------------------


def seat_label(example, seat):
    return example.name_of(seat) or translation.gettext("Player %(number)s") % {"number": seat + 1}


def play_context(example, play, seat, leads):
    (play,) = plays_of([play])
    note = ""
    japanese = example.data.get("variant") == "japanese"
    if play.card in card_faces.JOKERS and japanese:
        # A Japanese joker always takes; leading, it only names the suit it asks for.
        note = translation.pgettext("joker lead in Japanese Joker", "asks for") if leads else ""
    elif play.card in card_faces.JOKERS:
        if leads and play.joker == "discard":
            note = translation.pgettext("joker lead", "let it take")
        elif leads:
            note = translation.pgettext("joker lead", "high")
        elif play.joker == "discard":
            note = translation.pgettext("joker played on a trick", "discards")
        else:
            note = translation.pgettext("joker played on a trick", "takes")
    name = seat_label(example, seat) if seat is not None else ""
    return {"card": play.card, "seat": seat, "name": name, "note": note, "suit": play.suit}


def trick_plays_context(example, plays):
    return [
        play_context(example, play, (example.data["leader"] + index) % example.seats, index == 0)
        for index, play in enumerate(plays)
    ]


def example_context(example, slug):
    data = example.data
    context = {
        "example": example, "kind": example.kind, "data": data, "slug": slug,
        "caption": example.localized.get("caption"),
    }
    if example.kind == "trick":
        context["plays"] = trick_plays_context(example, data["plays"])
        context["winner_name"] = seat_label(example, data["winner"])
    elif example.kind in ("legal", "try"):
        if example.kind == "legal":
            context["plays"] = [
                play_context(example, play, None, index == 0) for index, play in enumerate(data["trick"])
            ]
        else:
            seat = reader_seat(example)
            context["plays"] = trick_plays_context(example, data["trick"])
            context["after"] = [
                play_context(example, play, (seat + 1 + i) % example.seats, False) for i, play in enumerate(data["after"])
            ]
            context["why"] = example.localized["why"]
        context["hand"] = card_faces.display_order(data["hand"])
        context["face_up"] = card_faces.display_order(data.get("face_up", []))
        context["legal"] = set(data["legal"])
    elif example.kind == "bid":
        context["sum_of_bids"] = sum(data["bids"])
    elif example.kind == "pulka":
        rows = []
        for seat in range(4):
            rows.append({
                "name": seat_label(example, seat),
                "deals": list(zip(data["bids"][seat], data["tricks"][seat], data["deal_scores"][seat])),
                "bonus": data["bonus"][seat],
                "total": sum(data["deal_scores"][seat]) + data["bonus"][seat],
            })
        context["rows"] = rows
    elif example.kind == "match":
        totals, running = [0, 0], []
        for tricks, points in zip(data["deals"], data["points"]):
            totals = [totals[0] + points[0], totals[1] + points[1]]
            running.append({"tricks": tricks, "points": points, "totals": totals})
        context["running"] = running
        context["names"] = [seat_label(example, 0), seat_label(example, 1)]
        if data["winner"] is not None:
            context["winner_name"] = seat_label(example, data["winner"])
    elif example.kind == "japanese_deal":
        context["names"] = [seat_label(example, 0), seat_label(example, 1)]
    return context


# --- Pages -----------------------------------------------------------------------------


def _toc(tokens):
    return [
        {"id": token["id"], "name": token["name"], "children": _toc(token.get("children", []))}
        for token in tokens
    ]


def render_source(text, lang, where, slug=""):
    meta, body, line_offset = split_front_matter(text, where)
    for number, line in enumerate(body.split("\n"), 1):
        if re.match(r"^#{2,3} ", line) and not HEADING_ID.match(line):
            raise ContentError(f"{where}: heading {line.strip()!r} needs an id like {{#scoring}}")
        if re.match(r"^#{1} ", line) or re.match(r"^#{4,} ", line):
            raise ContentError(f"{where}: only ## and ### headings are used (the page title is the h1)")
    examples = []
    with translation.override(lang):
        md = markdown.Markdown(
            extensions=[
                "attr_list", "tables", "sane_lists", "def_list",
                TocExtension(
                    toc_depth="2-3", permalink="#", permalink_class="anchor",
                    permalink_title=translation.gettext("Link to this section"),
                ),
                RulesContent(where, examples, slug, line_offset),
            ],
        )
        html = md.convert(body)
    leftover = CARD_MARK.search(html)
    if leftover:
        raise ContentError(f"{where}: card mark {leftover.group(0)!r} was not drawn")
    return Page(
        slug=slug, lang=lang, title=meta["title"], description=meta["description"], html=html,
        toc=_toc(md.toc_tokens), examples=examples, interactive=any(e.kind == "try" for e in examples),
    )


@lru_cache(maxsize=64)
def _load(lang, slug, mtime):
    path = content_path(lang, slug)
    page = render_source(path.read_text(encoding="utf-8"), lang, f"{lang}/{slug}.md", slug)
    return page


def load_page(lang, slug):
    """The rendered page, or None when there is no such page in that language."""
    if slug not in PAGE_SLUGS or lang not in LANGUAGES:
        return None
    path = content_path(lang, slug)
    if not path.exists():
        return None
    # The modification time is part of the key: an edited file renders anew.
    return _load(lang, slug, path.stat().st_mtime_ns)


def find_example(lang, slug, example_id):
    page = load_page(lang, slug)
    if page is None:
        return None
    return next((example for example in page.examples if example.id == example_id), None)
