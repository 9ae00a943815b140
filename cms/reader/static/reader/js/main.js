// The reader: picks the language and the view for the address, renders it from the API, and
// keeps the chrome (language switch, titles, focus) in step. Links marked data-route navigate
// without a reload. The address always names the language shown (see urls.js).

import { previewPage } from "./api.js";
import { h } from "./dom.js";
import { HTML_LANG, language, languageToShow, otherLanguage, setLanguage, shellLanguage, t } from "./i18n.js";
import { addressIn, localizedPath, pageHref, splitPath } from "./urls.js";
import { loadDigest, renderDigest } from "./views/digest.js";
import { loadIndex, renderIndex } from "./views/index.js";
import { loadTopic, renderTopic } from "./views/topic.js";

const main = document.getElementById("main");
const isPreview = document.body.dataset.mode === "preview";
let filterQuery = "";
let renderCount = 0;

/** The view for a page path: "/" the index, "/<topic>/" a topic, "/<topic>/<digest>/" a digest. */
async function liveView(lang, pagePath) {
  const parts = pagePath.split("/").filter(Boolean).map(decodeURIComponent);
  const home = t("home");
  if (parts.length === 0) {
    const data = await loadIndex(lang);
    return data && renderIndex(data, { query: filterQuery, onQuery: (query) => (filterQuery = query) });
  }
  if (parts.length === 1) {
    const data = await loadTopic(lang, parts[0]);
    return data ? renderTopic(data, { home }) : notInThisLanguage(lang, parts);
  }
  if (parts.length === 2) {
    const data = await loadDigest(lang, parts[0], parts[1]);
    return data ? renderDigest(data, { home }) : notInThisLanguage(lang, parts);
  }
  return null;
}

/**
 * A topic or digest missing in `lang` that the other language has (published before its
 * translation, say): say so and link to that version, which switches the language as the
 * switch does. Null (not found) when neither language has the page.
 */
async function notInThisLanguage(lang, parts) {
  const other = otherLanguage(lang);
  const found = parts.length === 1 ? await loadTopic(other, parts[0]) : await loadDigest(other, ...parts);
  const page = found && (found.digest || found.topic);
  if (!page) return null;
  const text = t("notTranslated");
  const link = h("a", { href: addressIn(other), lang: HTML_LANG[other], "data-switch-lang": other }, page.title);
  return { title: text, view: h("div", {}, h("h1", { tabindex: "-1" }, text), h("p", {}, `${t("readOther")} `, link)) };
}

/** An editor's draft: shown in its own language, with a banner, whatever the saved choice. */
async function previewView() {
  const params = new URLSearchParams(window.location.search);
  const page = await previewPage({ contentType: params.get("content_type") || "", token: params.get("token") || "" });
  setLanguage(page.meta.locale, { remember: false });
  const home = t("home");
  let rendered = null;
  if (page.meta.type === "digests.DigestIndexPage") rendered = renderIndex(await loadIndex(page.meta.locale, page));
  if (page.meta.type === "digests.TopicPage") rendered = renderTopic(await loadTopic(page.meta.locale, null, page), { home });
  if (page.meta.type === "digests.DigestPage") {
    rendered = renderDigest(await loadDigest(page.meta.locale, null, null, page), { home });
  }
  if (!rendered) return null;
  // A page never published has no version readers see: say so rather than "still see".
  const banner = page.meta.first_published_at ? t("preview") : t("previewNeverPublished");
  rendered.view.prepend(h("p", { class: "preview-banner", role: "note" }, banner));
  return rendered;
}

async function render({ moveFocus = false } = {}) {
  const current = ++renderCount;
  main.setAttribute("aria-busy", "true");
  updateChrome();
  let rendered;
  try {
    rendered = isPreview
      ? await previewView()
      : await liveView(language(), splitPath(window.location.pathname).pagePath);
  } catch (error) {
    rendered = message(error.status && isPreview ? error.message : t("loadError"));
    console.error(error);
  }
  if (current !== renderCount) return; // a newer navigation won
  rendered ||= message(t("notFound"));
  updateChrome();
  document.title = rendered.title === t("siteTitle") ? rendered.title : `${rendered.title} · ${t("siteTitle")}`;
  main.replaceChildren(rendered.view);
  main.setAttribute("aria-busy", "false");
  if (moveFocus) {
    // After a client-side navigation, start reading at the new page's heading.
    (main.querySelector("h1") || main).focus();
    window.scrollTo(0, 0);
  }
}

function message(text) {
  return { title: text, view: h("div", {}, h("h1", { tabindex: "-1" }, text)) };
}

function updateChrome() {
  document.querySelector(".skip-link").textContent = t("skipLink");
  const siteTitle = document.querySelector(".site-title");
  siteTitle.textContent = t("siteTitle");
  siteTitle.setAttribute("href", pageHref("/"));
  document.getElementById("lang-switch-label").textContent = t("language");
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === language()));
    button.hidden = isPreview;
  }
  // Each language has its own feed (/feed.atom, /zh-hant/feed.atom): the one shown, for
  // feed readers (the <link rel=alternate>) and for people (the footer's link).
  const feed = localizedPath(language(), "/feed.atom");
  const alternate = document.querySelector("[data-feed-alternate]");
  alternate.setAttribute("href", feed);
  alternate.setAttribute("title", `${t("siteTitle")} (Atom)`);
  const feedLink = document.querySelector("[data-feed-link]");
  feedLink.setAttribute("href", feed);
  feedLink.textContent = t("feed");
}

/**
 * Show the language the address asks for (its prefix, else an old ?lang=, the saved choice or
 * the browser's) and make the address name it: /x/ shown in Chinese becomes /zh-hant/x/.
 */
function followAddress() {
  setLanguage(languageToShow(splitPath(window.location.pathname).lang), { remember: false });
  showLanguageInAddress();
}

/** Replace (not add) the history entry: the same page in another language is not a new page. */
function showLanguageInAddress() {
  const address = addressIn(language());
  const { pathname, search, hash } = window.location;
  if (address !== pathname + search + hash) history.replaceState(history.state, "", address);
}

document.addEventListener("click", (event) => {
  // The language switch, or a link to the other language's version of this page.
  const switcher = event.target.closest("[data-lang], a[data-switch-lang]");
  if (switcher) {
    const lang = switcher.dataset.lang || switcher.dataset.switchLang;
    if (switcher.dataset.switchLang && (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)) return;
    event.preventDefault();
    if (lang !== language()) {
      // The visitor's choice: saved, and the address becomes the other language's.
      setLanguage(lang);
      showLanguageInAddress();
      render({ moveFocus: Boolean(switcher.dataset.switchLang) });
    }
    return;
  }
  const link = event.target.closest("a[data-route]");
  if (!link || isPreview || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  if (link.pathname !== window.location.pathname) history.pushState({}, "", link.pathname);
  followAddress();
  render({ moveFocus: true });
});

window.addEventListener("popstate", () => {
  followAddress();
  render({ moveFocus: true });
});

// A preview starts in the language the server negotiated for the shell, the one the API's
// messages (an expired token, say) come in, until the draft names its own.
if (isPreview) setLanguage(shellLanguage(), { remember: false });
else followAddress();
render();
