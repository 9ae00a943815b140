"""Smoke test of the production configuration on this machine, without containers.

`make smoke` (`python -m deploy.smoke` from the repository root) runs `cms.settings.production`
with a fresh secret key against a throwaway PostgreSQL database and a Redis db of its own:
check --deploy, migrate, collectstatic, compilemessages, the seed in both languages and the
translation roles; then gunicorn (deploy/gunicorn.conf.py), one Celery worker and exactly one
beat. Requests go in as the TLS-terminating proxy sends them. It publishes a change as an editor,
runs a sync through the worker against the recorded upstream responses (tests/fixtures/, served
by the stand-in in tests/standin/) and checks that the API, cached in Redis, shows both. Whatever
happens, it stops everything it started, drops the database and empties its Redis db.

Modules: `runner` (one line per step, failures), `services` (the long-running processes),
`deployment` (database, Redis, environment, bring-up and clean-up), `proxy` (HTTP as the proxy
forwards it), `checks` (what must hold over HTTP), `site_actions` (an editor's and an operator's
actions, run inside the deployment's own environment).
"""
