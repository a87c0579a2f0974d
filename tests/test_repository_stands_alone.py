"""A clone of the repository needs nothing beside it.

No tracked file names a path outside the repository (the development
machine's folders, a folder next to the clone), and every citation of the
rule book ("rules.md 2.7", "rules 3.6") names a section docs/rules.md has.

The patterns below are written with a one-letter character class ("wor[k]")
so that this file, which is tracked and scanned too, does not match itself.
"""

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

OUTSIDE_PATHS = {
    "the development machine's work folder": r"/wor[k]/",
    "a folder next to the repository": r"\.\./share[d]\b",
    "the shared spec, seeds or notes folders": r"\bshare[d]/(spec|seeds|notes|hooks)\b",
    "a home folder": r"(/hom[e]/|/User[s]/|/roo[t]/)",
    "a pathlib step above the repository root": r"\b(REPO|ROOT)\.paren[t]\b",
    "a pathlib join onto the shared folder": r"/ \"share[d]\"",
}

CITATION = re.compile(r"\brule[s](?:\.md)?(?: sections?)? (\d+(?:\.\d+)?)(?:-(\d+\.\d+))?")
SECTION_HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", flags=re.MULTILINE)


def tracked_files():
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    names = [name for name in listing.decode().split("\0") if name]
    assert len(names) > 100, "git ls-files listed almost nothing: not run inside the repository?"
    return [REPO / name for name in names if (REPO / name).is_file()]


def tracked_texts():
    for path in tracked_files():
        yield path.relative_to(REPO), path.read_bytes().decode("utf-8", errors="replace")


def test_no_tracked_file_names_a_path_outside_the_repository():
    found = []
    for name, text in tracked_texts():
        for what, pattern in OUTSIDE_PATHS.items():
            for match in re.finditer(pattern, text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{name}:{line}: {what} ({match.group(0)!r})")
    assert found == []


def test_the_patterns_catch_the_paths_they_are_meant_for():
    examples = {
        "the development machine's work folder": "see /" + "work/notes.txt",
        "a folder next to the repository": "read .." + "/shared",
        "the shared spec, seeds or notes folders": "cite " + "shared" + "/spec/rules.md",
        "a home folder": "open /" + "home/someone",
        "a pathlib step above the repository root": "CONFORMANCE = REPO" + ".parent / 'x'",
        "a pathlib join onto the shared folder": 'here / "' + 'shared" / "spec"',
    }
    assert set(examples) == set(OUTSIDE_PATHS)
    for what, text in examples.items():
        assert re.search(OUTSIDE_PATHS[what], text), what


def test_every_citation_of_the_rules_names_a_section_of_docs_rules():
    sections = set(SECTION_HEADING.findall((REPO / "docs" / "rules.md").read_text()))
    assert {"1", "2", "2.1", "2.9", "3", "3.6"} <= sections
    cited = {}
    for name, text in tracked_texts():
        for match in CITATION.finditer(text):
            for number in filter(None, match.groups()):
                cited.setdefault(number, []).append(str(name))
    assert "3.6" in cited  # the scan finds citations at all
    assert {number: names for number, names in cited.items() if number not in sections} == {}

