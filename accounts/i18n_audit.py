"""Find English left on Georgian and Russian pages.

The source strings are every msgid of the catalogues Django translates from:
its own, every installed app's and the project's (LOCALE_PATHS). A page in
ka or ru whose visible text still contains one of them shows English a reader
cannot use. Text inside an element marked `translate="no"` (names people
chose, language names written in their own language) is not checked, and a
msgid a catalogue deliberately translates as itself (a brand name) is allowed.
"""

import html
import re
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import django
from django.apps import apps
from django.conf import settings

# --- Reading .po files ---------------------------------------------------------------


@dataclass
class PoEntry:
    msgid: str = ""
    msgid_plural: str = ""
    msgctxt: str | None = None
    msgstr: dict = field(default_factory=dict)  # plural index -> text
    fuzzy: bool = False
    line: int = 0

    @property
    def is_header(self):
        return self.msgid == "" and self.msgctxt is None

    @property
    def translations(self):
        return [self.msgstr[k] for k in sorted(self.msgstr)]


_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")\s*$')


def _unquote(quoted):
    body = quoted.strip()[1:-1]
    return re.sub(
        r'\\(.)', lambda m: {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(m.group(1), m.group(1)), body
    )


def parse_po(path):
    """The live (not obsolete) entries of a .po file."""
    entries = []
    current = None
    flags = set()
    target = None

    def finish():
        nonlocal current, target
        if current is not None:
            entries.append(current)
        current, target = None, None

    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#~"):
            continue
        if not line:
            finish()
            continue
        if line.startswith("#"):
            if current is not None and current.msgstr:
                finish()
            if line.startswith("#,"):
                flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        match = _KEYWORD.match(line)
        if match:
            keyword, index, quoted = match.groups()
            if keyword in {"msgctxt", "msgid"} and current is not None and current.msgstr:
                finish()
            if current is None:
                current = PoEntry(fuzzy="fuzzy" in flags, line=number)
                flags = set()
            text = _unquote(quoted)
            if keyword.startswith("msgstr"):
                target = ("msgstr", int(index) if index is not None else 0)
                current.msgstr[target[1]] = text
            else:
                target = (keyword, None)
                setattr(current, keyword, text)
        elif line.startswith('"') and current is not None and target is not None:
            kind, key = target
            if kind == "msgstr":
                current.msgstr[key] += _unquote(line)
            else:
                setattr(current, kind, getattr(current, kind) + _unquote(line))
    finish()
    return entries


# --- Which catalogues ------------------------------------------------------------------


def locale_dirs():
    """Every folder Django looks up translations in, lowest priority first."""
    dirs = [Path(django.__file__).resolve().parent / "conf" / "locale"]
    dirs += [Path(app.path) / "locale" for app in apps.get_app_configs()]
    dirs += [Path(p) for p in settings.LOCALE_PATHS]
    return [d for d in dirs if d.is_dir()]


def _catalogue(locale_dir, language):
    path = locale_dir / language / "LC_MESSAGES" / "django.po"
    return path if path.is_file() else None


def source_catalogues():
    """One .po per locale folder to read msgids from: English, else whichever exists."""
    found = []
    for locale_dir in locale_dirs():
        for language in ["en", "ka", "ru"]:
            path = _catalogue(locale_dir, language)
            if path:
                found.append(path)
                break
    return found


@cache
def source_msgids():
    msgids = set()
    for path in source_catalogues():
        for entry in parse_po(path):
            if not entry.is_header:
                msgids.add(entry.msgid)
                if entry.msgid_plural:
                    msgids.add(entry.msgid_plural)
    return frozenset(msgids)


@cache
def deliberately_identical(language):
    """msgids some catalogue translates into `language` as themselves (names, brands)."""
    same = set()
    for locale_dir in locale_dirs():
        path = _catalogue(locale_dir, language)
        if not path:
            continue
        for entry in parse_po(path):
            if not entry.is_header and not entry.fuzzy and entry.msgid in entry.translations:
                same.add(entry.msgid)
    return frozenset(same)


def project_po_files():
    """The project's own catalogues (not those of installed packages)."""
    skip = {".venv", "node_modules", "var", ".git"}
    base = Path(settings.BASE_DIR)
    return sorted(
        path for path in base.rglob("*.po") if not skip.intersection(path.relative_to(base).parts)
    )


def unfinished_entries(path):
    """Entries of a ka/ru catalogue a reader would see in English: empty or fuzzy."""
    return [
        entry
        for entry in parse_po(path)
        if not entry.is_header and (entry.fuzzy or not entry.msgstr or any(not t for t in entry.translations))
    ]


# --- Visible text of a page ------------------------------------------------------------

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_HIDDEN_CONTENT = {"script", "style", "template"}
_TEXT_ATTRS = {"title", "alt", "placeholder", "aria-label", "aria-description", "aria-placeholder"}


class _VisibleText(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, skipped)
        self.parts = []

    def _skipping(self):
        return any(skipped for _tag, skipped in self.stack)

    def _attributes(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("translate") == "no" or self._skipping():
            return attrs
        for name in _TEXT_ATTRS:
            if attrs.get(name):
                self.parts.append(attrs[name])
        if tag == "input" and attrs.get("type") in {"submit", "button", "reset"} and attrs.get("value"):
            self.parts.append(attrs["value"])
        if tag == "meta" and attrs.get("name") == "description" and attrs.get("content"):
            self.parts.append(attrs["content"])
        return attrs

    def handle_starttag(self, tag, attrs):
        attrs = self._attributes(tag, attrs)
        if tag not in _VOID:
            self.stack.append((tag, attrs.get("translate") == "no" or tag in _HIDDEN_CONTENT))

    def handle_startendtag(self, tag, attrs):
        self._attributes(tag, attrs)

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                return

    def handle_data(self, data):
        if not self._skipping():
            self.parts.append(data)


_URL = re.compile(r"\bhttps?://\S+")


def visible_text(page_html):
    """The words a reader sees: text and labelling attributes, without web addresses."""
    parser = _VisibleText()
    parser.feed(page_html)
    parser.close()
    return " ".join(_URL.sub(" ", " ".join(parser.parts)).split())


# --- Matching msgids in text -------------------------------------------------------------

_PLACEHOLDER = re.compile(r"%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[sdifrxXeEgGc]|%[-#0 +]*\d*(?:\.\d+)?[sdifrxXeEgGc]|\{[^{}]*\}")
_WORD = re.compile(r"[A-Za-z]{2,}")
_GAP = ".{1,80}?"


@dataclass(frozen=True)
class _Pattern:
    msgid: str
    key: str
    regex: re.Pattern


def _literal_pieces(msgid):
    text = re.sub(r"<[^>]*>", " ", msgid)
    pieces = [html.unescape(piece.replace("%%", "%")) for piece in _PLACEHOLDER.split(text)]
    pieces = [" ".join(piece.split()) for piece in pieces]
    while pieces and not pieces[0]:
        pieces.pop(0)
    while pieces and not pieces[-1]:
        pieces.pop()
    return pieces


def _compile(msgid):
    pieces = _literal_pieces(msgid)
    words = [w for piece in pieces for w in _WORD.findall(piece)]
    if not words:
        return None
    body = _GAP.join(r"\s+".join(re.escape(w) for w in piece.split(" ")) for piece in pieces)
    first, last = pieces[0], pieces[-1]
    start = r"(?<![A-Za-z])" if first[:1].isalpha() else ""
    end = r"(?![A-Za-z])" if last[-1:].isalpha() else ""
    return _Pattern(msgid, max(words, key=len), re.compile(start + body + end, re.DOTALL))


@cache
def _patterns(language):
    allowed = deliberately_identical(language)
    compiled = (_compile(msgid) for msgid in source_msgids() if msgid not in allowed)
    return tuple(p for p in compiled if p is not None)


def untranslated_in(page_html, language):
    """The source msgids that appear as they are in the page's visible text."""
    text = visible_text(page_html)
    return sorted(
        {p.msgid for p in _patterns(language) if p.key in text and p.regex.search(text)}
    )
