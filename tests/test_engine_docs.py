"""docs/engine.md stays true, and the engine stays free of Django."""

import ast
import re
from pathlib import Path

from games import engine
from games.engine import ERROR_CODES

REPO = Path(__file__).resolve().parent.parent
DOC = (REPO / "docs" / "engine.md").read_text()


def test_every_error_code_is_listed_in_the_docs_with_its_meaning():
    errors_section = DOC.split("\n## Errors\n")[1].split("\n## ")[0]
    listed = set(re.findall(r"^\| `([a-z_]+)` \| \S", errors_section, flags=re.MULTILINE))
    assert listed == set(ERROR_CODES)


def test_every_raised_error_code_is_known_and_every_known_code_is_raised_somewhere():
    sources = "".join(p.read_text() for p in (REPO / "games" / "engine").glob("*.py") if p.name != "errors.py")
    raised = set(re.findall(r'(?:IllegalAction|InvalidDeal|InvalidOptions|RecordError|_refuse|_invalid_deal)\(\s*"([a-z_]+)"', sources))
    assert raised <= set(ERROR_CODES)
    for code in ERROR_CODES:
        assert f'"{code}"' in sources, code


def test_the_engine_imports_no_django():
    for path in (REPO / "games" / "engine").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not any(alias.name.split(".")[0] == "django" for alias in node.names), path
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] != "django", path


def test_every_public_name_is_documented():
    for name in engine.__all__:
        assert name in DOC, name
