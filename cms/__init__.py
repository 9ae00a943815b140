"""The headless CMS. Its Celery app loads with Django, so `shared_task`s bind to it."""

from .celery import app as celery_app

__all__ = ("celery_app",)
