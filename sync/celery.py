"""The Celery app: Redis broker and results when REDIS_URL is set, in-process otherwise.

Settings come from Django's `CELERY_*` names (cms/settings/base.py). The beat schedule is built
here because it needs Celery's crontab type, and the crontab string is a plain setting.
"""

import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cms.settings.dev")

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
