"""What must hold once the deployment is up, seen over HTTP as a proxied client sees it."""

from __future__ import annotations

import json
import re
from datetime import datetime

from tests.standin import SOURCES

from .deployment import Deployment
from .proxy import PUBLIC_ORIGIN, ProxyClient
from .runner import Step, StepFailed
from .services import ROOT

SEED = ROOT / "cms" / "seed" / "digests.json"
# The digest whose title is changed and whose paper the recorded answers describe
# (tests/fixtures/dblp/toc_sigcomm2025.json, crossref/works_sigcomm.json).
DIGEST = "ByteScale"
SYNCED_AUTHORS = ["Hao Ge", "Junda Feng", "Qi Huang", "Xin Liu"]
SYNCED_DOI = "10.1145/3718958.3750471"
PAPERS_IN_RECORDINGS = 5  # ByteScale, Falcon, Crux, Swing, Acme
TASK_ID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.M)


class Checks:
    def __init__(self, deployment: Deployment) -> None:
        self.deployment = deployment
        self.client = ProxyClient(deployment.base_url)
        self.editor = f"editor-{deployment.run_id}"
        self.ids: dict[str, int] = {}  # the digest in en and zh-hant, and its paper

    def steps(self) -> list[Step]:
        return [
            ("HTTPS redirect, host check and security headers", self.https_and_hosts),
            ("static files: hashed and served by whitenoise", self.static_files),
            ("an editor signs in to the admin through the proxy", self.admin_sign_in),
            ("the API serves the seed in both languages", self.seed_in_api),
            ("publish a change as an editor; the cached API shows it", self.publish),
            ("sync through the worker; the API shows the synced paper", self.sync),
            ("gunicorn, the worker and beat are still up", self.deployment.check_still_running),
        ]

    def https_and_hosts(self) -> str:
        plain = self.client.request("GET", "/api/v2/pages/", https=False)
        location = plain.headers.get("Location")
        if plain.status_code != 301 or location != f"{PUBLIC_ORIGIN}/api/v2/pages/":
            raise StepFailed(f"plain HTTP: {plain.status_code} to {location}, want 301 to HTTPS")
        foreign = self.client.request("GET", "/api/v2/pages/", headers={"Host": "evil.example"})
        if foreign.status_code != 400:
            raise StepFailed(f"a Host not in ALLOWED_HOSTS got {foreign.status_code}, want 400")
        secure = self.client.request("GET", "/api/v2/pages/")
        wanted = {
            "Strict-Transport-Security": "max-age=31536000; includeSubDomains; preload",
            "X-Content-Type-Options": "nosniff",
        }
        for name, value in wanted.items():
            if secure.headers.get(name) != value:
                raise StepFailed(f"{name}: {secure.headers.get(name)!r}, want {value!r}")
        for name in ("Content-Security-Policy", "X-Request-ID"):
            if not secure.headers.get(name):
                raise StepFailed(f"no {name} header on {secure.url}")
        return "http -> 301 https, foreign Host -> 400, HSTS + CSP + X-Request-ID"

    def static_files(self) -> str:
        login = self.client.request("GET", "/admin/login/")
        match = re.search(r"/static/wagtailadmin/css/core\.[0-9a-f]{12}\.css", login.text)
        if login.status_code != 200 or match is None:
            raise StepFailed(f"/admin/login/ ({login.status_code}) links no hashed core.css")
        css = self.client.request("GET", match.group(0), headers={"Accept-Encoding": "gzip"})
        if css.status_code != 200 or "immutable" not in css.headers.get("Cache-Control", ""):
            raise StepFailed(f"{match.group(0)}: {css.status_code} {css.headers}")
        return f"{match.group(0)} ({css.headers.get('Content-Encoding', 'identity')})"

    def admin_sign_in(self) -> str:
        self.deployment.site_action("create-editor", self.editor)
        self.client.request("GET", "/admin/login/")
        if "csrftoken" not in self.client.cookies:
            raise StepFailed("the login page set no CSRF cookie")
        signed_in = self.client.request(
            "POST",
            "/admin/login/",
            data={
                "username": self.editor,
                "password": self.deployment.editor_password,
                "csrfmiddlewaretoken": self.client.cookies["csrftoken"],
            },
            headers={"Origin": PUBLIC_ORIGIN, "Referer": f"{PUBLIC_ORIGIN}/admin/login/"},
        )
        if signed_in.status_code != 302 or signed_in.headers.get("Location") != "/admin/":
            raise StepFailed(f"login POST: {signed_in.status_code}, {signed_in.text[:300]}")
        session = self.client.set_cookies.get("sessionid", "")
        if "Secure" not in session or "HttpOnly" not in session:
            raise StepFailed(f"session cookie not Secure and HttpOnly: {session!r}")
        dashboard = self.client.request("GET", "/admin/")
        if dashboard.status_code != 200 or self.editor not in dashboard.text:
            raise StepFailed(f"/admin/ after signing in: {dashboard.status_code}")
        return f"{self.editor} (Editors): dashboard 200, session cookie Secure; HttpOnly"

    def seed_in_api(self) -> str:
        seed = json.loads(SEED.read_text(encoding="utf-8"))
        digests = sum(len(topic["digests"]) for topic in seed["topics"])
        for locale in ("en", "zh-hant"):
            listing = self.client.get_json(
                f"/api/v2/pages/?type=digests.DigestPage&locale={locale}&limit=1"
            )
            if listing["meta"]["total_count"] != digests:
                raise StepFailed(
                    f"{locale}: {listing['meta']['total_count']} digests, the seed has {digests}"
                )
        found = self.client.get_json(
            f"/api/v2/pages/?type=digests.DigestPage&locale=en&short_name={DIGEST}&fields=paper"
        )["items"]
        if len(found) != 1:
            raise StepFailed(f"{len(found)} English digests named {DIGEST}")
        self.ids["en"], self.ids["paper"] = found[0]["id"], found[0]["paper"]["id"]
        translation = self.client.get_json(
            f"/api/v2/pages/?translation_of={self.ids['en']}&locale=zh-hant"
        )["items"]
        if len(translation) != 1:
            raise StepFailed(f"{DIGEST} has {len(translation)} zh-hant translations")
        self.ids["zh"] = translation[0]["id"]
        return f"{digests} digests in en and in zh-hant"

    def _cached_api_responses(self) -> int:
        return sum(1 for _key in self.deployment.redis.scan_iter(match="*api-response*"))

    def publish(self) -> str:
        en, zh = f"/api/v2/pages/{self.ids['en']}/", f"/api/v2/pages/{self.ids['zh']}/"
        listing = f"/api/v2/pages/?type=digests.DigestPage&locale=en&short_name={DIGEST}"
        before = self.client.get_json(en)
        if self.client.get_json(zh)["translation_status"]["state"] != "up_to_date":
            raise StepFailed("the seeded zh-hant translation is not up to date")
        self.client.get_json(listing)
        if not self._cached_api_responses():
            raise StepFailed("no API response was cached in Redis")

        run_id = self.deployment.run_id
        new_title = f"{before['title']} (revised {run_id})"
        draft_title = f"{before['title']} (draft {run_id})"
        published = self.deployment.site_action(
            "publish-title", DIGEST, "--title", new_title, "--draft-title", draft_title,
            "--as", self.editor,
        )  # fmt: skip
        if published["live_title"] != new_title or not published["has_unpublished_changes"]:
            raise StepFailed(f"after publishing: {published}")

        shown = self.client.get_json(en)["title"]
        listed = [item["title"] for item in self.client.get_json(listing)["items"]]
        if shown != new_title or listed != [new_title]:
            raise StepFailed(f"the API shows {shown!r} / {listed}, want {new_title!r}")
        status = self.client.get_json(zh)["translation_status"]["state"]
        if status != "out_of_date":
            raise StepFailed(f"zh-hant translation_status {status!r}, want 'out_of_date'")
        return "new title live in detail and listing, draft hidden, zh-hant out_of_date"

    def sync(self) -> str:
        paper_path = f"/api/v2/papers/{self.ids['paper']}/"
        pages = [f"/api/v2/pages/{self.ids[language]}/" for language in ("en", "zh")]
        unsynced = self.client.get_json(paper_path)
        if unsynced["authors"] or unsynced["provenance"]:
            raise StepFailed(f"{DIGEST}'s paper has authors before any sync: {unsynced}")
        for path in pages:
            self.client.get_json(path)  # now cached, until the sync's writes bump the version

        enqueued = self.deployment.manage("sync_papers", "--enqueue")
        task_ids = TASK_ID.findall(enqueued)
        if not task_ids:
            raise StepFailed(f"sync_papers --enqueue printed no task id: {enqueued!r}")
        task_id = task_ids[-1]
        run = self.deployment.site_action("wait-for-sync", task_id, "--timeout", "240", timeout=300)
        if run["status"] != "finished" or run["errors"]:
            raise StepFailed(f"sync run {run['run']}: {run['status']}, errors {run['errors']}")
        if run["papers_matched"] != PAPERS_IN_RECORDINGS:
            raise StepFailed(f"{run['papers_matched']} papers matched, want {PAPERS_IN_RECORDINGS}")
        if f"sync.tasks.sync_all[{task_id}]" not in self.deployment.service("worker").log_text():
            raise StepFailed(f"the worker's log does not show task {task_id}")
        upstream = self.deployment.upstream
        asked = sorted(source for source in SOURCES if upstream.requests_to(source))
        if asked != sorted(SOURCES):
            raise StepFailed(f"only {asked} were asked")

        for path in [paper_path, *pages]:
            data = self.client.get_json(path)
            paper = data if path == paper_path else data["paper"]
            names = [author["name"] for author in paper["authors"]]
            if names != SYNCED_AUTHORS or paper["doi"] != SYNCED_DOI:
                raise StepFailed(f"{path}: authors {names}, DOI {paper['doi']}")
            authors = paper["provenance"].get("authors", {})
            if authors.get("source") != "dblp":
                raise StepFailed(f"{path}: provenance of authors {authors}")
            datetime.fromisoformat(authors["fetched_at"])
        requests_made = sum(run["requests"].values())
        return (
            f"run {run['run']}: {run['papers_matched']}/{run['papers_total']} matched, "
            f"{run['papers_changed']} changed, {requests_made} requests; authors from dblp"
        )
