"""One settings module, driven by the environment (see .env.example).

Production is the default: DEBUG is off unless set, and without DEBUG a SECRET_KEY is required.
`make run` and the test suite set development values explicitly. Settings that take more than a
few lines to build come from functions in readinglist/settings_parts/, one concern a module; every
setting is still assigned here, by name, and only this module names the apps.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from readinglist.settings_parts.caches import caches, tasks
from readinglist.settings_parts.database import databases
from readinglist.settings_parts.logs import logging_config
from readinglist.settings_parts.mail import mailers
from readinglist.settings_parts.oidc import provider_origins, socialaccount_providers
from readinglist.settings_parts.reporting import start_error_reporting

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# Local overrides from a .env file (variables already set win). ENV_FILE names another file, and
# an empty ENV_FILE reads none: the test run sets it (pyproject's pytest env), so a developer's
# .env never changes what the tests, or the processes they start, run against.
ENV_FILE = env.str("ENV_FILE", default=str(BASE_DIR / ".env"))
if ENV_FILE:
    environ.Env.read_env(ENV_FILE, overwrite=False)

DEBUG = env.bool("DEBUG", default=False)

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
INTERNAL_IPS = ["127.0.0.1"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django.contrib.humanize",
    "django.contrib.syndication",
    "django.contrib.sites",
    "django.contrib.sitemaps",
    "django_htmx",
    # Request, response, database and cache metrics for Prometheus (served at /metrics).
    "django_prometheus",
    # The database task backend's queue table (TASKS below); installed whichever backend runs.
    "django_tasks_db",
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.openid_connect",
    "accounts",
    "catalog",
    "search",
    "proposals",
    "library",
    "notes",
    "teams",
    # Team threads on sources, replies, mentions, notifications and the session's questions.
    "discussions",
    # A team's own sources: private catalog rows, uploaded files, the team's search.
    "teamsources",
    "candidates",
    # Readers' and teams' own ordered paths, their forks, follows and progress.
    "paths",
    # The operator's tools: backup, restore, the schedule runner, maintainer creation.
    "operations",
    # The site's pages, which combine every app above (home, source, topic, tier, list, search).
    "pages",
    # Per-reader rate limits counted in the database (readinglist/ratelimits).
    "readinglist.ratelimits",
    "bench",
]

MIDDLEWARE = [
    # Outermost: Prometheus counts and times every request, the cached and the refused included.
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    # First: it times and logs every request, including redirects made by the ones below.
    "readinglist.observability.RequestLogMiddleware",
    # Before host validation and the HTTPS redirect: probes come by IP over plain HTTP.
    "readinglist.health.ProbeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "readinglist.middleware.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Times on every page in the signed-in reader's own zone (one clock everywhere).
    "accounts.time_zones.ReaderTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "readinglist.middleware.DatabaseUnavailableMiddleware",
    # Last: it needs the user, messages, CSRF token and CSP nonce the others set up. It serves
    # anonymous visitors' shared pages and signed-in readers' own pages (docs/caching.md).
    "readinglist.pagecache.middleware.PageCacheMiddleware",
    # Innermost: responses by view and status, for the requests that reached a view.
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "readinglist.urls"
WSGI_APPLICATION = "readinglist.wsgi.application"
ASGI_APPLICATION = "readinglist.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # The project's own tags, for every app's templates: links reversed once per process.
            "libraries": {"site_urls": "readinglist.templatetags.site_urls"},
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                # After csrf and csp: placeholders for them in pages rendered for the cache.
                "readinglist.pagecache.splice.placeholders",
            ],
        },
    },
]

# SQLite by default, PostgreSQL (pooled, with short timeouts) from DATABASE_URL.
DATABASES = databases(env, BASE_DIR)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# `default` (never evicted: sessions, rate limits, page cache versions) and `pages` (evictable),
# in database tables, Redis (REDIS_URL) or, in development, process memory.
CACHES = caches(env, DEBUG)
# Background tasks (django.tasks): a database queue for `manage.py db_worker` in production,
# run at once in the enqueuing process in development and tests (TASKS_BACKEND).
TASKS = tasks(env, DEBUG)

SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
# With Redis, sessions read the same keys through a client that fails open (readinglist/cache.py):
# while Redis is down a session is read from and written to the database alone.
SESSION_CACHE_ALIAS = "sessions" if "sessions" in CACHES else "default"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
# Argon2 first (accounts/hashers.py says why its cost): the hashers after it still verify older
# passwords, and Django rehashes those with Argon2 on the next successful login.
PASSWORD_HASHERS = [
    "accounts.hashers.Argon2idPasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"
SITE_ID = 1
# The site's public address and name, for what is read away from a request: links in emails
# (allauth's, proposal decisions) and in the sitemap. The sites framework's record is rewritten
# to these after every migrate (operations/site_record.py), so it is never django's example.com.
_NAMED_HOSTS = [host.lstrip(".") for host in ALLOWED_HOSTS if "*" not in host]
SITE_DOMAIN = env.str(
    "SITE_DOMAIN",
    default="localhost:8000" if DEBUG else (_NAMED_HOSTS[0] if _NAMED_HOSTS else "localhost"),
)
SITE_NAME = env.str("SITE_NAME", default="readinglist")
# The scheme readers reach the site by, for the same links (readinglist/site_address.py):
# production serves HTTPS; `make run` and the local production recipe over plain HTTP set http.
SITE_SCHEME = env.str("SITE_SCHEME", default="http" if DEBUG else "https").lower()
if SITE_SCHEME not in {"http", "https"}:
    raise ImproperlyConfigured("SITE_SCHEME must be http or https.")

ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="optional")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
# allauth's emailed links (sign-up confirmation, password reset): the site's own scheme.
ACCOUNT_DEFAULT_HTTP_PROTOCOL = SITE_SCHEME
# Who may sign up: open (anyone), invitation (only with a team invitation) or domains (addresses
# at ACCOUNT_SIGNUP_ALLOWED_DOMAINS, verified). Without ACCOUNT_SIGNUP_MODE, deployments that set
# ACCOUNT_ALLOW_SIGNUP=false get invitation only: closed except to those a team invites.
ACCOUNT_ALLOW_SIGNUP = env.bool("ACCOUNT_ALLOW_SIGNUP", default=True)
ACCOUNT_SIGNUP_MODE = env.str(
    "ACCOUNT_SIGNUP_MODE", default="open" if ACCOUNT_ALLOW_SIGNUP else "invitation"
)
if ACCOUNT_SIGNUP_MODE not in {"open", "invitation", "domains"}:
    raise ImproperlyConfigured("ACCOUNT_SIGNUP_MODE must be open, invitation or domains.")
ACCOUNT_SIGNUP_ALLOWED_DOMAINS = env.list("ACCOUNT_SIGNUP_ALLOWED_DOMAINS", default=[])
if ACCOUNT_SIGNUP_MODE == "domains":
    if not ACCOUNT_SIGNUP_ALLOWED_DOMAINS:
        raise ImproperlyConfigured(
            "ACCOUNT_SIGNUP_MODE=domains needs ACCOUNT_SIGNUP_ALLOWED_DOMAINS."
        )
    # A domain proves nothing until the reader shows they receive mail there.
    ACCOUNT_EMAIL_VERIFICATION = "mandatory"

# Sign-in with the organisation's OpenID Connect providers, listed in OIDC_PROVIDERS (ids);
# each id's OIDC_<ID>_NAME, _ISSUER, _CLIENT_ID and _SECRET describe it.
SOCIALACCOUNT_ADAPTER = "accounts.adapters.SocialAccountAdapter"
SOCIALACCOUNT_EMAIL_AUTHENTICATION = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT = True
SOCIALACCOUNT_QUERY_EMAIL = True
SOCIALACCOUNT_STORE_TOKENS = False
SOCIALACCOUNT_PROVIDERS = socialaccount_providers(env)
OIDC_ORIGINS = provider_origins(SOCIALACCOUNT_PROVIDERS)

# Teams: who may create them (anyone | maintainers), invitation limits and session reminders.
TEAMS_CREATE = env.str("TEAMS_CREATE", default="anyone")
if TEAMS_CREATE not in {"anyone", "maintainers"}:
    raise ImproperlyConfigured("TEAMS_CREATE must be anyone or maintainers.")
TEAMS_INVITES_PER_HOUR = env.int("TEAMS_INVITES_PER_HOUR", default=20)
TEAMS_INVITATION_DAYS = env.int("TEAMS_INVITATION_DAYS", default=7)
TEAMS_REMINDER_DAYS = env.int("TEAMS_REMINDER_DAYS", default=1)

DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="readinglist <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Django 6.1 mailers: console in development, SMTP (EMAIL_URL) in production, lines never broken.
MAILERS = mailers(env, DEBUG)

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default="") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Teams' uploaded files; no URL serves this folder (downloads pass teamsources' team check).
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default="") or BASE_DIR / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Content-Security-Policy: no inline scripts or styles anywhere; htmx is loaded with a nonce.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    # Signing in with an identity provider posts a form that redirects to it.
    "form-action": [CSP.SELF, *OIDC_ORIGINS],
    "frame-ancestors": [CSP.NONE],
}

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
if not DEBUG:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # SECURE_COOKIES=false is for development only: production settings served over plain HTTP
    # on loopback, where a browser would not send Secure cookies back. `check --deploy` still
    # warns (security.W012, W016) whenever it is used.
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
if env.bool("SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Load balancers probe over plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]

# One JSON object per line on stdout in production, readable text in development.
LOGGING = logging_config(env, DEBUG)

# Whole-page cache (readinglist/pagecache): on unless CATALOG_PAGE_CACHE=false, and the bytes of
# pages each process keeps in its own memory (0 turns that layer off; a page is 20-150 kB).
CATALOG_PAGE_CACHE = env.bool("CATALOG_PAGE_CACHE", default=True)
CATALOG_PAGE_MEMORY_BYTES = env.int("CATALOG_PAGE_MEMORY_BYTES", default=32 * 1024 * 1024)

# Catalog settings.
CATALOG_PAGE_SIZE = 25
# A team's own sources: the largest upload, and how much of it the team's search reads.
TEAM_SOURCE_MAX_BYTES = env.int("TEAM_SOURCE_MAX_BYTES", default=20 * 1024 * 1024)
TEAM_SOURCE_MAX_PAGES = env.int("TEAM_SOURCE_MAX_PAGES", default=500)
TEAM_SOURCE_MAX_TEXT = env.int("TEAM_SOURCE_MAX_TEXT", default=2_000_000)
FRONTIER_STALE_AFTER_DAYS = env.int("FRONTIER_STALE_AFTER_DAYS", default=120)

# Proposals: abuse limits per reader.
PROPOSALS_MAX_PENDING = env.int("PROPOSALS_MAX_PENDING", default=10)
PROPOSALS_MAX_PER_DAY = env.int("PROPOSALS_MAX_PER_DAY", default=20)
# New notes per account per hour (notes/services.py): team notes reach every member.
NOTES_MAX_PER_HOUR = env.int("NOTES_MAX_PER_HOUR", default=60)
# Threads and replies one reader may post in an hour, across all their teams.
DISCUSSIONS_POSTS_PER_HOUR = env.int("DISCUSSIONS_POSTS_PER_HOUR", default=60)
# Of those, the posts that mention someone (each mention notifies a teammate).
DISCUSSIONS_MENTIONING_POSTS_PER_HOUR = env.int("DISCUSSIONS_MENTIONING_POSTS_PER_HOUR", default=30)

# The hour of a reader's own day (in their time zone) from which their digest is due: mail read
# over breakfast, not at the server's midnight. send_digests runs hourly to honour it.
DIGEST_SEND_HOUR = env.int("DIGEST_SEND_HOUR", default=7)
if not 0 <= DIGEST_SEND_HOUR <= 23:
    raise ImproperlyConfigured("DIGEST_SEND_HOUR must be an hour from 0 to 23.")

# Link health (check_links). Hosts that answer robots with 403/429 are "blocked", never "dead".
LINKCHECK_BLOCKING_HOSTS = env.list(
    "LINKCHECK_BLOCKING_HOSTS",
    default=[
        "openai.com",
        "medium.com",
        "semianalysis.com",
        "dl.acm.org",
        "ieeexplore.ieee.org",
        "x.com",
        "twitter.com",
        "linkedin.com",
        "reddit.com",
    ],
)
# Where `manage.py backup` writes when not given --output: the working folder by default; the
# image's is read-only, so the compose stack sets a volume's path.
BACKUP_DIR = env.str("BACKUP_DIR", default=".")

LINKCHECK_CONTACT_URL = env.str(
    "LINKCHECK_CONTACT_URL", default="https://github.com/readinglist/readinglist"
)
LINKCHECK_WARN_AFTER_DAYS = env.int("LINKCHECK_WARN_AFTER_DAYS", default=7)

# Proposals fill title, authors, year and venue from an identifier. Where the APIs live (tests
# point them at a loopback fixture server), how long answers are kept, and which hosts may
# resolve to private addresses (none in production: the fetcher refuses them, against SSRF).
ARXIV_API_URL = env.str("ARXIV_API_URL", default="https://export.arxiv.org/api/query")
CROSSREF_API_URL = env.str("CROSSREF_API_URL", default="https://api.crossref.org/works")
GITHUB_API_URL = env.str("GITHUB_API_URL", default="https://api.github.com")
METADATA_CACHE_SECONDS = env.int("METADATA_CACHE_SECONDS", default=24 * 60 * 60)
METADATA_ALLOWED_HOSTS = env.list("METADATA_ALLOWED_HOSTS", default=[])

# Every outbound request (readinglist/http.py): the whole exchange's deadline, the most of a body
# read, how many run at once in one process (more are refused at once, never queued behind a
# slow server), and the evictable cache alias that keeps small answers for callers who ask.
OUTBOUND_DEADLINE_SECONDS = env.float("OUTBOUND_DEADLINE_SECONDS", default=8.0)
OUTBOUND_MAX_BYTES = env.int("OUTBOUND_MAX_BYTES", default=2_000_000)
OUTBOUND_MAX_CONCURRENT = env.int("OUTBOUND_MAX_CONCURRENT", default=4)
OUTBOUND_CACHE_ALIAS = "pages"
# Per-reader limits on what makes the site fetch or parse for a reader: "Fill from link" on the
# proposal form, and library imports (BibTeX, RIS, CSL-JSON). Counted in the database.
PROPOSALS_FILLS_PER_HOUR = env.int("PROPOSALS_FILLS_PER_HOUR", default=30)
LIBRARY_IMPORTS_PER_HOUR = env.int("LIBRARY_IMPORTS_PER_HOUR", default=10)
# The curator's inbox (candidates/): what `collect_candidates` reads, and the relevance cut
# below which candidates are kept but hidden (docs/candidates.md measures it).
CANDIDATES_ARXIV_CATEGORIES = env.list(
    "CANDIDATES_ARXIV_CATEGORIES", default=["cs.DC", "cs.AR", "cs.PF"]
)
CANDIDATES_ARXIV_NARROWED_CATEGORIES = env.list(
    "CANDIDATES_ARXIV_NARROWED_CATEGORIES", default=["cs.LG", "cs.CL"]
)
CANDIDATES_ARXIV_QUERY = env.str("CANDIDATES_ARXIV_QUERY", default="")
CANDIDATES_ARXIV_DELAY = env.float("CANDIDATES_ARXIV_DELAY", default=3.0)
CANDIDATES_GITHUB_URL = env.str("CANDIDATES_GITHUB_URL", default="https://github.com")
CANDIDATES_FEEDS = env.list("CANDIDATES_FEEDS", default=[])
CANDIDATES_RELEVANCE_CUT = env.float("CANDIDATES_RELEVANCE_CUT", default=0.12)
# New candidates one feed may add in one run; the rest wait for later runs (the daily email
# lists 30, so a hundred is more than a morning's triage, yet no feed can flood the inbox).
CANDIDATES_MAX_NEW_PER_FEED = env.int("CANDIDATES_MAX_NEW_PER_FEED", default=100)

# Operations: Prometheus scrapes /metrics with this bearer token (none set: the endpoint is 404);
# errors go to Sentry when SENTRY_DSN is set (docs/operations.md, "Metrics and error reporting").
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
ERROR_REPORTING = start_error_reporting(
    env.str("SENTRY_DSN", default=""),
    environment=env.str("SENTRY_ENVIRONMENT", default="production"),
    traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
)
