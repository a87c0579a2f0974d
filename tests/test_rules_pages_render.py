"""The rules pages render in every language with titles, descriptions, hreflang
alternates, a working table of contents, the same sections everywhere and no
untranslated strings."""

import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from django.conf import settings
from django.test import Client
from rules_pages_html import read_page

from rules_pages import content

LANGS = content.LANGUAGES
SLUGS = content.PAGE_SLUGS
PAGES = [(lang, slug) for lang in LANGS for slug in SLUGS]
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def client():
    # One client for the module: building the middleware (WhiteNoise indexes every
    # static file) costs about a second per client.
    return Client()


def get(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


@pytest.mark.parametrize("lang,slug", PAGES)
def test_every_page_renders_with_its_title_and_description(client, lang, slug):
    page = content.load_page(lang, slug)
    reader = read_page(get(client, f"/{lang}/rules/{slug}/"))
    assert reader.html_lang == lang
    assert reader.title.startswith(page.title)
    assert reader.meta["description"] == page.description
    assert 40 <= len(page.description) <= 240, "search engines show about 160 characters"


@pytest.mark.parametrize("lang", LANGS)
def test_index_lists_every_page_with_its_title(client, lang):
    html = get(client, f"/{lang}/rules/")
    for slug in SLUGS:
        assert f'href="/{lang}/rules/{slug}/"' in html
        assert content.load_page(lang, slug).title in html


@pytest.mark.parametrize("lang,slug", PAGES + [(lang, None) for lang in LANGS])
def test_page_names_its_translations_with_hreflang(client, lang, slug):
    path = f"/rules/{slug}/" if slug else "/rules/"
    reader = read_page(get(client, f"/{lang}{path}"))
    alternates = {link["hreflang"]: link["href"] for link in reader.head_links if link.get("rel") == "alternate"}
    assert alternates == {
        **{other: f"http://testserver/{other}{path}" for other in LANGS},
        "x-default": f"http://testserver/ka{path}",
    }
    canonical = [link["href"] for link in reader.head_links if link.get("rel") == "canonical"]
    assert canonical == [f"http://testserver/{lang}{path}"]
    visible = {attrs.get("hreflang"): href for href, attrs in reader.links if attrs.get("hreflang")}
    assert visible == {other: f"/{other}{path}" for other in LANGS if other != lang}


@pytest.mark.parametrize("lang,slug", PAGES)
def test_table_of_contents_links_every_section_anchor(client, lang, slug):
    reader = read_page(get(client, f"/{lang}/rules/{slug}/"))
    assert reader.headings, "a page has sections"
    assert all(anchor for _tag, anchor in reader.headings), "every section heading has an anchor"
    toc = [href.removeprefix("#") for href in reader.toc_hrefs]
    assert toc == [anchor for _tag, anchor in reader.headings]
    assert set(toc) <= reader.ids


@pytest.mark.parametrize("slug", SLUGS)
def test_sections_have_the_same_anchors_in_every_language(slug):
    def anchors(page):
        return [(item["id"], [child["id"] for child in item["children"]]) for item in page.toc]

    english = anchors(content.load_page("en", slug))
    for lang in LANGS:
        assert anchors(content.load_page(lang, slug)) == english, lang


@pytest.mark.parametrize("lang,slug", PAGES)
def test_links_inside_the_rules_lead_to_pages_and_sections_that_exist(client, lang, slug):
    url = f"/{lang}/rules/{slug}/"
    reader = read_page(get(client, url))
    for href, _attrs in reader.links:
        target = urlsplit(urljoin(url, href))
        if not target.path.startswith(f"/{lang}/rules/") or target.netloc:
            continue
        target_reader = reader if target.path == url else read_page(get(client, target.path))
        if target.fragment:
            assert target.fragment in target_reader.ids, f"{url}: {href}"


def test_unknown_page_and_unknown_language_are_not_found(client):
    assert client.get("/en/rules/poker/").status_code == 404
    assert client.get("/de/rules/classic/").status_code == 404


CREATE_TABLE_LINKS = [f"variant=classic&amp;game_type={kind}" for kind in ("standard", "nines", "short", "full")] + [
    f"variant=japanese&amp;target={target}" for target in (11, 15, 21, 31)
]


@pytest.mark.parametrize("lang", LANGS)
def test_all_games_page_links_to_create_a_table_of_each_kind(client, lang):
    html = get(client, f"/{lang}/rules/all-games/")
    for query in CREATE_TABLE_LINKS:
        assert f'href="/{lang}/tables/new/?{query}"' in html, query


# --- No untranslated strings -------------------------------------------------------------


def read_po(path):
    """(msgctxt, msgid) -> msgstr list, plus the fuzzy flags, from a .po file."""
    entries, fuzzy = {}, []
    block = path.read_text(encoding="utf-8").split("\n\n")
    for chunk in block:
        if "#, fuzzy" in chunk and 'msgid ""\nmsgstr ""' not in chunk:
            fuzzy.append(chunk)
        fields, current = {}, None
        for line in chunk.splitlines():
            match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                current = match.group(1)
                fields[current] = match.group(2)
            elif line.startswith('"') and current:
                fields[current] += line[1:-1]
        if fields.get("msgid"):
            entries[(fields.get("msgctxt"), fields["msgid"])] = [v for k, v in fields.items() if k.startswith("msgstr")]
    return entries, fuzzy


CATALOGUES = [ROOT / app / "locale" / lang / "LC_MESSAGES" / "django.po" for app in ("rules_pages", "games") for lang in LANGS]


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: f"{p.parts[-5]}-{p.parts[-3]}")
def test_catalogues_translate_every_string(path):
    entries, fuzzy = read_po(path)
    assert entries
    assert not fuzzy
    untranslated = [key for key, values in entries.items() if not all(values)]
    assert untranslated == []


@pytest.mark.parametrize("lang,slug", [(lang, slug) for lang in ("ka", "ru") for slug in SLUGS])
def test_georgian_and_russian_pages_show_no_english_interface_text(client, lang, slug):
    english, _ = read_po(ROOT / "rules_pages" / "locale" / "en" / "LC_MESSAGES" / "django.po")
    text = " ".join(read_page(get(client, f"/{lang}/rules/{slug}/")).text)
    for _ctx, msgid in english:
        phrase = re.sub(r"%\(\w+\)s", "", msgid).strip(" .:")
        if len(phrase) > 3 and " " in phrase:
            assert phrase not in text, phrase


# Latin-script words a Georgian or Russian page may show: the coin's name, the name of
# the English language in the language links, and pulka numbers (I, II, … VIII).
ALLOWED_LATIN = {"Domino", "Coin"} | {name for _code, name in settings.LANGUAGES}


@pytest.mark.parametrize("lang,slug", [(lang, slug) for lang in ("ka", "ru") for slug in SLUGS])
def test_georgian_and_russian_text_is_written_in_its_own_script(client, lang, slug):
    text = " ".join(read_page(get(client, f"/{lang}/rules/{slug}/")).text)
    latin_words = {word for word in re.findall(r"[A-Za-z]{2,}", text) if not re.fullmatch(r"[IVX]+", word)}
    latin_words -= ALLOWED_LATIN
    assert latin_words == set()
