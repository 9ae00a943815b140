"""What an editor and an operator do inside the running site, for the smoke test.

Run as `python -m deploy.smoke.site_actions ACTION ...` in the same environment as gunicorn and
the worker (production settings, the smoke test's database), so every write goes through the
models and signals exactly as in the admin. Each action prints one line `SMOKE-RESULT <json>`;
the application's own JSON log lines share stdout, hence the marker.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

RESULT_MARKER = "SMOKE-RESULT "


def report(result: dict) -> None:
    print(RESULT_MARKER + json.dumps(result, ensure_ascii=False), flush=True)


def create_editor(username: str) -> dict:
    """An editor as the translation roles define one, with the password from the environment."""
    from django.contrib.auth import get_user_model

    from cms.translation.policy.roles import EDITORS, ensure_roles

    editor = get_user_model().objects.create_user(
        username, password=os.environ["SMOKE_EDITOR_PASSWORD"]
    )
    editor.groups.add(ensure_roles()[EDITORS])
    return {"username": editor.username, "groups": [EDITORS]}


def publish_title(short_name: str, title: str, draft_title: str, username: str) -> dict:
    """Publish a new title as the editor would, then leave another title as an unpublished draft.

    `save_revision().publish()` is what the admin's "Publish" button runs; the draft afterwards
    must never reach the public API.
    """
    from django.contrib.auth import get_user_model

    from cms.digests.models import DigestPage

    editor = get_user_model().objects.get(username=username)
    page = DigestPage.objects.get(locale__language_code="en", short_name=short_name)
    if not page.permissions_for_user(editor).can_publish():
        raise SystemExit(f"{username} may not publish {short_name}: the Editors role is incomplete")
    page.title = title
    page.save_revision(user=editor, log_action=True).publish(user=editor)

    draft = DigestPage.objects.get(pk=page.pk)
    draft.title = draft_title
    draft.save_revision(user=editor, log_action=True)
    draft.refresh_from_db()
    return {
        "page": page.pk,
        "live_title": draft.title,
        "has_unpublished_changes": draft.has_unpublished_changes,
    }


def wait_for_sync(task_id: str, timeout: float) -> dict:
    """Wait until the run started by the `sync_all` task `task_id` ends; its summary."""
    from sync.models import SyncRun

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = SyncRun.objects.filter(kind=SyncRun.Kind.ALL, task_id=task_id).first()
        if run is not None and run.status != SyncRun.Status.RUNNING:
            return {
                "run": run.pk,
                "status": run.status,
                "papers_total": run.papers_total,
                "papers_matched": run.papers_matched,
                "papers_changed": run.papers_changed,
                "requests": run.requests,
                "errors": run.errors,
            }
        time.sleep(0.5)
    raise SystemExit(f"the sync run of task {task_id} did not end within {timeout:.0f} s")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    actions = parser.add_subparsers(dest="action", required=True)
    editor = actions.add_parser("create-editor")
    editor.add_argument("username")
    publish = actions.add_parser("publish-title")
    publish.add_argument("short_name")
    publish.add_argument("--title", required=True)
    publish.add_argument("--draft-title", required=True)
    publish.add_argument("--as", dest="username", required=True)
    wait = actions.add_parser("wait-for-sync")
    wait.add_argument("task_id")
    wait.add_argument("--timeout", type=float, default=180)
    args = parser.parse_args(argv)

    import django

    django.setup()
    if args.action == "create-editor":
        report(create_editor(args.username))
    elif args.action == "publish-title":
        report(publish_title(args.short_name, args.title, args.draft_title, args.username))
    else:
        report(wait_for_sync(args.task_id, args.timeout))


if __name__ == "__main__":
    main(sys.argv[1:])
