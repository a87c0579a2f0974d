"""The architecture holds: no import circle among our modules, and the layers of .importlinter.

`make test` runs `lint-imports` beside ruff; these tests say the same inside the suite, so a
run of pytest alone catches an import that reaches up or closes a circle (docs/architecture.md)."""

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
APPS = ("joker_site", "accounts", "coins", "games", "ratings", "chat", "notices", "conduct", "quickplay",
        "lessons", "rules_pages", "moderation", "push", "pwa")


def _import_circles(graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, circles = {}, {}, [], set(), []
    counter = [0]

    def visit(module):
        index[module] = low[module] = counter[0]
        counter[0] += 1
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return circles


def test_no_module_of_ours_imports_itself_back_through_others():
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    graph = grimp.build_graph(*APPS, cache_dir=None)
    assert len(graph.modules) > 200  # the whole project was read
    assert _import_circles(graph) == []


def test_the_circle_finder_finds_a_circle():
    graph = grimp.ImportGraph()
    for module in ("a", "a.one", "a.two", "a.three"):
        graph.add_module(module)
    graph.add_import(importer="a.one", imported="a.two")
    graph.add_import(importer="a.two", imported="a.one")
    graph.add_import(importer="a.three", imported="a.one")
    assert _import_circles(graph) == [["a.one", "a.two"]]


def test_the_layers_of_the_import_contracts_are_kept():
    linted = subprocess.run([str(Path(sys.executable).with_name("lint-imports")), "--no-cache"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    assert "Contracts: 3 kept, 0 broken." in linted.stdout
