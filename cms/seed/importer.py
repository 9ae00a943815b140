"""Build the page tree from a validated seed: English pages, papers, then zh-hant translations.

Runs in one transaction. By default it only creates what is missing and leaves existing pages
alone, because `make run` imports on every start and must not undo an editor's work;
`update=True` makes existing pages match the seed again.

Every page is written through Wagtail's and wagtail-localize's public calls, one page at a
time: `add_child()`, `save_revision().publish()`, and for the translation
`TranslationSource.update_or_create_from_instance()` and the strings
(cms.translation.workflow.prefill). That is slower than writing the rows in bulk and keeps them
right whenever Wagtail, treebeard or wagtail-localize change how they write them; their signals
(search and reference indexes, the API's caches) run as for an editor's save.
"""

from collections import Counter
from collections.abc import Callable

from django.db import connection, transaction
from django.utils.text import slugify
from wagtail.models import Locale, Page, Site

from cms.apicache import stale
from cms.digests.models import DigestIndexPage, DigestPage, TopicPage
from cms.digests.sites import name_site
from cms.papers.models import Paper, PaperAffiliation
from cms.translation.workflow.prefill import prefill_page_translation

from .parse import SeedDigest, SeedSite, SeedTopic

ZH_HANT = "zh-hant"

# Called once per English page with its translation done: the page's label and what happened
# to it ("created", "updated", "unchanged" or "kept").
PageDone = Callable[[str, str], None]


def _ignore(_label: str, _state: str) -> None:
    return None


class SeedImporter:
    def __init__(self, seed: SeedSite, *, update: bool = False, page_done: PageDone = _ignore):
        self.seed = seed
        self.update = update
        self.page_done = page_done
        self.report: Counter[str] = Counter()

    @transaction.atomic
    def run(self) -> Counter[str]:
        # Each publish is a write to the API's caches: one write to everything, at commit.
        with stale.batched():
            self.en = Locale.objects.get_or_create(language_code="en")[0]
            self.zh = Locale.objects.get_or_create(language_code=ZH_HANT)[0]
            index = self._index_page()
            for topic_seed in self.seed.topics:
                topic = self._topic_page(index, topic_seed)
                for digest_seed in topic_seed.digests:
                    self._digest_page(topic, digest_seed)
        return self.report

    # -- pages ---------------------------------------------------------------------------------

    def _upsert(
        self, parent: Page, model: type[Page], lookup: dict, values: dict, page: Page | None = None
    ) -> tuple[Page, str]:
        """Create a live page with a revision, or (update mode) bring it in line with `values`.

        `page` is the existing page when the caller found it elsewhere than by `lookup`."""
        if page is None:
            page = model.objects.child_of(parent).filter(locale=self.en, **lookup).first()
        if page is None:
            page = model(locale=self.en, **lookup, **values)
            parent.add_child(instance=page)
            page.save_revision().publish()
            self.report["pages created"] += 1
            return page, "created"
        if not self.update:
            self.report["pages kept"] += 1
            return page, "kept"
        changed = {name: value for name, value in values.items() if getattr(page, name) != value}
        if not changed:
            self.report["pages unchanged"] += 1
            return page, "unchanged"
        for name, value in changed.items():
            setattr(page, name, value)
        page.save_revision().publish()
        self.report["pages updated"] += 1
        return page, "updated"

    def _translate(self, page: Page, state: str, strings: dict[str, str]) -> None:
        translated = page.get_translations().filter(locale=self.zh, alias_of__isnull=True)
        if state == "kept" and translated.exists():  # a real translation, not a placeholder
            # Translators own the zh-hant page once it exists: the seed's strings, a source
            # re-extracted from the editor's English or a fresh publish would undo their work
            # (or hide that it is out of date). `--update` brings it back in line.
            self.report["translations kept"] += 1
            return
        result = prefill_page_translation(
            page=page,
            locale=self.zh,
            strings_by_field=strings,
            source_changed=state in {"created", "updated"},
        )
        if result.translation_created:
            self.report["translations created"] += 1
        elif result.target_saved:
            self.report["translations updated"] += 1

    def _index_page(self) -> DigestIndexPage:
        root = Page.get_first_root_node()
        index, state = self._upsert(
            root,
            DigestIndexPage,
            {"slug": "research-digests"},
            {"title": self.seed.title.en, "intro": self.seed.intro.en},
        )
        self._point_default_site_at(index)
        self._translate(
            index, state, {"title": self.seed.title.zh_hant, "intro": self.seed.intro.zh_hant}
        )
        self.page_done(index.title, state)
        return index

    def _point_default_site_at(self, index: DigestIndexPage) -> None:
        """Serve the digests at the site root; drop Wagtail's untouched welcome page."""
        site = Site.objects.filter(is_default_site=True).first()
        if site is None:
            site = Site.objects.create(hostname="localhost", root_page=index, is_default_site=True)
        name_site(site)
        if site.root_page_id == index.pk:
            return
        welcome = site.root_page
        site.root_page = index
        site.save()
        if (
            type(welcome.specific) is Page
            and welcome.depth == 2
            and not welcome.get_children().exists()
        ):
            welcome.delete()

    def _topic_page(self, index: DigestIndexPage, seed: SeedTopic) -> TopicPage:
        topic, state = self._upsert(
            index, TopicPage, {"slug": slugify(seed.name.en)}, {"title": seed.name.en}
        )
        self._translate(topic, state, {"title": seed.name.zh_hant})
        self.page_done(seed.name.en, state)
        return topic

    def _digest_page(self, topic: TopicPage, seed: SeedDigest) -> None:
        paper = self._paper(seed)
        values = {
            "title": seed.title.en,
            "short_name": seed.short_name,
            "reading_minutes": seed.reading_minutes,
            "summary": seed.summary.en,
            "paper_id": paper.pk,
        }
        slug = slugify(seed.short_name)
        found = self._digest_under_another_topic(topic, seed.short_name, slug)
        if found is not None and self.update:
            found.move(topic, pos="last-child")  # its translation follows (translation.tree)
            found.refresh_from_db()
            self.report["pages moved"] += 1
        parent = topic if found is None or self.update else found.get_parent()
        digest, state = self._upsert(parent, DigestPage, {"slug": slug}, values, page=found)
        self._translate(
            digest, state, {"title": seed.title.zh_hant, "summary": seed.summary.zh_hant}
        )
        self.page_done(seed.short_name, state)

    def _digest_under_another_topic(
        self, topic: TopicPage, short_name: str, slug: str
    ) -> DigestPage | None:
        """The English digest of `short_name` when the file now puts it under `topic` but the
        site has it under another topic: the same digest, moved in the file, which must not
        become a second live page. None when `topic` holds it (or its slug) or no topic does."""
        if DigestPage.objects.child_of(topic).filter(locale=self.en, slug=slug).exists():
            return None
        index = topic.get_parent()
        return (
            DigestPage.objects.descendant_of(index)
            .filter(locale=self.en, short_name=short_name)
            .order_by("path")
            .first()
        )

    # -- papers --------------------------------------------------------------------------------

    def _paper(self, seed: SeedDigest) -> Paper:
        """The digest's paper: its English page's, else one with the seed's title, venue and year,
        else a new one. Created from the seed once, then owned by editors and the sync."""
        page = (
            DigestPage.objects.filter(locale=self.en, short_name=seed.short_name)
            .exclude(paper=None)
            .select_related("paper")
            .order_by("path")
            .first()
        )
        if page is not None:
            return page.paper
        paper = (
            Paper.objects.filter(title=seed.title.en, venue=seed.venue, year=seed.year)
            .order_by("pk")
            .first()
        )
        if paper is not None:
            return paper
        paper = Paper(title=seed.title.en, venue=seed.venue, year=seed.year, track=seed.track)
        paper.affiliations = [
            PaperAffiliation(name=name, sort_order=order)
            for order, name in enumerate(seed.affiliations)
        ]
        paper.save()  # with its affiliations (modelcluster), indexed by the usual signals
        self.report["papers created"] += 1
        return paper


def import_seed(
    seed: SeedSite, *, update: bool = False, page_done: PageDone = _ignore
) -> Counter[str]:
    """Import a validated seed in one transaction; see SeedImporter. Counts what it did."""
    report = SeedImporter(seed, update=update, page_done=page_done).run()
    if report["pages created"]:
        refresh_planner_statistics()
    return report


def refresh_planner_statistics() -> None:
    """ANALYZE after a bulk load, as both databases advise: until the planner knows that, say,
    a locale matches half the translated strings, it takes that index for a selective one and
    the API's translation status slows by orders of magnitude (SQLite never gathers statistics
    by itself; PostgreSQL waits for autovacuum)."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
