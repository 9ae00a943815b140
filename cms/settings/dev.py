"""Local development: `make run` uses these settings with SQLite and no other service."""

from .base import *  # noqa: F403
from .base import env_list

DEBUG = True
SECRET_KEY = SECRET_KEY or "dev-only-insecure-key-never-use-in-production"  # noqa: F405
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
