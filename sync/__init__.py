"""The sync worker: keeps each Paper in step with public bibliographic sources."""

from .celery import app as celery_app

__all__ = ("celery_app",)
