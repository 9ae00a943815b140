// How paper metadata reads on the page, the same on the index, topic and digest pages.

import { t } from "./i18n.js";

/** "SIGCOMM 2025 (short paper)", as the published index prints it in both languages. */
export function venueLine(paper) {
  if (!paper) return "";
  const track = paper.track ? ` (${paper.track})` : "";
  return `${paper.venue.acronym} ${paper.year}${track}`;
}

export function readingTime(minutes) {
  return t("readingTime", { n: minutes });
}

/** Institutions in printed order ("et al." stays where the list was cut). */
export function affiliationLine(paper) {
  return paper && paper.affiliations.length ? paper.affiliations.join(", ") : "";
}

/** Author names in printed order, or "" before the sync worker has found them. */
export function authorLine(paper) {
  return paper && paper.authors.length ? paper.authors.map((author) => author.name).join(", ") : "";
}

/** Lower-cased, width-folded text, so "ＳＩＧＣＯＭＭ" finds "SIGCOMM". */
export function foldText(text) {
  return String(text || "")
    .normalize("NFKC")
    .toLocaleLowerCase();
}

/** True when every whitespace-separated term of `query` occurs in `haystack` (already folded). */
export function matchesQuery(haystack, query) {
  const terms = foldText(query).split(/\s+/).filter(Boolean);
  return terms.every((term) => haystack.includes(term));
}
