// The only place the reader talks to the server: Wagtail's pages API and the preview endpoint.

import { DEFAULT_LANG } from "./i18n.js";

const API_ROOT = document.body.dataset.apiRoot || "/api/v2/";
const PAGE_LIMIT = 100; // WAGTAILAPI_LIMIT_MAX
const cache = new Map();

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function getJSON(path, params) {
  const url = `${API_ROOT}${path}?${new URLSearchParams(params)}`;
  if (!cache.has(url)) {
    const request = fetch(url).then(async (response) => {
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw new ApiError(response.status, body.message || response.statusText);
      return body;
    });
    // Failed requests are not kept, so a retry can succeed.
    request.catch(() => cache.delete(url));
    cache.set(url, request);
  }
  return cache.get(url);
}

/**
 * `params` for the pages of `lang`, where that language lacks a page filled in with the English
 * one (the API's `fallback`: such a page has `meta.fallback` true and `meta.locale` "en").
 */
export function inLanguage(lang, params) {
  return lang === DEFAULT_LANG ? { ...params, locale: lang } : { ...params, locale: lang, fallback: DEFAULT_LANG };
}

/** Every page matching `params`, following offsets past the API's 100-item limit. */
export async function listPages(params) {
  const first = await getJSON("pages/", { ...params, limit: PAGE_LIMIT });
  const items = [...first.items];
  const total = first.meta.total_count;
  const rest = [];
  for (let offset = PAGE_LIMIT; offset < total; offset += PAGE_LIMIT) {
    rest.push(getJSON("pages/", { ...params, limit: PAGE_LIMIT, offset }));
  }
  for (const page of await Promise.all(rest)) items.push(...page.items);
  return { items, total };
}

/** The one page matching `params` (e.g. type + locale + slug), or null. */
export async function findPage(params) {
  const result = await getJSON("pages/", { ...params, limit: 1 });
  return result.items[0] || null;
}

/** An editor's draft, from a wagtail-headless-preview token; never cached by the browser. */
export async function previewPage({ contentType, token }) {
  return getJSON("page_preview/", {
    content_type: contentType,
    token,
    rich_text_format: "html",
  });
}

const citations = new Map();

/** A paper's citation as text, e.g. { format: "text", style: "ieee" } (cite/ endpoint). */
export async function citation(paperId, params) {
  const url = `${API_ROOT}papers/${encodeURIComponent(paperId)}/cite/?${new URLSearchParams(params)}`;
  if (!citations.has(url)) {
    const request = fetch(url).then(async (response) => {
      if (!response.ok) throw new ApiError(response.status, response.statusText);
      return response.text();
    });
    request.catch(() => citations.delete(url));
    citations.set(url, request);
  }
  return citations.get(url);
}
