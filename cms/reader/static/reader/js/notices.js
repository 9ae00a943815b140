// A paper's retractions, corrections and other notices, from the API's `retracted` and
// `updates` ([{type, doi, date, source, label}]): a banner on the digest, a flag on its row in
// the topic's table. Answers from before these fields existed have neither: nothing is shown.

import { h } from "./dom.js";
import { t } from "./i18n.js";

// Crossref's notice types (lower case, `_` for spaces), as cms.papers groups them.
const RETRACTING = new Set(["retraction", "partial_retraction", "withdrawal", "removal"]);
const CORRECTING = new Set(["correction", "erratum", "corrigendum"]);
const CONCERN = "expression_of_concern";

const BANNERS = {
  retracted: "retractedBanner",
  corrected: "correctedBanner",
  concern: "concernBanner",
  updated: "updatedBanner",
};
const FLAGS = { retracted: "retractedFlag", corrected: "correctedFlag", concern: "noticeConcern" };
// Names of the kinds of notice in the reader's languages; any other keeps Crossref's label.
const KIND_NAMES = {
  retraction: "noticeRetraction",
  partial_retraction: "noticeRetraction",
  withdrawal: "noticeWithdrawal",
  removal: "noticeWithdrawal",
  correction: "noticeCorrection",
  erratum: "noticeCorrection",
  corrigendum: "noticeCorrection",
  expression_of_concern: "noticeConcern",
};

function updatesOf(paper) {
  return Array.isArray(paper?.updates) ? paper.updates : [];
}

/** What the paper's notices amount to: "retracted", "corrected", "concern", "updated" or null. */
export function noticeKind(paper) {
  const updates = updatesOf(paper);
  if (paper?.retracted === true || updates.some((update) => RETRACTING.has(update.type))) return "retracted";
  if (updates.some((update) => CORRECTING.has(update.type))) return "corrected";
  if (updates.some((update) => update.type === CONCERN)) return "concern";
  return updates.length ? "updated" : null;
}

/** The digest's banner (role=note): what happened to the paper and a link to each notice. */
export function noticeBanner(paper) {
  const kind = noticeKind(paper);
  if (!kind) return null;
  const updates = updatesOf(paper);
  return h(
    "div",
    { class: `notice-banner notice-banner--${kind}`, role: "note" },
    h("p", { class: "notice-banner__title" }, h("strong", {}, t(BANNERS[kind]))),
    updates.length
      ? [h("p", { class: "notice-banner__lead" }, t("seeNotice")), h("ul", {}, updates.map(noticeItem))]
      : null,
  );
}

/** A short flag for the paper's row in a topic's table, or null. */
export function noticeFlag(paper) {
  const kind = noticeKind(paper);
  return FLAGS[kind] ? h("span", { class: `flag flag--${kind}` }, t(FLAGS[kind])) : null;
}

function noticeItem(update) {
  const key = KIND_NAMES[update.type];
  // Crossref's own label is English; a kind the reader names is in the reader's language.
  const name = key ? t(key) : update.label || update.type;
  const text = update.date ? `${name} (${update.date})` : name;
  const lang = key ? null : "en";
  const doi = typeof update.doi === "string" && update.doi ? update.doi : null;
  return h(
    "li",
    {},
    doi ? h("a", { href: `https://doi.org/${encodeURI(doi)}`, lang }, text) : h("span", { lang }, text),
  );
}
