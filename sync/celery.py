"""The Celery app: Redis broker and results when REDIS_URL is set, in-process otherwise.

Settings come from Django's `CELERY_*` names (cms/settings/base.py). The beat schedule is built
here because it needs Celery's crontab type, and the crontab string is a plain setting.
"""

import os
import sys

from celery import Celery
from celery.schedules import crontab
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cms.settings.dev")
# Django's system checks run once per release (`manage.py check --deploy`, deploy/README.md).
# Celery's Django fixup would run them again in every worker's main process, loading every
# URLconf and admin view, which the workers never serve, into memory that each pool child
# then inherits: about 6 MB a process. A worker started by hand can still ask for them with
# CELERY_SKIP_CHECKS= (empty).
os.environ.setdefault("CELERY_SKIP_CHECKS", "1")

app = Celery("sync")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # every installed app's tasks module


@app.on_after_configure.connect
def schedule_sync_all(sender: Celery, **_kwargs) -> None:
    from django.conf import settings

    minute, hour, day_of_month, month, day_of_week = settings.SYNC_ALL_CRONTAB.split()
    sender.add_periodic_task(
        crontab(minute, hour, day_of_week, day_of_month, month),
        sender.signature("sync.tasks.sync_all"),
        name="sync all papers",
    )
    sender.add_periodic_task(
        15 * 60, sender.signature("sync.tasks.sync_due"), name="retry papers due again"
    )
    sender.add_periodic_task(
        settings.SYNC_RECOVER_INTERVAL,
        sender.signature("sync.tasks.sync_owed"),
        name="hand out owed papers again",
    )


@worker_process_init.connect
def _hand_the_lock_over_sooner(**_kwargs) -> None:
    """A sync task's threads wait on the sources while its main thread merges and writes;
    each time a waiting thread wakes it needs the interpreter lock, which the busy thread
    hands over only every switch interval (5 ms by default) - a few times per request, enough
    to slow the slowest source's pace. 1 ms keeps the sources on time at a small cost."""
    sys.setswitchinterval(0.001)
