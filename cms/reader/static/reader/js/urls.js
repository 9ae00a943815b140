// The reader's addresses: an English page at /<topic>/<digest>/, its Traditional Chinese version
// at /zh-hant/<topic>/<digest>/ (Django's i18n_patterns without a prefix for the default
// language, the same URLs Wagtail gives the pages in the API's meta.html_url).

import { DEFAULT_LANG, LANGS, language } from "./i18n.js";

/** An address's language prefix (null when it has none) and the page path after it. */
export function splitPath(pathname) {
  const match = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  const prefix = match?.[1];
  if (prefix && prefix !== DEFAULT_LANG && LANGS.includes(prefix)) {
    return { lang: prefix, pagePath: match[2] || "/" };
  }
  return { lang: null, pagePath: pathname };
}

// The server's own routes beside the reader's pages (cms/urls.py): never the reader's.
const SERVER_ROUTES = ["admin", "api", "documents", "preview", "static", "media"];

/** The reader's page path of a same-site pathname ("/<topic>/", "/<topic>/<digest>/", in either
 * language), or null for any other address (a document, the admin, the API). */
export function readerPagePath(pathname) {
  const { pagePath } = splitPath(pathname);
  const match = /^\/([^/]+)\/(?:[^/]+\/)?$/.exec(pagePath);
  return match && !SERVER_ROUTES.includes(match[1]) ? pagePath : null;
}

/** The address of a page path in a language: no prefix for the default language. */
export function localizedPath(lang, pagePath) {
  return lang === DEFAULT_LANG ? pagePath : `/${lang}${pagePath}`;
}

/** The href of an in-app link: the page path in the language being shown. */
export function pageHref(pagePath) {
  return localizedPath(language(), pagePath);
}

/**
 * The address that shows the current page in `lang`: the same page path under that language's
 * prefix, the query (less an old link's ?lang=) and fragment kept.
 */
export function addressIn(lang, location = window.location) {
  const params = new URLSearchParams(location.search);
  params.delete("lang");
  const query = params.toString();
  return `${localizedPath(lang, splitPath(location.pathname).pagePath)}${query ? `?${query}` : ""}${location.hash}`;
}
