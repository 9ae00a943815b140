// The reader: picks the view for the address, renders it from the API, and keeps the chrome
// (language switch, titles, focus) in step. Links marked data-route navigate without a reload.

import { previewPage } from "./api.js";
import { h } from "./dom.js";
import { initialLanguage, language, setLanguage, t } from "./i18n.js";
import { loadDigest, renderDigest } from "./views/digest.js";
import { loadIndex, renderIndex } from "./views/index.js";
import { loadTopic, renderTopic } from "./views/topic.js";

const main = document.getElementById("main");
const isPreview = document.body.dataset.mode === "preview";
let filterQuery = "";
let renderCount = 0;

/** The view for a path: "/" is the index, "/<topic>/" a topic, "/<topic>/<digest>/" a digest. */
async function liveView(lang, pathname) {
  const parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const home = t("home");
  if (parts.length === 0) {
    const data = await loadIndex(lang);
    return data && renderIndex(data, { query: filterQuery, onQuery: (query) => (filterQuery = query) });
  }
  if (parts.length === 1) {
    const data = await loadTopic(lang, parts[0]);
    return data && renderTopic(data, { home });
  }
  if (parts.length === 2) {
    const data = await loadDigest(lang, parts[0], parts[1]);
    return data && renderDigest(data, { home });
  }
  return null;
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
  rendered.view.prepend(h("p", { class: "preview-banner", role: "note" }, t("preview")));
  return rendered;
}

async function render({ moveFocus = false } = {}) {
  const current = ++renderCount;
  main.setAttribute("aria-busy", "true");
  updateChrome();
  let rendered;
  try {
    rendered = isPreview ? await previewView() : await liveView(language(), window.location.pathname);
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
  document.querySelector(".site-title").textContent = t("siteTitle");
  document.getElementById("lang-switch-label").textContent = t("language");
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === language()));
    button.hidden = isPreview;
  }
}

document.addEventListener("click", (event) => {
  const switcher = event.target.closest("[data-lang]");
  if (switcher) {
    if (switcher.dataset.lang !== language()) {
      setLanguage(switcher.dataset.lang);
      render();
    }
    return;
  }
  const link = event.target.closest("a[data-route]");
  if (!link || isPreview || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  if (link.pathname !== window.location.pathname) history.pushState({}, "", link.pathname);
  render({ moveFocus: true });
});

window.addEventListener("popstate", () => render({ moveFocus: true }));

setLanguage(isPreview ? "en" : initialLanguage(), { remember: false });
render();
