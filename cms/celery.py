"""The project's Celery app: Redis broker and results when REDIS_URL is set, in-process otherwise.

Settings come from Django's `CELERY_*` names (cms/settings/base.py), the beat schedule too.
Every installed app's `tasks` module registers on it (sync, translation, webhooks), so the
app names no app: each plugs in from its own side.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cms.settings.dev")
# Django's system checks run once per release (`manage.py check --deploy`, deploy/README.md).
# Celery's Django fixup would run them again in every worker's main process, loading every
# URLconf and admin view, which the workers never serve, into memory that each pool child
# then inherits: about 6 MB a process. A worker started by hand can still ask for them with
# CELERY_SKIP_CHECKS= (empty).
os.environ.setdefault("CELERY_SKIP_CHECKS", "1")

app = Celery("cms")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # every installed app's tasks module
