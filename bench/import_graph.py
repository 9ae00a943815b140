"""The import graph of `cms` and `sync`: pairs of apps that import each other, and module cycles.

Run from the repository root: `.venv/bin/python -m bench.import_graph`. It writes nothing; the
test suite asserts the same figures are zero (tests/architecture/). grimp reads every import,
those inside functions too; imports under `TYPE_CHECKING` are left out.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent


def build_graph() -> grimp.ImportGraph:
    """Every import between modules of cms and sync."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return grimp.build_graph("cms", "sync", exclude_type_checking_imports=True, cache_dir=None)


def app_of(module: str) -> str:
    """`sync`, `cms.<app>` for a module inside a cms package, else the cms top level."""
    parts = module.split(".")
    if parts[0] == "sync":
        return "sync"
    if len(parts) > 1 and (ROOT / "cms" / parts[1]).is_dir():
        return f"cms.{parts[1]}"
    return "cms.<top level>"


def edges_between_apps(graph: grimp.ImportGraph) -> dict[tuple[str, str], list[str]]:
    """(importing app, imported app) -> the module imports that cross between them."""
    between: dict[tuple[str, str], list[str]] = defaultdict(list)
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if app_of(importer) != app_of(imported):
                between[app_of(importer), app_of(imported)].append(
                    f"{importer} -> {imported} (line {_lines(graph, importer, imported)})"
                )
    return between


def app_pairs(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    """Pairs of apps that import each other, directly."""
    between = edges_between_apps(graph)
    return sorted({tuple(sorted(pair)) for pair in between if pair[::-1] in between})


def module_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), largest first."""
    edges = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(edges)))
    for module in sorted(edges):
        if module not in index:
            visit(module)
    return sorted(cycles, key=len, reverse=True)


def _lines(graph: grimp.ImportGraph, importer: str, imported: str) -> str:
    details = graph.get_import_details(importer=importer, imported=imported)
    return ", ".join(str(n) for n in sorted({d["line_number"] for d in details}))


def main() -> None:
    graph = build_graph()
    between = edges_between_apps(graph)
    pairs = app_pairs(graph)
    print(f"{len(pairs)} pairs of apps that import each other")
    for a, b in pairs:
        for source, target in ((a, b), (b, a)):
            print(f"  {source} -> {target}:", *between[source, target], sep="\n    ")
    cycles = module_cycles(graph)
    print(f"{len(cycles)} module cycles, sizes {[len(c) for c in cycles]}")
    for component in cycles:
        print(f"  {len(component)} modules:")
        members = set(component)
        for a in component:
            for b in sorted(graph.find_modules_directly_imported_by(a) & members):
                print(f"    {a} -> {b} (line {_lines(graph, a, b)})")


if __name__ == "__main__":
    main()
