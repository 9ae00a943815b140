// A topic overview: intro, the chapter to finish first, the comparison table, the commentary.

import { findPage, inLanguage, listPages } from "../api.js";
import { h } from "../dom.js";
import { affiliationLine, authorLine, readingTime } from "../format.js";
import { HTML_LANG, t } from "../i18n.js";
import { noticeFlag } from "../notices.js";
import { pageHref, readerPagePath } from "../urls.js";
import { renderBlocks } from "../blocks.js";
import { breadcrumb, fallbackNote, safeUrl, scrollingTable } from "./common.js";

const TOPIC_FIELDS = "_,id,title,slug,intro,finish_first,finish_first_url,commentary";
const ROW_FIELDS = "_,id,title,slug,short_name,reading_minutes,paper";
const MAX_AUTHORS = 3;

/**
 * The topic at /<slug>/ and its digests; in a language that lacks the topic or some of its
 * digests, their English pages (marked `meta.fallback`), after the translated ones.
 */
export async function loadTopic(lang, slug, draft = null) {
  const topic =
    draft ||
    (await findPage(inLanguage(lang, { type: "digests.TopicPage", slug, fields: TOPIC_FIELDS, rich_text_format: "html" })));
  if (!topic) return null;
  const digests = topic.id
    ? await listPages(inLanguage(lang, { type: "digests.DigestPage", child_of: topic.id, fields: ROW_FIELDS }))
    : { items: [] }; // a topic that was never saved has no children yet
  return { topic, digests: digests.items };
}

export function renderTopic({ topic, digests }, { home }) {
  const slug = topic.meta.slug;
  const finishLink = chapterLink(topic.finish_first_url);
  const fallback = Boolean(topic.meta?.fallback);
  const lang = fallback ? HTML_LANG[topic.meta.locale] : null; // its own words only
  const view = h(
    "article",
    { class: "topic" },
    fallbackNote(fallback),
    breadcrumb([{ label: home, href: pageHref("/") }, { label: topic.title }]),
    h("h1", { tabindex: "-1", lang }, topic.title),
    topic.intro ? h("p", { class: "lead", lang }, topic.intro) : null,
    topic.finish_first
      ? h(
          "section",
          { class: "finish-first", "aria-labelledby": "finish-first-heading" },
          h("h2", { id: "finish-first-heading" }, t("finishFirst")),
          h("p", {}, topic.finish_first),
          finishLink ? h("p", {}, finishLink) : null,
        )
      : null,
    h(
      "section",
      { class: "comparison", "aria-labelledby": "comparison-heading" },
      h("h2", { id: "comparison-heading" }, t("comparison")),
      scrollingTable("comparison-caption", comparisonTable(slug, digests)),
    ),
    topic.commentary?.length ? h("div", { class: "prose", lang }, renderBlocks(topic.commentary)) : null,
  );
  return { title: topic.title, view };
}

/**
 * The link to the chapter to finish first. The URL is one for both languages (a synchronized
 * field), so a page of this reader is opened in the language being read, inside the app.
 */
function chapterLink(url) {
  const href = safeUrl(url);
  if (!href) return null;
  const target = new URL(href);
  const pagePath = target.origin === window.location.origin ? readerPagePath(target.pathname) : null;
  if (!pagePath) return h("a", { href }, href);
  const path = pageHref(pagePath) + target.search + target.hash;
  return h("a", { href: path, "data-route": true }, target.origin + path);
}

function comparisonTable(topicSlug, digests) {
  const header = ["colDigest", "colVenue", "colYear", "colAuthors", "colReading"];
  return h(
    "table",
    { class: "comparison-table" },
    h("caption", { id: "comparison-caption" }, t("comparisonCaption")),
    h("thead", {}, h("tr", {}, header.map((key) => h("th", { scope: "col" }, t(key))))),
    h(
      "tbody",
      {},
      digests.map((digest) => {
        const paper = digest.paper;
        // A digest not translated yet (its English page) and a retracted or corrected paper
        // are flagged in the row, as the digest's page says in full.
        const fallback = Boolean(digest.meta?.fallback);
        const flags = [
          fallback ? h("span", { class: "flag flag--fallback" }, t("notTranslatedYetShort")) : null,
          noticeFlag(paper),
        ].filter(Boolean);
        return h(
          "tr",
          { class: fallback ? "comparison-table__fallback" : null },
          h(
            "th",
            { scope: "row" },
            h("a", { href: pageHref(`/${topicSlug}/${digest.meta.slug}/`), "data-route": true }, digest.short_name),
            h("span", { class: "comparison-table__title", lang: fallback ? HTML_LANG[digest.meta.locale] : null }, digest.title),
            flags.length ? h("span", { class: "comparison-table__flags" }, flags) : null,
          ),
          h("td", {}, paper ? paper.venue.acronym + (paper.track ? ` (${paper.track})` : "") : ""),
          h("td", {}, paper ? String(paper.year) : ""),
          h("td", {}, authorsCell(paper)),
          h("td", { class: "nowrap" }, readingTime(digest.reading_minutes)),
        );
      }),
    ),
  );
}

function authorsCell(paper) {
  if (!paper) return "";
  const names = paper.authors.map((author) => author.name);
  const shown = names.length > MAX_AUTHORS + 1 ? `${names.slice(0, MAX_AUTHORS).join(", ")}, ${t("etAl")}` : authorLine(paper);
  const affiliations = affiliationLine(paper);
  return [
    shown ? h("span", { class: "comparison-table__authors" }, shown) : null,
    affiliations ? h("span", { class: "affiliations" }, affiliations) : null,
  ];
}
