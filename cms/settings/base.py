"""Settings shared by every environment; deployment specifics come from the environment."""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from corsheaders.defaults import default_headers as cors_default_headers
from django.utils.translation import gettext_lazy as _
from django_guid.integrations import CeleryIntegration

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated environment variable as a list, blanks dropped."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
DEBUG = False
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")

INSTALLED_APPS = [
    "cms.digests",
    "cms.papers",
    "cms.translation",
    "cms.terminology",
    "cms.apicache",
    "cms.reader",
    "cms.ops",
    "cms.webhooks",
    "cms.seed",
    "sync",
    "wagtail_localize",
    "wagtail_localize.locales",
    "wagtail.api.v2",
    "wagtail_headless_preview",
    "wagtail.contrib.forms",
    "wagtail.contrib.redirects",
    "wagtail.contrib.settings",
    "wagtail.contrib.sitemaps",
    "wagtail.embeds",
    "wagtail.sites",
    "wagtail.users",
    "wagtail.snippets",
    "wagtail.documents",
    "wagtail.images",
    "wagtail.search",
    "wagtail.admin",
    "wagtail",
    "modelcluster",
    "taggit",
    "rest_framework",
    "corsheaders",
    "csp",
    "django_guid",
    "axes",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",  # the sitemap.xml template
]

MIDDLEWARE = [
    "cms.ops.health.HealthProbeMiddleware",
    "django_guid.middleware.guid_middleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "cms.ops.csp.ContentSecurityPolicyMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "cms.ops.throttling.APIRateLimitMiddleware",
    # Answers If-None-Match with 304 to GET and HEAD, for cached API responses too; then the
    # API cache, ahead of sessions and auth, which public API responses never depend on.
    "cms.api.conditional_get.ConditionalGetMiddleware",
    "cms.apicache.middleware.APIResponseCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The address picks the language on the reader's pages; elsewhere it is negotiated.
    "cms.reader.locale_middleware.ReaderLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "wagtail.contrib.redirects.middleware.RedirectMiddleware",
    # Last, as django-axes asks: answers a locked-out login attempt with its lockout response.
    "axes.middleware.AxesMiddleware",
]

# django-axes checks every login (Wagtail's admin form and any other authenticate() call)
# before the model backend does.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "cms.urls"
# Django's error pages, JSON under /api/ (handler400 and the others are in cms/urls.py).
CSRF_FAILURE_VIEW = "cms.api.errors.csrf_failure"
WSGI_APPLICATION = "cms.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "cms" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: DATABASE_URL, or a SQLite file under var/ in WAL mode so the web process and an
# in-process sync can read and write at once. Connections persist on SQLite too: a new one per
# request re-registers Django's SQL functions, runs the PRAGMAs and re-reads the schema; in WAL
# mode an idle connection holds no snapshot, so it keeps neither writers nor checkpoints waiting.
DEFAULT_SQLITE_PATH = VAR_DIR / "db.sqlite3"
DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL", default=f"sqlite:///{DEFAULT_SQLITE_PATH}", conn_max_age=60
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Internationalisation: the admin and the content are bilingual.
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
LANGUAGES = [("en", "English"), ("zh-hant", "繁體中文")]
WAGTAIL_I18N_ENABLED = True
WAGTAIL_CONTENT_LANGUAGES = LANGUAGES
WAGTAILADMIN_PERMITTED_LANGUAGES = LANGUAGES
# Earlier entries win, and every entry wins over the installed packages' own catalogs.
# locales/vendor/ completes wagtail-localize's zh_Hant (server and editor JavaScript messages),
# locales/wagtail/ Wagtail's (the admin a translator uses); `make messages` never writes there,
# and our own msgids come first.
LOCALE_PATHS = [
    BASE_DIR / "locales",
    BASE_DIR / "locales" / "vendor",
    BASE_DIR / "locales" / "wagtail",
]

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
MEDIA_URL = "/media/"
MEDIA_ROOT = VAR_DIR / "media"

WAGTAIL_SITE_NAME = _("Research digests")
WAGTAILADMIN_BASE_URL = os.environ.get("WAGTAILADMIN_BASE_URL", "http://127.0.0.1:8000")
WAGTAILSEARCH_BACKENDS = {"default": {"BACKEND": "wagtail.search.backends.database"}}
WAGTAILDOCS_EXTENSIONS = ["csv", "docx", "key", "odt", "pdf", "pptx", "rtf", "txt", "xlsx", "zip"]

# Headless API
WAGTAILAPI_BASE_URL = os.environ.get("WAGTAILAPI_BASE_URL", WAGTAILADMIN_BASE_URL)
WAGTAILAPI_LIMIT_MAX = 100
WAGTAILAPI_SEARCH_ENABLED = env_bool("API_SEARCH_ENABLED", True)
# Browsers revalidate every API response; shared caches (a CDN) keep it this long, purged on
# change (cms/api/http.py, cms/apicache/stale.py).
API_SHARED_CACHE_SECONDS = int(os.environ.get("API_SHARED_CACHE_SECONDS", "300"))
API_STALE_WHILE_REVALIDATE_SECONDS = int(os.environ.get("API_STALE_WHILE_REVALIDATE_SECONDS", "60"))
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS")
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_METHODS = ["GET", "HEAD", "OPTIONS"]
# A front end revalidates with the ETag (If-None-Match) and may log the request id.
CORS_ALLOW_HEADERS = (*cors_default_headers, "if-none-match")
CORS_EXPOSE_HEADERS = ["ETag", "X-Request-ID"]

# DRF's default authenticators add Basic authentication, which the API never needs: a password
# in each request is one more place to guess it, outside the login form and its lockout. The
# signed-in session stays (it lets a reader see the login-restricted pages; the admin's API and
# wagtail-localize's use it); the preview authorises by its signed token.
REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
}

# Background work: with REDIS_URL unset, tasks run in-process and nothing else is needed.
REDIS_URL = os.environ.get("REDIS_URL", "")

# Translation (cms.translation): "Translate this page" makes a zh-hant draft, never a live page;
# a translator publishes it (cms/translation/policy/rules.py decides who may).
WAGTAILLOCALIZE_SYNC_LIVE_STATUS_ON_TRANSLATE = False
# Translation (cms.translation): DeepL asked for Traditional Chinese when DEEPL_AUTH_KEY is set.
# "Translate with ..." fills segments from the translation memory first (cms.terminology), then,
# with a key, from DeepL; DEEPL_GLOSSARY_ID names a DeepL glossary made from ours (EN -> ZH).
DEEPL_AUTH_KEY = os.environ.get("DEEPL_AUTH_KEY", "")
DEEPL_GLOSSARY_ID = os.environ.get("DEEPL_GLOSSARY_ID", "")
WAGTAILLOCALIZE_MACHINE_TRANSLATOR = {"CLASS": "cms.terminology.translator.MemoryFirstTranslator"}
if DEEPL_AUTH_KEY:
    WAGTAILLOCALIZE_MACHINE_TRANSLATOR["OPTIONS"] = {
        "MACHINE": {
            "CLASS": "cms.translation.machine.translators.TraditionalChineseDeepLTranslator",
            "OPTIONS": {
                "AUTH_KEY": DEEPL_AUTH_KEY,
                **(
                    {"GLOSSARY_IDS": {("EN", "ZH"): DEEPL_GLOSSARY_ID}} if DEEPL_GLOSSARY_ID else {}
                ),
            },
        }
    }
TRANSLATION_MEMORY_FUZZY_THRESHOLD = float(
    os.environ.get("TRANSLATION_MEMORY_FUZZY_THRESHOLD", "75")
)

# The cache must be shared by every web process: the API response cache and its content
# version live there (cms/apicache). Redis when configured, else files under var/.
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": VAR_DIR / "cache",
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    )
}
API_RESPONSE_CACHE_PREFIX = "/api/"
API_RESPONSE_CACHE_SECONDS = int(os.environ.get("API_RESPONSE_CACHE_SECONDS", "600"))

# Headless preview: the admin's preview opens the reader's /preview/ route (same origin, so a
# root-relative URL works on any host); a separate front end sets PREVIEW_CLIENT_URL.
WAGTAIL_HEADLESS_PREVIEW = {
    "CLIENT_URLS": {"default": os.environ.get("PREVIEW_CLIENT_URL", "/preview/")},
    "ENFORCE_TRAILING_SLASH": True,
}
# Preview links are signed; older than this many seconds they stop working.
PREVIEW_TOKEN_MAX_AGE = int(os.environ.get("PREVIEW_TOKEN_MAX_AGE", "3600"))

# `import_digests` refuses a larger file before reading it (the shipped seed is about 50 KB).
IMPORT_MAX_BYTES = int(os.environ.get("IMPORT_MAX_BYTES", str(5 * 1024 * 1024)))
# The translation editor's "Upload PO file" refuses a larger file (cms.translation.views.po_upload);
# a digest's PO file is a few KB.
PO_UPLOAD_MAX_BYTES = int(os.environ.get("PO_UPLOAD_MAX_BYTES", str(1024 * 1024)))

# Operations: API limits, request ids, Content-Security-Policy, CDN purging.
# The anonymous API rate limit counts in the default cache (Redis with REDIS_URL, shared by every
# web process) and is enforced by cms.ops.throttling.APIRateLimitMiddleware, ahead of the API
# response cache, so cached answers count too.
# The feeds and the sitemap are limited per client address too, at the API's rate unless
# FEED_THROTTLE_RATE says otherwise; password reset requests per client address and per e-mail
# address asked for (cms.ops.throttling.rate_limited).
API_THROTTLE_ANON_RATE = os.environ.get("API_THROTTLE_ANON_RATE", "300/minute") or None
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {
    "anon": API_THROTTLE_ANON_RATE,
    "feeds": os.environ.get("FEED_THROTTLE_RATE", API_THROTTLE_ANON_RATE or "") or None,
    "password_reset_address": os.environ.get("PASSWORD_RESET_ADDRESS_RATE", "20/hour") or None,
    "password_reset_account": os.environ.get("PASSWORD_RESET_ACCOUNT_RATE", "3/hour") or None,
}
# Reverse proxies in front of the web process (cms/ops/client_address.py): the client is the
# address the outermost of TRUSTED_PROXY_COUNT proxies saw, walking X-Forwarded-For back only
# through peers in TRUSTED_PROXY_ADDRESSES (gunicorn's FORWARDED_ALLOW_IPS, the same list).
# One rule for the API rate limit and the login lockout; NUM_PROXIES is the older name.
TRUSTED_PROXY_COUNT = int(
    os.environ.get("TRUSTED_PROXY_COUNT", os.environ.get("NUM_PROXIES", "0")) or "0"
)
TRUSTED_PROXY_ADDRESSES = env_list("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
REST_FRAMEWORK["NUM_PROXIES"] = TRUSTED_PROXY_COUNT

# Login brute-force protection (django-axes): AXES_FAILURE_LIMIT failed logins lock out that
# user name from that client address, and AXES_ADDRESS_FAILURE_LIMIT (higher) failed logins lock
# out the address for any user name, for AXES_COOLOFF_HOURS (cms/ops/login_lockout.py).
# Admins see and lift lockouts under Settings > Login lockouts (cms/ops/lockouts.py), or run
# `manage.py axes_reset_username NAME` / `axes_reset_ip ADDRESS` / `axes_reset`.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_HOURS", "1"))
AXES_ADDRESS_FAILURE_LIMIT = max(
    int(os.environ.get("AXES_ADDRESS_FAILURE_LIMIT", "50")), AXES_FAILURE_LIMIT
)
AXES_LOCKOUT_PARAMETERS = "cms.ops.login_lockout.lockout_parameters"
# A successful login does not clear the failures: with it, one valid account would let its
# holder reset the count of the address it shares with the user name being guessed.
AXES_RESET_ON_SUCCESS = False
AXES_CLIENT_IP_CALLABLE = "cms.ops.client_address.client_address"
AXES_ENABLE_ADMIN = False  # no Django admin here; the Wagtail admin shows the lockouts

# A request id per request (X-Request-ID, taken from the proxy when it sends one), carried into
# the Celery tasks the request enqueues.
DJANGO_GUID = {
    "GUID_HEADER_NAME": "X-Request-ID",
    "EXPOSE_HEADER": False,  # CORS_EXPOSE_HEADERS does, for the allowed origins
    "INTEGRATIONS": [CeleryIntegration()],
}

# Same origin only, no inline code: the reader, the API and everything outside the admin.
# frame-ancestors 'self' lets the admin's preview panel frame the reader.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
    }
}
# The admin's CSP allows no request to other hosts, so Wagtail's check for a new release
# (from the superuser's browser, to releases.wagtail.org) could only fail in the console.
WAGTAIL_ENABLE_UPDATE_CHECK = False
ADMIN_URL_PREFIXES = ["/admin/"]
ADMIN_CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "base-uri": ["'self'"],
        "connect-src": ["'self'"],
        "font-src": ["'self'", "data:"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'self'"],
        "frame-src": ["'self'"],
        "img-src": ["'self'", "data:", "blob:"],
        "object-src": ["'none'"],
        "script-src": ["'self'", "'unsafe-inline'", "'unsafe-eval'"],
        "style-src": ["'self'", "'unsafe-inline'"],
    }
}
WAGTAIL_GRAVATAR_PROVIDER_URL = None  # no third-party avatar requests from the admin

# CDN in front of the API: purged after every write of cms/apicache/stale.py.
if os.environ.get("FRONTEND_CACHE_PURGE_URL"):
    WAGTAILFRONTENDCACHE = {
        "default": {
            "BACKEND": "wagtail.contrib.frontend_cache.backends.HTTPBackend",
            "LOCATION": os.environ["FRONTEND_CACHE_PURGE_URL"],
        }
    }
WAGTAILFRONTENDCACHE_LANGUAGES = []  # API URLs carry the locale in the query, not the path
API_CACHE_PURGE_LIST_QUERIES = [
    "",
    "locale={locale}",
    "type=digests.DigestPage&fields=*&locale={locale}",
    "type=digests.TopicPage&fields=*&locale={locale}",
]

# Sync worker (sync/): bibliographic sources, politeness and schedule; see README "Sync worker".
SYNC_CONTACT_EMAIL = os.environ.get("SYNC_CONTACT_EMAIL", "")
# Translators are emailed when an English page waits for them
# (cms/translation/workflow/notifications.py); without a worker the email leaves in-process after
# the commit, so a slow server must time out.
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
TRANSLATION_NOTICE_INTERVAL = int(os.environ.get("TRANSLATION_NOTICE_INTERVAL", "3600"))
SYNC_SOURCES = {
    "dblp": {
        "CLASS": "sync.sources.dblp.DblpSource",
        "OPTIONS": {"base_url": os.environ.get("DBLP_API_URL", "https://dblp.org")},
    },
    "crossref": {
        "CLASS": "sync.sources.crossref.CrossrefSource",
        "OPTIONS": {"base_url": os.environ.get("CROSSREF_API_URL", "https://api.crossref.org")},
    },
    "openalex": {
        "CLASS": "sync.sources.openalex.OpenAlexSource",
        "OPTIONS": {
            "base_url": os.environ.get("OPENALEX_API_URL", "https://api.openalex.org"),
            "api_key": os.environ.get("OPENALEX_API_KEY", ""),
        },
    },
    "semanticscholar": {
        "CLASS": "sync.sources.semanticscholar.SemanticScholarSource",
        "OPTIONS": {
            "base_url": os.environ.get(
                "SEMANTIC_SCHOLAR_API_URL", "https://api.semanticscholar.org"
            ),
            "api_key": os.environ.get("SEMANTIC_SCHOLAR_API_KEY", ""),
        },
    },
}
# Requests per source, shared by every worker process (Redis-backed when REDIS_URL is set).
SYNC_RATE_LIMITS = os.environ.get(
    "SYNC_RATE_LIMITS", "crossref=5/s,openalex=10/s,dblp=1/s,semanticscholar=1/s"
)
SYNC_ALL_CRONTAB = os.environ.get("SYNC_ALL_CRONTAB", "17 3 * * *")  # daily, 03:17 UTC
# How fast a sync heals after a worker or Redis dies (sync/owed.py; seconds). Set here only:
# sync/conf.py has no defaults for them. A worker leases the papers it syncs this long and
# renews the lease every third of it; a paper whose lease ran out is owed again.
SYNC_LEASE_SECONDS = float(os.environ.get("SYNC_LEASE_SECONDS", "60"))
# Papers handed out to the queue are leased this long: not handed out again meanwhile.
SYNC_QUEUED_LEASE = float(os.environ.get("SYNC_QUEUED_LEASE", "300"))
# Between beat's rounds of handing out owed papers.
SYNC_RECOVER_INTERVAL = float(os.environ.get("SYNC_RECOVER_INTERVAL", "30"))
# A running run no worker touched this long is failed.
SYNC_STALE_RUN_AFTER = int(os.environ.get("SYNC_STALE_RUN_AFTER", "300"))
# A shared listing's lock lives this long; its holder renews it while it fetches.
SYNC_LOCK_TTL = float(os.environ.get("SYNC_LOCK_TTL", "15"))

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL  # no broker: the same tasks run in-process
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("SYNC_QUEUE", "sync")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("SYNC_VISIBILITY_TIMEOUT", "3600"))
}
CELERY_RESULT_EXPIRES = 24 * 3600

# Webhooks (cms/webhooks/): signed events for front ends; README "Webhooks".
# Seconds to connect and between bytes of the answer; an attempt holds its delivery for
# 2 * WEBHOOK_TIMEOUT + WEBHOOK_LEASE_MARGIN seconds (a killed worker's delivery is free after).
WEBHOOK_TIMEOUT = float(os.environ.get("WEBHOOK_TIMEOUT", "5"))
WEBHOOK_LEASE_MARGIN = float(os.environ.get("WEBHOOK_LEASE_MARGIN", "10"))
# Seconds before each retry (8 attempts over about 28 hours), longer when Retry-After says so,
# up to WEBHOOK_RETRY_AFTER_MAX.
WEBHOOK_RETRY_DELAYS = [
    float(delay) for delay in env_list("WEBHOOK_RETRY_DELAYS", "5,300,1800,7200,18000,36000,36000")
]
WEBHOOK_RETRY_AFTER_MAX = float(os.environ.get("WEBHOOK_RETRY_AFTER_MAX", str(24 * 3600)))
WEBHOOK_ETA_MAX = float(os.environ.get("WEBHOOK_ETA_MAX", "300"))  # sooner: broker countdown
WEBHOOK_SWEEP_INTERVAL = float(os.environ.get("WEBHOOK_SWEEP_INTERVAL", "60"))
WEBHOOK_SWEEP_GRACE = float(os.environ.get("WEBHOOK_SWEEP_GRACE", "60"))
WEBHOOK_DISABLE_AFTER_FAILURES = int(os.environ.get("WEBHOOK_DISABLE_AFTER_FAILURES", "5"))
WEBHOOK_SECRET_ROTATION_HOURS = float(os.environ.get("WEBHOOK_SECRET_ROTATION_HOURS", "24"))
# Private, loopback and link-local receivers: allowed here (local front ends), off in production.
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = env_bool("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", True)
WEBHOOK_USER_AGENT = "research-digests-webhooks/1"
# Seconds the dashboard's webhooks panel keeps its counts (0: count on every visit).
WEBHOOK_DASHBOARD_SECONDS = int(os.environ.get("WEBHOOK_DASHBOARD_SECONDS", "60"))
# CA certificates that HTTPS receivers are verified against; empty: certifi's (as requests).
WEBHOOK_CA_BUNDLE = os.environ.get("WEBHOOK_CA_BUNDLE", "")

# Celery beat's periodic tasks (run exactly one beat: `celery -A cms beat`).
CELERY_BEAT_SCHEDULE = {
    "sync all papers": {
        "task": "sync.tasks.sync_all",
        # minute hour day-of-month month day-of-week, separated by any whitespace
        "schedule": crontab.from_string(" ".join(SYNC_ALL_CRONTAB.split())),
    },
    "retry papers due again": {"task": "sync.tasks.sync_due", "schedule": 15 * 60},
    "hand out owed papers again": {
        "task": "sync.tasks.sync_owed",
        "schedule": SYNC_RECOVER_INTERVAL,
    },
    "deliver webhooks due": {
        "task": "cms.webhooks.tasks.deliver_due",
        "schedule": WEBHOOK_SWEEP_INTERVAL,
    },
}
