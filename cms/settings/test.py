"""Lean settings for the test suite: fast hashing, in-memory cache, no outside service."""

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = "test-only-secret-key"
ALLOWED_HOSTS = ["*"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
WAGTAILADMIN_BASE_URL = "http://testserver"
WAGTAILAPI_BASE_URL = "http://testserver"
WAGTAILLOCALIZE_MACHINE_TRANSLATOR = {
    "CLASS": "cms.translation.machine_translators.GuardedDummyTranslator",
}

# API throttling is exercised by tests/ops/test_throttling.py with its own rate; off elsewhere.
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None}}  # noqa: F405
