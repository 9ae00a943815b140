"""Lean settings for the test suite: fast hashing, in-memory cache, no outside service."""

from .base import *  # noqa: F403

SECRET_KEY = "test-only-secret-key"
ALLOWED_HOSTS = ["*"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
WAGTAILADMIN_BASE_URL = "http://testserver"
WAGTAILAPI_BASE_URL = "http://testserver"
# The translation memory first, then the dummy machine (English words reversed) for the rest.
WAGTAILLOCALIZE_MACHINE_TRANSLATOR = {
    "CLASS": "cms.terminology.translator.MemoryFirstTranslator",
    "OPTIONS": {"MACHINE": {"CLASS": "cms.translation.machine.translators.GuardedDummyTranslator"}},
}

# Rate limits are off; the tests of each (tests/ops/test_throttling.py,
# tests/ops/test_reset_and_feed_throttling.py) set their own rates.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": dict.fromkeys(REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]),  # noqa: F405
}


# Sync worker: tests reach no network (each points the sources at a local server) and must not
# wait long; the politeness settings themselves are exercised by tests/sync/test_faults.py.
SYNC_CONTACT_EMAIL = "sync-tests@example.org"
SYNC_RATE_LIMITS = os.environ.get(  # noqa: F405
    "SYNC_RATE_LIMITS", "crossref=100/s,openalex=100/s,dblp=100/s,semanticscholar=100/s"
)
SYNC_BATCH_SIZE = int(os.environ.get("SYNC_BATCH_SIZE", "50"))  # noqa: F405
SYNC_TIMEOUT = (1.0, 1.0)
SYNC_RETRIES = 3
SYNC_BACKOFF_FACTOR = 0.05
SYNC_RETRY_AFTER_MAX = 5
# Webhooks: local receivers, and retries that never make a test wait long.
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
WEBHOOK_TIMEOUT = float(os.environ.get("WEBHOOK_TIMEOUT", "1"))  # noqa: F405
WEBHOOK_LEASE_MARGIN = float(os.environ.get("WEBHOOK_LEASE_MARGIN", "0.5"))  # noqa: F405
WEBHOOK_RETRY_DELAYS = [
    float(delay)
    for delay in env_list("WEBHOOK_RETRY_DELAYS", "0.2,0.2,0.2,0.2,0.2")  # noqa: F405
]
WEBHOOK_RETRY_AFTER_MAX = 5

if not os.environ.get("SYNC_TEST_WORKER"):  # noqa: F405
    # The suite runs tasks in-process even where REDIS_URL is set; only the worker subprocesses
    # started by tests/sync/test_worker.py (which set SYNC_TEST_WORKER) use the broker.
    REDIS_URL = ""
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = None
    CELERY_TASK_ALWAYS_EAGER = True
elif os.environ.get("SYNC_TEST_SHARED_CACHE"):  # noqa: F405
    # Worker subprocesses of the self-healing tests share listings and locks in their Redis.
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not memory, so that a Celery worker subprocess can share the test database.
    VAR_DIR.mkdir(parents=True, exist_ok=True)  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}  # noqa: F405
