"""One way to start a task outside a worker: cms.ops.background. Nothing else in cms/ or sync/
hands a task to the broker (`.delay` / `.apply_async`), except Celery tasks, which run on a
worker and queue their follow-ups there, and `sync_papers --enqueue`, which asks for the worker.
"""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
SENDS = {"delay", "apply_async"}
RUNNER = "cms/ops/background.py"
# The command queues on purpose: `--enqueue` is "let the worker do it" (docs/sync.md).
ASKS_FOR_THE_WORKER = {"sync/management/commands/sync_papers.py"}


def is_task(function: ast.FunctionDef) -> bool:
    """Decorated `@shared_task(...)` or `@app.task(...)`: its body runs on a worker."""
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in {"shared_task", "task"}:
            return True
    return False


def sends_outside_tasks(tree: ast.AST) -> list[int]:
    """Lines naming `.delay` / `.apply_async` outside the body of a task."""
    found = []

    def visit(node: ast.AST, in_task: bool) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            in_task = in_task or is_task(node)
        if isinstance(node, ast.Attribute) and node.attr in SENDS and not in_task:
            found.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child, in_task)

    visit(tree, False)
    return found


def test_only_the_runner_and_tasks_on_a_worker_send_to_the_broker():
    offenders = []
    for package in ("cms", "sync"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name == RUNNER or name in ASKS_FOR_THE_WORKER:
                continue
            lines = sends_outside_tasks(ast.parse(path.read_text(), name))
            offenders.extend(f"{name}:{line}" for line in lines)
    assert offenders == [], "start tasks through cms.ops.background"


def test_the_check_sees_a_send_outside_a_task():
    source = "@shared_task\ndef ok():\n    a.delay(1)\n\ndef request():\n    a.apply_async((1,))\n"
    assert sends_outside_tasks(ast.parse(source)) == [6]
