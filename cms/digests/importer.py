"""Build the page tree from a validated seed: English pages, papers, then zh-hant translations.

Runs in one transaction. By default it only creates what is missing and leaves existing pages
alone, because `make run` imports on every start and must not undo an editor's work;
`update=True` makes existing pages match the seed again.
"""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.text import slugify
from wagtail.models import Locale, Page, Site

from cms.papers.models import Paper, PaperAffiliation
from cms.translation.prefill import prefill_page_translation

from .deferred_indexing import deferred_indexing
from .models import DigestIndexPage, DigestPage, TopicPage
from .seed import SeedDigest, SeedSite, SeedTopic

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
        with deferred_indexing():
            return self._run()

    def _run(self) -> ImportReport:
        self.en = Locale.objects.get_or_create(language_code="en")[0]
        self.zh = Locale.objects.get_or_create(language_code=ZH_HANT)[0]
        index = self._index_page()
        total = self.seed.digest_count
        done = 0
        for topic_seed in self.seed.topics:
            topic = self._topic_page(index, topic_seed)
            for digest_seed in topic_seed.digests:
                done += 1
                state = self._digest_page(topic, digest_seed)
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
            Site.objects.create(hostname="localhost", root_page=index, is_default_site=True)
            return
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
        self.progress(f"Topic '{seed.name.en}': {state}")
        return topic

    def _digest_page(self, topic: TopicPage, seed: SeedDigest) -> str:
        existing = DigestPage.objects.filter(locale=self.en, short_name=seed.short_name).first()
        paper = existing.paper if existing and existing.paper_id else self._paper(seed)
        digest, state = self._upsert(
            topic,
            DigestPage,
            {"slug": slugify(seed.short_name)},
            {
                "title": seed.title.en,
                "short_name": seed.short_name,
                "reading_minutes": seed.reading_minutes,
                "summary": seed.summary.en,
                "paper_id": paper.pk,
            },
        )
        self._translate(
            digest, state, {"title": seed.title.zh_hant, "summary": seed.summary.zh_hant}
        )
        return state

    def _paper(self, seed: SeedDigest) -> Paper:
        """The digest's paper: created from the seed once, then owned by editors and sync."""
        paper = Paper.objects.filter(title=seed.title.en, venue=seed.venue, year=seed.year).first()
        if paper is not None:
            return paper
        paper = Paper.objects.create(
            title=seed.title.en, venue=seed.venue, year=seed.year, track=seed.track
        )
        PaperAffiliation.objects.bulk_create(
            PaperAffiliation(paper=paper, name=name, sort_order=order)
            for order, name in enumerate(seed.affiliations)
        )
        self.report.add("papers created")
        return paper


def import_seed(
    seed: SeedSite, *, update: bool = False, progress: Progress = _noop
) -> ImportReport:
    """Import a validated seed in one transaction; see SeedImporter."""
    return SeedImporter(seed, update=update, progress=progress).run()
