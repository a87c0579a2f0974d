"""The project's .po catalogues are complete, valid and compiled; the English-finder finds English."""

import shutil
import subprocess
import sys

import pytest

from accounts.i18n_audit import (
    deliberately_identical,
    parse_po,
    project_po_files,
    source_msgids,
    unfinished_entries,
    untranslated_in,
    visible_text,
)

TRANSLATED_LANGUAGES = {"ka", "ru"}


def language_of(path):
    return path.parts[-3]


def test_the_project_has_catalogues_for_all_three_languages():
    files = project_po_files()
    folders = {path.parents[2] for path in files}
    assert folders, "no catalogues found"
    for folder in folders:
        assert {language_of(p) for p in files if p.parents[2] == folder} == {"ka", "ru", "en"}, folder


def test_no_georgian_or_russian_catalogue_has_an_empty_or_fuzzy_translation():
    unfinished = {
        f"{path}:{entry.line}": entry.msgid
        for path in project_po_files()
        if language_of(path) in TRANSLATED_LANGUAGES
        for entry in unfinished_entries(path)
    }
    assert unfinished == {}


def test_catalogues_pass_msgfmt_format_checks():
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "gettext's msgfmt is missing: `make test` installs it"
    for path in project_po_files():
        result = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert result.returncode == 0, f"{path}: {result.stderr}"


def test_compiled_catalogues_are_not_older_than_their_sources():
    for path in project_po_files():
        compiled = path.with_suffix(".mo")
        assert compiled.exists(), f"{compiled} missing: run `make messages`"
        assert compiled.stat().st_mtime >= path.stat().st_mtime, f"{compiled} is stale: run `make messages`"


def test_a_message_reads_the_same_in_every_catalogue_that_translates_it():
    """Django shows one translation of an English text, from the first catalogue that has it
    (the project's, then the apps' in INSTALLED_APPS order), on every page. Where two apps
    translated the same text differently, the second one was never shown: the tournament's
    podium read a table's target ("2 ქულამდე", up to 2 points, from games) for a score, and the
    lesson's polite „წაიღებთ“ lost to the table's familiar „წაიღებ“. So one meaning, one
    translation; two meanings, a context (pgettext) apiece."""
    translations = {}
    for path in project_po_files():
        language = language_of(path)
        if language not in TRANSLATED_LANGUAGES:
            continue
        for entry in parse_po(path):
            if entry.is_header:
                continue
            for form, text in entry.msgstr.items():
                key = (language, entry.msgctxt, entry.msgid, form)
                translations.setdefault(key, {})[str(path)] = text
    differing = {key: texts for key, texts in translations.items() if len(set(texts.values())) > 1}
    assert differing == {}


# --- The finder itself -----------------------------------------------------------------------


def test_po_parser_reads_plural_multiline_and_fuzzy_entries(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: ka\\n"\n\n'
        '#, python-format\nmsgid "one %(n)s"\nmsgid_plural "many %(n)s"\nmsgstr[0] "ერთი"\nmsgstr[1] ""\n\n'
        '#, fuzzy\nmsgid "Long "\n"text"\nmsgstr "გრძელი"\n\n'
        'msgctxt "menu"\nmsgid "Open"\nmsgstr "გახსნა"\n\n'
        '#~ msgid "Old"\n#~ msgstr ""\n',
        encoding="utf-8",
    )
    entries = [e for e in parse_po(po) if not e.is_header]
    assert [(e.msgid, e.msgid_plural, e.msgctxt) for e in entries] == [
        ("one %(n)s", "many %(n)s", None),
        ("Long text", "", None),
        ("Open", "", "menu"),
    ]
    assert [e.msgid for e in unfinished_entries(po)] == ["one %(n)s", "Long text"]


@pytest.mark.django_db
def test_finder_flags_a_msgid_left_in_english_on_a_georgian_page():
    assert "Log in" in source_msgids()
    page = '<html><body><p>შესვლა</p><button>Log in</button></body></html>'
    assert untranslated_in(page, "ka") == ["Log in"]


def test_finder_reads_labelling_attributes_and_skips_translate_no():
    page = (
        '<nav aria-label="Main"></nav><input type="submit" value="Search">'
        '<span translate="no">Search <b>Main</b></span><script>var Main = 1;</script>'
    )
    assert visible_text(page) == "Main Search"


def test_finder_matches_messages_with_placeholders_and_markup():
    page = "<p>Already have an account? <a href='/en/'>Log in</a>.</p>"
    assert 'Already have an account? <a href="%(login_url)s">Log in</a>.' in untranslated_in(page, "ru")


def test_finder_ignores_words_inside_other_words_and_web_addresses():
    page = "<p>zzSearchzz https://example.org/password/reset/key/ пароль</p>"
    assert untranslated_in(page, "ru") == []


# Not source of the site's pages: left out of the copy makemessages reads.
_NOT_SITE_SOURCE = (".venv", "node_modules", "var", "test-artifacts", ".git", "tests", "scripts", "docs", "static")
_CANARY = "A sentence the code marks and no catalogue has"


def _strings_marked_in_the_code(tmp_path):
    """(context, msgid, plural) of every string the site's code and templates mark for
    translation: Django's makemessages run on a copy of the source (so the catalogues here
    are left as they are), with one canary string added that no catalogue has."""
    from django.conf import settings

    copy = tmp_path / "site"
    shutil.copytree(settings.BASE_DIR, copy, ignore=shutil.ignore_patterns(*_NOT_SITE_SOURCE))
    (copy / "games" / "i18n_canary.py").write_text(
        f"from django.utils.translation import gettext_lazy\n\nCANARY = gettext_lazy({_CANARY!r})\n")
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "ka", "-l", "ru", "-v", "0"],
                   cwd=copy, check=True, capture_output=True)
    marked = {}
    for language in sorted(TRANSLATED_LANGUAGES):
        marked[language] = {
            (entry.msgctxt, entry.msgid, entry.msgid_plural)
            for path in copy.rglob(f"locale/{language}/LC_MESSAGES/django.po")
            for entry in parse_po(path)
            if not entry.is_header
        }
    return marked


def test_every_string_the_code_marks_is_translated_into_georgian_and_russian(tmp_path):
    """A string marked in the code but in no catalogue would show in English, on a page or in
    an error message no page test opens. Each is looked up as the site looks it up (every
    catalogue at once); a brand or a number a catalogue keeps as itself is allowed."""
    from django.utils import translation

    marked = _strings_marked_in_the_code(tmp_path)
    for language in sorted(TRANSLATED_LANGUAGES):
        assert len(marked[language]) > 1000, "makemessages found too few strings"
        untranslated = set()
        with translation.override(language):
            for context, msgid, plural in marked[language]:
                if plural:
                    shown = (translation.npgettext(context, msgid, plural, 2) if context
                             else translation.ngettext(msgid, plural, 2))
                    english = shown == plural
                else:
                    shown = translation.pgettext(context, msgid) if context else translation.gettext(msgid)
                    english = shown == msgid
                if english and msgid not in deliberately_identical(language):
                    untranslated.add(msgid)
        assert untranslated == {_CANARY}, language  # the canary alone: the check sees what it should
