"""Build the page tree from a validated seed: English pages, papers, then zh-hant translations.

Runs in one transaction. By default it only creates what is missing and leaves existing pages
alone, because `make run` imports on every start and must not undo an editor's work;
`update=True` makes existing pages match the seed again.

Pages that do not exist yet are created a batch at a time (a topic, then its digests) through
bulk_pages and translation.bulk_prefill, which write the rows Wagtail and wagtail-localize would
write page by page; existing pages, and any batch the bulk path does not take (see
`_bulk_batch`), go through Wagtail's and wagtail-localize's own per-page calls.
"""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.utils.text import slugify
from wagtail.models import Locale, Page, Site

from cms.apicache.representations import all_stale_at_end
from cms.apicache.version import bump_content_version, one_content_version_bump
from cms.db import update_rows
from cms.papers.models import Paper, PaperAffiliation
from cms.translation.bulk_prefill import (
    NewPageTranslation,
    translatable_in_bulk,
    translate_new_pages,
)
from cms.translation.prefill import prefill_page_translation

from . import bulk_pages
from .deferred_indexing import DeferredIndex, deferred_indexing
from .models import DigestIndexPage, DigestPage, TopicPage
from .seed import SeedDigest, SeedSite, SeedTopic
from .sites import name_site

ZH_HANT = "zh-hant"
Progress = Callable[[str], None]


@dataclass
class ImportReport:
    counts: Counter = field(default_factory=Counter)

    def add(self, key: str, amount: int = 1) -> None:
        self.counts[key] += amount


def _noop(_message: str) -> None:
    return None


class SeedImporter:
    def __init__(self, seed: SeedSite, *, update: bool = False, progress: Progress = _noop):
        self.seed = seed
        self.update = update
        self.progress = progress
        self.report = ImportReport()

    @transaction.atomic
    def run(self) -> ImportReport:
        with one_content_version_bump(), all_stale_at_end(), deferred_indexing() as indexing:
            self.indexing: DeferredIndex = indexing
            report = self._run()
            bump_content_version()  # rows written in bulk send no signal that would ask for it
        return report

    def _run(self) -> ImportReport:
        self.en = Locale.objects.get_or_create(language_code="en")[0]
        self.zh = Locale.objects.get_or_create(language_code=ZH_HANT)[0]
        self.translations: dict[int, Page] = {}  # English page pk -> its zh-hant page
        index = self._index_page()
        total = self.seed.digest_count
        done = 0
        for topic_seed in self.seed.topics:
            topic = self._topic_page(index, topic_seed)
            for digest_seed, state in self._digest_pages(topic, topic_seed.digests):
                done += 1
                self.progress(f"[{done:>3}/{total}] {digest_seed.short_name}: {state}")
        return self.report

    # -- pages ---------------------------------------------------------------------------------

    def _upsert(
        self, parent: Page, model: type[Page], lookup: dict, values: dict
    ) -> tuple[Page, str]:
        """Create a live page with a revision, or (update mode) bring it in line with `values`."""
        page = model.objects.child_of(parent).filter(locale=self.en, **lookup).first()
        if page is None:
            page = model(locale=self.en, **lookup, **values)
            parent.add_child(instance=page)
            page.save_revision().publish()
            self.report.add("pages created")
            return page, "created"
        if not self.update:
            self.report.add("pages kept")
            return page, "kept"
        changed = {name: value for name, value in values.items() if getattr(page, name) != value}
        if not changed:
            self.report.add("pages unchanged")
            return page, "unchanged"
        for name, value in changed.items():
            setattr(page, name, value)
        page.save_revision().publish()
        self.report.add("pages updated")
        return page, "updated"

    def _translate(self, page: Page, state: str, strings: dict[str, str]) -> None:
        if state == "kept" and self._translated(page):
            # Translators own the zh-hant page once it exists: the seed's strings, a source
            # re-extracted from the editor's English or a fresh publish would undo their work
            # (or hide that it is out of date). `--update` brings it back in line.
            self.report.add("translations kept")
            return
        result = prefill_page_translation(
            page=page,
            locale=self.zh,
            strings_by_field=strings,
            source_changed=state in {"created", "updated"},
        )
        if result.translation_created:
            self.report.add("translations created")
        elif result.target_saved:
            self.report.add("translations updated")

    def _translated(self, page: Page) -> bool:
        """Whether `page` has a real zh-hant translation (not a placeholder alias)."""
        return page.get_translations().filter(locale=self.zh, alias_of__isnull=True).exists()

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
        self.progress(f"Site root '{index.title}': {state}")
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
        slug = slugify(seed.name.en)
        topic = TopicPage.objects.child_of(index).filter(locale=self.en, slug=slug).first()
        if topic is None:
            topic = TopicPage(locale=self.en, slug=slug, title=seed.name.en)
            self._create_pages(index, [(topic, {"title": seed.name.zh_hant})])
            state = "created"
        else:
            topic, state = self._upsert(index, TopicPage, {"slug": slug}, {"title": seed.name.en})
            self._translate(topic, state, {"title": seed.name.zh_hant})
        self.progress(f"Topic '{seed.name.en}': {state}")
        return topic

    def _digest_pages(
        self, topic: TopicPage, seeds: tuple[SeedDigest, ...]
    ) -> list[tuple[SeedDigest, str]]:
        """Each digest of the topic and what happened to it: updated in place, or created."""
        existing = {
            page.slug: page
            for page in DigestPage.objects.child_of(topic).filter(
                locale=self.en, slug__in=[slugify(seed.short_name) for seed in seeds]
            )
        }
        states: dict[str, str] = {}
        new = []
        for seed in seeds:
            if slugify(seed.short_name) in existing:
                states[seed.short_name] = self._existing_digest_page(topic, seed)
            else:
                new.append(seed)
        pages = []
        for seed, paper in zip(new, self._digest_papers(new), strict=True):
            values = {**self._digest_values(seed, paper), "paper": paper}
            del values["paper_id"]
            page = DigestPage(locale=self.en, slug=slugify(seed.short_name), **values)
            pages.append((page, {"title": seed.title.zh_hant, "summary": seed.summary.zh_hant}))
            states[seed.short_name] = "created"
        self._create_pages(topic, pages)
        return [(seed, states[seed.short_name]) for seed in seeds]

    def _existing_digest_page(self, topic: TopicPage, seed: SeedDigest) -> str:
        paper = self._digest_papers([seed])[0]
        digest, state = self._upsert(
            topic, DigestPage, {"slug": slugify(seed.short_name)}, self._digest_values(seed, paper)
        )
        self._translate(
            digest, state, {"title": seed.title.zh_hant, "summary": seed.summary.zh_hant}
        )
        return state

    @staticmethod
    def _digest_values(seed: SeedDigest, paper: Paper) -> dict:
        return {
            "title": seed.title.en,
            "short_name": seed.short_name,
            "reading_minutes": seed.reading_minutes,
            "summary": seed.summary.en,
            "paper_id": paper.pk,
        }

    # -- new pages -----------------------------------------------------------------------------

    def _create_pages(self, parent: Page, pages: list[tuple[Page, dict[str, str]]]) -> None:
        """Create and publish new English pages under `parent`, each with its translation."""
        if not pages:
            return
        batch = self._bulk_batch(parent, pages)
        if batch is None:
            for page, strings in pages:
                parent.add_child(instance=page)
                page.save_revision().publish()
                self.report.add("pages created")
                self._translate(page, "created", strings)
            return
        logs = bulk_pages.LogEntries()
        created = [item.page for item in batch]
        bulk_pages.insert_children(parent, created, logs)
        bulk_pages.insert_specific_rows(created)
        revisions = bulk_pages.save_revisions(created, changed=True)
        for item in batch:  # what prefill extracts: the page as save_revision() left it
            item.source_json = item.page.to_json()
        bulk_pages.publish(created, revisions, logs)
        update_rows(Page, created, bulk_pages.PUBLISH_FIELDS)
        bulk_pages.announce_published(created)
        targets = translate_new_pages(batch, locale=self.zh, logs=logs)
        logs.save()
        for page, target in zip(created, targets, strict=True):
            self.translations[page.pk] = target
            self.indexing.add(type(page), [page.pk, target.pk])
        self.report.add("pages created", len(created))
        self.report.add("translations created", len(created))

    def _bulk_batch(
        self, parent: Page, pages: list[tuple[Page, dict[str, str]]]
    ) -> list[NewPageTranslation] | None:
        """The batch for the bulk path, or None where only the per-page path is exact.

        That is: a slug already in use (Wagtail's error message, or its choice of another
        slug), a value that does not validate (the per-page path names it), or a translation
        the bulk path does not cover (see translatable_in_bulk).
        """
        target_parent = self._translation_of(parent)
        taken = bulk_pages.children_slugs(parent)
        batch = []
        for page, strings in pages:
            if not page.slug or page.slug in taken or not bulk_pages.fits_bulk_path(page):
                return None
            if bulk_pages.page_field_errors(page):
                return None
            taken.add(page.slug)
            bulk_pages.without_child_objects(page)
            item = NewPageTranslation(
                page=page, strings_by_field=strings, target_parent=target_parent
            )
            if not translatable_in_bulk(item, self.zh):
                return None
            batch.append(item)
        return batch

    def _translation_of(self, page: Page) -> Page | None:
        if page.pk not in self.translations:
            self.translations[page.pk] = page.get_translation_or_none(self.zh)
        translation = self.translations[page.pk]
        return translation.specific if translation is not None else None

    # -- papers --------------------------------------------------------------------------------

    def _digest_papers(self, seeds: list[SeedDigest]) -> list[Paper]:
        """Each digest's paper: the one its existing English page has, else `_papers()`."""
        existing: dict[str, DigestPage] = {}
        for page in (
            DigestPage.objects.filter(
                locale=self.en, short_name__in=[seed.short_name for seed in seeds]
            )
            .select_related("paper")
            .order_by("path")
        ):
            existing.setdefault(page.short_name, page)
        linked = {name: page.paper for name, page in existing.items() if page.paper_id}
        missing = [seed for seed in seeds if seed.short_name not in linked]
        found = dict(zip([seed.short_name for seed in missing], self._papers(missing), strict=True))
        return [linked.get(seed.short_name) or found[seed.short_name] for seed in seeds]

    def _papers(self, seeds: list[SeedDigest]) -> list[Paper]:
        """The seeds' papers: created from the seed once, then owned by editors and sync."""
        stored: dict[tuple, Paper] = {}
        for paper in Paper.objects.filter(title__in={seed.title.en for seed in seeds}).order_by(
            "-year", "title", "pk"
        ):
            stored.setdefault((paper.title, paper.venue, paper.year), paper)
        new = []
        for seed in seeds:
            key = (seed.title.en, seed.venue, seed.year)
            if key not in stored:
                stored[key] = Paper(
                    title=seed.title.en, venue=seed.venue, year=seed.year, track=seed.track
                )
                new.append((stored[key], seed))
        if not new:
            return [stored[(seed.title.en, seed.venue, seed.year)] for seed in seeds]
        Paper.objects.bulk_create([paper for paper, _seed in new], batch_size=500)
        PaperAffiliation.objects.bulk_create(
            [
                PaperAffiliation(paper=paper, name=name, sort_order=order)
                for paper, seed in new
                for order, name in enumerate(seed.affiliations)
            ],
            batch_size=500,
        )
        self.indexing.add(Paper, [paper.pk for paper, _seed in new])
        self.report.add("papers created", len(new))
        return [stored[(seed.title.en, seed.venue, seed.year)] for seed in seeds]


def import_seed(
    seed: SeedSite, *, update: bool = False, progress: Progress = _noop
) -> ImportReport:
    """Import a validated seed in one transaction; see SeedImporter."""
    report = SeedImporter(seed, update=update, progress=progress).run()
    if report.counts["pages created"]:
        refresh_planner_statistics()
    return report


def refresh_planner_statistics() -> None:
    """ANALYZE after a bulk load, as both databases advise.

    Until the planner knows that, say, a locale matches half the translated strings, it takes
    that index for a selective one: the API's translation status ran 60x slower on SQLite (which
    never gathers statistics by itself) and 140x slower on PostgreSQL (until autovacuum got to
    the new rows) after importing 1,000 digests.
    """
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
