"""gunicorn settings for the web process: `gunicorn -c deploy/gunicorn.conf.py cms.wsgi`.

Every value can be overridden from the environment (GUNICORN_CMD_ARGS also works). Reload new
code without dropping requests with `kill -HUP <master pid>` (systemd: `systemctl reload`).
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
# Sync workers: one request at a time per process, each answered with `Connection: close`, so
# a worker that is recycled has no idle keep-alive connection for a client to send on as it
# exits (with gthread, and even with keep-alive off, requests sent to a recycled worker got
# resets: tests/deploy/test_gunicorn_recycling.py). The TLS proxy in front keeps its own
# keep-alive to clients and buffers slow ones, which is what sync workers need.
# GUNICORN_THREADS above 1 switches gunicorn to gthread, and brings those resets back.
worker_class = "sync"
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30  # a recycled or reloaded worker finishes its request first
# Recycle workers now and then so slow memory growth never becomes an outage; the jitter
# keeps them from all restarting at once.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "1000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "500"))
# Code is loaded in each worker, so a HUP picks up a new release.
preload_app = False
# The TLS-terminating proxy's address; only it may set X-Forwarded-* headers.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# Logs: JSON lines on stdout like the application's; access lines carry the request id.
accesslog = "-"
errorlog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"access": {"()": "cms.ops.log_fields.GunicornAccessFields"}},
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        }
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "json",
        },
        "access": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "json",
            "filters": ["access"],
        },
    },
    # gunicorn merges this into its own defaults, whose root logger names a "console" handler.
    "root": {"handlers": ["stdout"], "level": "INFO"},
    "loggers": {
        "gunicorn.error": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
        "gunicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
    },
}
