"""The import graph: pairs of apps that import each other, and module cycles (issue 41).

Run from the repository root: `.venv/bin/python bench/import_graph.py`. Writes nothing.
import sys
from collections import defaultdict
from pathlib import Path
import grimp
sys.path.insert(0, ".")
graph = grimp.build_graph("cms", "sync", exclude_type_checking_imports=True, cache_dir=None)
def app(module: str) -> str:
    parts = module.split(".")
    if parts[0] == "sync":
        return "sync"
    is_app = len(parts) > 1 and Path("cms", parts[1]).is_dir()
    return f"cms.{parts[1]}" if is_app else "cms.<toplevel files>"
edges = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
def lines(a: str, b: str) -> str:
    found = sorted({d["line_number"] for d in graph.get_import_details(importer=a, imported=b)})
    return ", ".join(map(str, found))
between = defaultdict(list)
for a in sorted(edges):
    for b in sorted(edges[a]):
        if app(a) != app(b):
            between[app(a), app(b)].append(f"{a} -> {b} (line {lines(a, b)})")
pairs = sorted({tuple(sorted(k)) for k in between if k[::-1] in between})
print(f"{len(pairs)} pairs of apps that import each other")
for x, y in pairs:
    for s, d in ((x, y), (y, x)):
        print(f"  {s} -> {d}:", *between[s, d], sep="\n    ")
index, low, stack, cycles = {}, {}, [], []
def visit(v: str) -> None:  # Tarjan: strongly connected components
    index[v] = low[v] = len(index)
    stack.append(v)
    for w in sorted(edges[v]):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while not comp or comp[-1] != v:
            comp.append(stack.pop())
        if len(comp) > 1:
            cycles.append(sorted(comp))
for m in sorted(edges):
    if m not in index:
        visit(m)
cycles.sort(key=len, reverse=True)
print(f"{len(cycles)} module cycles, sizes {[len(c) for c in cycles]}")
for comp in cycles:
    print(f"  {len(comp)} modules:")
    for a in comp:
        for b in sorted(edges[a] & set(comp)):
            print(f"    {a} -> {b} (line {lines(a, b)})")
