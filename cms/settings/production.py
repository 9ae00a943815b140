"""Production: PostgreSQL, Redis, gunicorn behind a TLS-terminating proxy; all from the environment.

`manage.py check --deploy` passes with no warning under these settings
(tests/ops/test_production_settings.py).
"""

import os

from django.core.exceptions import ImproperlyConfigured
from django_guid.integrations import CeleryIntegration

from .base import *  # noqa: F403
from .base import DATABASES, DJANGO_GUID, REST_FRAMEWORK, SECRET_KEY, env_bool, env_list

if not SECRET_KEY:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is not set. Production settings need a long random secret key in the "
        "environment, e.g. from: python -c 'import secrets; print(secrets.token_urlsafe(64))'"
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

# HTTPS: the proxy terminates TLS and says so in X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
# Django's defaults already give HttpOnly session cookies, X-Frame-Options DENY, nosniff and
# Referrer-Policy same-origin.
# One TLS-terminating proxy in front of gunicorn unless said otherwise (cms/ops/client_address.py).
TRUSTED_PROXY_COUNT = int(
    os.environ.get("TRUSTED_PROXY_COUNT", os.environ.get("NUM_PROXIES", "1")) or "0"
)
REST_FRAMEWORK["NUM_PROXIES"] = TRUSTED_PROXY_COUNT

# Webhooks never go to private, loopback or link-local addresses unless this is turned on.
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = env_bool("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", False)

# Static files: hashed names and pre-compressed copies, served by whitenoise from STATIC_ROOT.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Logs: one JSON object per line on stdout, with the request id and, in the worker, the task id.
DJANGO_GUID = {**DJANGO_GUID, "INTEGRATIONS": [CeleryIntegration(use_django_logging=True)]}
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {
            "()": "django_guid.log_filters.CorrelationId",
            "correlation_id_field": "request_id",
        },
        "task": {"()": "cms.ops.log_fields.CeleryTaskFilter"},
    },
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(task_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        }
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "json",
            "filters": ["request_id", "task"],
        }
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
        "django_guid": {"level": "WARNING"},
    },
}
