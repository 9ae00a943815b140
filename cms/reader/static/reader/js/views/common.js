// Pieces shared by the topic and digest pages.

import { h } from "../dom.js";
import { t } from "../i18n.js";

/** Only web links from synced metadata become hrefs; anything else is shown as text. */
export function safeUrl(url) {
  try {
    const parsed = new URL(url, window.location.origin);
    return ["http:", "https:"].includes(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

export function breadcrumb(trail) {
  return h(
    "nav",
    { class: "breadcrumb", "aria-label": t("breadcrumb") },
    h(
      "ol",
      {},
      trail.map(({ label, href }, position) =>
        h(
          "li",
          {},
          position === trail.length - 1
            ? h("span", { "aria-current": "page" }, label)
            : h("a", { href, "data-route": true }, label),
        ),
      ),
    ),
  );
}

/** A wide table that scrolls sideways on a phone; focusable so keyboard users can scroll it. */
export function scrollingTable(labelId, table) {
  return h("div", { class: "table-scroll", role: "region", "aria-labelledby": labelId, tabindex: "0" }, table);
}

/**
 * The note on a page shown in English because the language being read lacks it (the API's
 * `meta.fallback`), in the reader's language. Null otherwise.
 */
export function fallbackNote(fallback) {
  return fallback ? h("p", { class: "fallback-note", role: "note" }, t("notTranslatedYet")) : null;
}
