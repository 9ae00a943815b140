"""A sync while Redis does not answer: its papers commit, readers get fresh answers, and when
Redis comes back holding the answers it cached before (an append-only file, as deploy/ runs it)
none of them is served. Readers are not refused meanwhile either (the API rate limit, which
counts in the same cache, lets them through)."""

import pytest
import redis
from django.core.cache import cache

from cms.api.version import VERSION_KEY, current_content_version
from cms.digests.models import DigestPage
from sync import tasks
from sync.models import SyncRun
from tests.support.workers import RedisServer, wait_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_cache(settings, tmp_path):
    """The default cache on a redis-server of the test's own, which the test stops; the API
    rate limit, which counts there, on (generously)."""
    server = RedisServer(tmp_path, persist=True).start()
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": server.url,
        }
    }
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "1000/minute"},
    }
    try:
        yield server
    finally:
        server.stop()


def test_a_sync_while_redis_is_down_commits_and_no_stale_answer_follows(
    redis_cache, upstream, client, django_capture_on_commit_callbacks
):
    paper = DigestPage.objects.get(locale__language_code="en", short_name="ByteScale").paper
    url = f"/api/v2/papers/{paper.pk}/"
    before = client.get(url).json()
    assert client.get(url).json() == before  # served from the cache now
    old_version = current_content_version()
    redis_cache.stop()

    with django_capture_on_commit_callbacks(execute=True):  # the version bump fails here
        assert tasks.sync_paper.apply(args=[paper.pk]).get() == "changed"
    run = SyncRun.objects.get(kind=SyncRun.Kind.PAPERS)
    assert (run.status, run.papers_changed, run.error_count) == (SyncRun.Status.FINISHED, 1, 0)
    paper.refresh_from_db()
    assert paper.doi == "10.1145/3718958.3750471"

    while_down = client.get(url)
    assert while_down.status_code == 200
    fresh = while_down.json()
    assert fresh != before and fresh["doi"] == paper.doi

    redis_cache.start()  # back with the old version and the answer cached under it
    other_process = redis.Redis.from_url(redis_cache.url)  # reads nothing through this one
    assert other_process.keys("*api-response:*"), "the answer cached before came back"
    # The owed bump is made in the background, for readers in processes that never noticed.
    wait_for(
        lambda: old_version.encode() not in other_process.get(cache.make_key(VERSION_KEY)),
        15,
        "the owed bump",
    )
    assert client.get(url).json() == fresh
