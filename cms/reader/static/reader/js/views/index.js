// The site index: title, intro, counts, topic navigation, a live filter, and one card per digest
// under its topic (with the topic's chapter to finish first, where it names one).

import { findPage, inLanguage, listPages } from "../api.js";
import { h } from "../dom.js";
import { affiliationLine, authorLine, foldText, matchesQuery, readingTime, venueLine } from "../format.js";
import { HTML_LANG, otherLanguage, t } from "../i18n.js";
import { pageHref } from "../urls.js";

const CARD_FIELDS = "_,id,title,slug,short_name,reading_minutes,summary,topic,paper";

/** Everything the index shows; `draft` replaces the index page itself in a preview. */
export async function loadIndex(lang, draft = null) {
  const other = otherLanguage(lang);
  const [page, topics, digests, otherDigests] = await Promise.all([
    draft || findPage({ type: "digests.DigestIndexPage", locale: lang, fields: "_,id,title,intro" }),
    // What this language lacks is filled in with the English pages (`meta.fallback`).
    listPages(inLanguage(lang, { type: "digests.TopicPage", fields: "_,id,title,slug,finish_first" })),
    listPages(inLanguage(lang, { type: "digests.DigestPage", fields: CARD_FIELDS })),
    listPages({ type: "digests.DigestPage", locale: other, fields: "_,title,slug,summary,topic" }),
  ]);
  if (!page) return null;
  // Slugs are synchronized across languages, so topic/digest slugs pair a page with its translation.
  const key = (digest) => `${digest.topic?.slug}/${digest.meta.slug}`;
  const translations = new Map(otherDigests.items.map((digest) => [key(digest), digest]));
  // By slug: a digest not translated yet is under the English topic, the same slug.
  const byTopic = new Map(topics.items.map((topic) => [topic.meta.slug, []]));
  for (const digest of digests.items) {
    const translation = digest.meta?.fallback ? null : translations.get(key(digest));
    byTopic.get(digest.topic?.slug)?.push({ digest, translation });
  }
  return {
    lang,
    other,
    page,
    paperCount: digests.total,
    topicCount: topics.total,
    topics: topics.items.map((topic) => ({ topic, cards: byTopic.get(topic.meta.slug) })),
  };
}

export function renderIndex(data, { query = "", onQuery = () => {} } = {}) {
  const status = h("p", { class: "filter-status", role: "status" });
  const sections = data.topics
    .filter(({ cards }) => cards.length)
    .map(({ topic, cards }) => topicSection(topic, cards, data));
  const input = h("input", {
    id: "digest-filter",
    type: "search",
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": "digest-filter-hint",
    "aria-controls": "digest-list",
  });
  input.value = query;
  const apply = () => {
    const shown = applyFilter(sections, input.value);
    status.textContent = shown === 0 ? t("emptyFilter") : "";
    onQuery(input.value);
  };
  input.addEventListener("input", apply);
  const view = h(
    "div",
    { class: "index" },
    h("h1", { tabindex: "-1" }, data.page.title),
    data.page.intro ? h("p", { class: "lead" }, data.page.intro) : null,
    h("p", { class: "counts" }, t("counts", { papers: data.paperCount, topics: data.topicCount })),
    h(
      "nav",
      { class: "topic-nav", "aria-labelledby": "topic-nav-heading" },
      h("h2", { id: "topic-nav-heading", class: "visually-hidden" }, t("topics")),
      h(
        "ul",
        {},
        data.topics.map(({ topic }) =>
          h("li", {}, h("a", { href: pageHref(`/${topic.meta.slug}/`), "data-route": true }, topic.title)),
        ),
      ),
    ),
    h(
      "div",
      { class: "filter", role: "search" },
      h("label", { for: "digest-filter" }, t("filterLabel")),
      input,
      h("p", { id: "digest-filter-hint", class: "hint" }, t("filterHint")),
      status,
    ),
    h("div", { id: "digest-list" }, sections),
  );
  if (query) apply();
  return { title: data.page.title, view };
}

function topicSection(topic, cards, data) {
  const headingId = `topic-${topic.meta.slug}`;
  return h(
    "section",
    { class: "topic-section", "aria-labelledby": headingId },
    h("h2", { id: headingId }, h("a", { href: pageHref(`/${topic.meta.slug}/`), "data-route": true }, topic.title)),
    // Only a topic whose editors named a chapter to finish first says so: no empty promise.
    topic.finish_first
      ? h("p", { class: "topic-section__finish-first" }, h("strong", {}, `${t("finishFirst")}${t("labelEnd")}`), topic.finish_first)
      : null,
    h("ul", { class: "cards" }, cards.map((card) => digestCard(card, data))),
  );
}

function digestCard({ digest, translation }, data) {
  const paper = digest.paper;
  const href = pageHref(`/${digest.topic.slug}/${digest.meta.slug}/`);
  const affiliations = affiliationLine(paper);
  const lang = digest.meta?.fallback ? HTML_LANG[digest.meta.locale] : null; // not translated yet
  const item = h(
    "li",
    { class: "card" },
    h(
      "article",
      { "aria-labelledby": `card-${digest.id}` },
      h("h3", { class: "card__name", id: `card-${digest.id}` }, h("a", { href, "data-route": true }, digest.short_name)),
      h("p", { class: "card__meta" }, [venueLine(paper), readingTime(digest.reading_minutes)].filter(Boolean).join(" · ")),
      lang ? h("p", { class: "flag flag--fallback" }, t("notTranslatedYetShort")) : null,
      h("p", { class: "card__title", lang }, digest.title),
      translation
        ? h("p", { class: "card__title card__title--other", lang: HTML_LANG[data.other] }, translation.title)
        : null,
      affiliations ? h("p", { class: "card__affiliations" }, affiliations) : null,
      h("p", { class: "card__summary", lang }, digest.summary),
    ),
  );
  // What the filter looks through: both languages, so either one finds the card.
  item.dataset.haystack = foldText(
    [
      digest.short_name,
      digest.title,
      translation?.title,
      digest.summary,
      translation?.summary,
      venueLine(paper),
      affiliations,
      authorLine(paper),
    ].join("\n"),
  );
  return item;
}

/** Hide cards (and emptied topic sections) that do not match; returns how many stay. */
function applyFilter(sections, query) {
  let shown = 0;
  for (const section of sections) {
    let inSection = 0;
    for (const card of section.querySelectorAll(".card")) {
      const match = matchesQuery(card.dataset.haystack, query);
      card.hidden = !match;
      if (match) inSection += 1;
    }
    section.hidden = inSection === 0;
    shown += inSection;
  }
  return shown;
}
