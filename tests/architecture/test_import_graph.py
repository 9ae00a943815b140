"""The layout issue 41 set: apps that never import each other, no module cycles, a small top level.

grimp reads every import, function-level ones included, so a circle cannot hide inside a
function; `lint-imports` (run by `make test`) checks the declared layers in pyproject.toml.
"""

import re

import pytest

from bench.import_graph import ROOT, app_pairs, build_graph, module_cycles

# The plug-in lookups configured in settings: the machine translator the memory-first translator
# wraps, and each sync source's client class (two calls in one module).
PLUGIN_LOOKUPS = 3
STRING_IMPORT = re.compile(r"import_string\(|apps\.get_model\(|import_module\(|__import__\(")


@pytest.fixture(scope="module")
def graph():
    return build_graph()


def test_no_two_apps_import_each_other(graph):
    assert app_pairs(graph) == []


def test_no_module_cycles(graph):
    assert module_cycles(graph) == []


def test_no_imports_hidden_in_strings():
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for package in ("cms", "sync")
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if STRING_IMPORT.search(line)
    ]
    assert len(found) <= PLUGIN_LOOKUPS, found


def test_cms_top_level_holds_only_the_project_files():
    modules = {p.name for p in (ROOT / "cms").glob("*.py")}
    assert modules == {"__init__.py", "celery.py", "urls.py", "wsgi.py"}
