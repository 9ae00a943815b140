"""Production settings pass Django's deployment checklist and refuse to start half-configured."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def production_env(**overrides: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "REDIS_URL", "ALLOWED_HOSTS"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="cms.settings.production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="cms.example.org",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    env.update(overrides)
    return env


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_reports_nothing():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=production_env())

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_missing_secret_key_is_a_clear_error():
    env = production_env()
    del env["DJANGO_SECRET_KEY"]

    result = manage("check", env=env)

    assert result.returncode != 0
    assert "ImproperlyConfigured: DJANGO_SECRET_KEY is not set" in result.stderr


def test_security_settings():
    code = """
import django, json
django.setup()
from django.conf import settings as s
print(json.dumps({
    "debug": s.DEBUG,
    "hsts": s.SECURE_HSTS_SECONDS,
    "cookies": [s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE],
    "static": s.STORAGES["staticfiles"]["BACKEND"],
    "cache": s.CACHES["default"]["BACKEND"],
}))
"""
    result = run_python(code, production_env())

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[-1]) == {
        "debug": False,
        "hsts": 31536000,
        "cookies": [True, True],
        "static": "whitenoise.storage.CompressedManifestStaticFilesStorage",
        "cache": "django.core.cache.backends.redis.RedisCache",
    }


def test_logs_are_json_lines_with_the_request_id():
    code = """
import django, logging
django.setup()
from django_guid import set_guid
set_guid("4f1c0c8e2b7d4a1e9d3b5a6c7e8f9012")
logging.getLogger("cms.example").warning("published %s", "a digest")
"""
    result = run_python(code, production_env())

    assert result.returncode == 0, result.stderr
    line = json.loads(result.stdout.strip().splitlines()[-1])
    assert line["message"] == "published a digest"
    assert line["level"] == "WARNING"
    assert line["logger"] == "cms.example"
    assert line["request_id"] == "4f1c0c8e2b7d4a1e9d3b5a6c7e8f9012"
    assert line["task_id"] is None
    assert "time" in line
