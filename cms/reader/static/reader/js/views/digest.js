// One digest: both titles, venue and reading time, the summary, the body, the synced paper metadata.

import { inLanguage, listPages } from "../api.js";
import { h } from "../dom.js";
import { readingTime, venueLine } from "../format.js";
import { HTML_LANG, otherLanguage, t } from "../i18n.js";
import { pageHref } from "../urls.js";
import { renderBlocks } from "../blocks.js";
import { citeControl } from "../cite.js";
import { noticeBanner } from "../notices.js";
import { breadcrumb, fallbackNote, safeUrl } from "./common.js";

const DIGEST_FIELDS = "_,id,title,slug,short_name,reading_minutes,summary,body,topic,paper";

/**
 * The digest at /<topicSlug>/<slug>/ (null when there is none), with its other-language title.
 * Slugs are unique among a topic's digests only, so a slug is looked up with every topic's
 * pages and the one under the address's topic is kept (the translation: under the same topic).
 * A digest not translated yet is the English one (`meta.fallback`), which has no other title.
 */
export async function loadDigest(lang, topicSlug, slug, draft = null) {
  const other = otherLanguage(lang);
  const [digests, translations] = await Promise.all([
    draft
      ? null
      : listPages(inLanguage(lang, { type: "digests.DigestPage", slug, fields: DIGEST_FIELDS, rich_text_format: "html" })),
    listPages({ type: "digests.DigestPage", locale: other, slug: draft ? draft.meta.slug : slug, fields: "_,title,topic" }),
  ]);
  const digest = draft || inTopic(digests.items, topicSlug);
  if (!digest) return null;
  const translation = digest.meta?.fallback ? null : inTopic(translations.items, digest.topic?.slug);
  return { digest, translation, other };
}

function inTopic(digests, topicSlug) {
  return digests.find((digest) => digest.topic?.slug === topicSlug) || null;
}

export function renderDigest({ digest, translation, other }, { home }) {
  const topic = digest.topic;
  const fallback = Boolean(digest.meta?.fallback);
  // A digest not translated yet is shown in English: its own words are marked so, the
  // reader's (breadcrumb, reading time, headings) are not.
  const lang = fallback ? HTML_LANG[digest.meta.locale] : null;
  const view = h(
    "article",
    { class: "digest" },
    fallbackNote(fallback),
    breadcrumb([
      { label: home, href: pageHref("/") },
      topic ? { label: topic.title, href: pageHref(`/${topic.slug}/`) } : null,
      { label: digest.short_name },
    ].filter(Boolean)),
    h(
      "header",
      { class: "digest__header" },
      h("p", { class: "kicker" }, digest.short_name),
      h("h1", { tabindex: "-1", lang }, digest.title),
      translation ? h("p", { class: "other-title", lang: HTML_LANG[other] }, translation.title) : null,
      h("p", { class: "meta" }, [venueLine(digest.paper), readingTime(digest.reading_minutes)].filter(Boolean).join(" · ")),
    ),
    // Retracted or corrected since: said before anything the digest says about the paper.
    digest.paper ? noticeBanner(digest.paper) : null,
    h("p", { class: "lead", lang }, digest.summary),
    // The digest's own text comes first: the paper's metadata (authors, links, abstract) is
    // reference material, and on a phone it used to push the text two screens down.
    digest.body?.length ? h("div", { class: "prose", lang }, renderBlocks(digest.body)) : null,
    digest.paper ? paperSection(digest.paper) : null,
  );
  return { title: `${digest.short_name} · ${digest.title}`, view };
}

function paperSection(paper) {
  const doiUrl = paper.doi ? `https://doi.org/${encodeURI(paper.doi)}` : null;
  const links = paper.links.map((link) => ({ ...link, href: safeUrl(link.url) })).filter((link) => link.href);
  return h(
    "section",
    { class: "paper", "aria-labelledby": "paper-heading" },
    h("h2", { id: "paper-heading" }, t("paper")),
    // Paper titles and abstracts are the publisher's, in English.
    h("p", { class: "paper__title", lang: "en" }, h("cite", {}, paper.title)),
    h("p", {}, `${paper.venue.name} ${paper.year}${paper.track ? ` (${paper.track})` : ""}`),
    paper.authors.length
      ? [
          h("h3", {}, t("authors")),
          h("ol", { class: "authors" }, paper.authors.map(authorItem)),
        ]
      : null,
    paper.affiliations.length
      ? [h("h3", {}, t("affiliations")), h("p", {}, paper.affiliations.join(", "))]
      : null,
    doiUrl
      ? h("dl", { class: "ids" }, h("dt", {}, t("doi")), h("dd", {}, h("a", { href: doiUrl }, paper.doi)))
      : null,
    links.length
      ? [
          h("h3", {}, t("links")),
          h("ul", { class: "links" }, links.map((link) => h("li", {}, h("a", { href: link.href }, link.label)))),
        ]
      : null,
    paper.abstract
      ? h("details", {}, h("summary", {}, t("abstract")), h("p", { lang: "en" }, paper.abstract))
      : null,
    citeControl(paper.id),
  );
}

function authorItem(author) {
  const orcid = author.orcid ? safeUrl(`https://orcid.org/${author.orcid}`) : null;
  return h(
    "li",
    {},
    h("span", { class: "author__name" }, author.name),
    author.affiliations.length ? h("span", { class: "author__affiliations" }, ` — ${author.affiliations.join("; ")}`) : null,
    orcid
      ? [" ", h("a", { href: orcid, class: "orcid", "aria-label": t("orcid", { name: author.name }) }, "ORCID")]
      : null,
  );
}
