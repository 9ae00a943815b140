"""Production-like settings for the benchmark server: DEBUG off, a throwaway database.

The database comes from BENCH_DATABASE_URL (set by the runner, never the developer's own), and
the URL conf adds the baselines (stock Wagtail endpoint, precomputed-bytes floor) beside the
project's own API.
"""

import os

import dj_database_url

from cms.settings.base import *  # noqa: F403

DEBUG = False
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or "bench-only-secret-key"
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
ROOT_URLCONF = "bench.urls"
WAGTAILAPI_BASE_URL = "http://127.0.0.1"

DATABASES = {"default": dj_database_url.parse(os.environ["BENCH_DATABASE_URL"], conn_max_age=600)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }

# The cache production shares between web processes (deploy/): Redis, when the runner found one
# (bench/__main__.py); only the cache, so tasks still run as `make run` runs them. (The sync
# stage's worker has a REDIS_URL of its own, broker and cache.)
if os.environ.get("BENCH_CACHE_URL") and not REDIS_URL:  # noqa: F405
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["BENCH_CACHE_URL"],
        }
    }

# Publishing pages (the changes stage) tells translators by e-mail: kept in memory, as there is
# no mail server here.
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
BENCH_FLOOR_DIR = os.environ.get("BENCH_FLOOR_DIR", "/nonexistent")

# wrk is one client sending thousands of requests a minute: the anonymous API rate limit would
# answer most of them 429, so it is off on the benchmark server.
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None}}  # noqa: F405
