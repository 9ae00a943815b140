// The reader's own strings (UI chrome) in both languages; content strings come from the API.
// The counts line, empty-filter message and reading-time pattern are the published site's own.

export const LANGS = ["en", "zh-hant"]; // settings.LANGUAGES
export const DEFAULT_LANG = "en"; // settings.LANGUAGE_CODE: the language without an address prefix
const STORAGE_KEY = "reader.lang";

// BCP 47 tags for lang attributes; the API's locale codes are lower-case.
export const HTML_LANG = { en: "en", "zh-hant": "zh-Hant" };

const STRINGS = {
  en: {
    skipLink: "Skip to content",
    language: "Language",
    loading: "Loading…",
    loadError: "The digests could not be loaded. Please try again later.",
    notFound: "There is no page at this address.",
    notTranslated: "This page has no English version yet.",
    readOther: "It is available in Traditional Chinese:",
    siteTitle: "Research digests",
    counts: "{papers} papers · {topics} topics",
    readingTime: "{n} min",
    emptyFilter: "No digest matches.",
    filterLabel: "Filter digests",
    filterHint: "Matches names, titles, venues, institutions and summaries in either language.",
    topics: "Topics",
    home: "All topics",
    breadcrumb: "Breadcrumb",
    finishFirst: "Finish this chapter first",
    labelEnd: ": ",
    comparison: "Comparison",
    comparisonCaption: "The papers in this topic side by side",
    colDigest: "Digest",
    colVenue: "Venue",
    colYear: "Year",
    colAuthors: "Authors and affiliations",
    colReading: "Reading time",
    paper: "The paper",
    authors: "Authors",
    affiliations: "Affiliations",
    doi: "DOI",
    links: "Links",
    abstract: "Abstract",
    etAl: "et al.",
    figure: "Figure",
    orcid: "ORCID of {name}",
    preview: "Preview of unpublished changes: readers still see the published version.",
    previewNeverPublished: "Preview of a page that has not been published yet: readers cannot see it.",
    feed: "Atom feed of new digests",
    cite: "Cite",
    citeFormat: "Format",
    copy: "Copy",
    copied: "{format} citation copied to the clipboard.",
    copyFailed: "Could not copy: select the citation and copy it yourself.",
    citeError: "The citation could not be loaded. Please try again later.",
    notTranslatedYet: "Not translated yet: shown in English.",
    notTranslatedYetShort: "Not translated yet",
    retractedBanner: "This paper has been retracted.",
    correctedBanner: "A correction to this paper has been published.",
    concernBanner: "An expression of concern about this paper has been published.",
    updatedBanner: "This paper has been updated since it was published.",
    seeNotice: "The notices:",
    noticeRetraction: "Retraction",
    noticeCorrection: "Correction",
    noticeConcern: "Expression of concern",
    noticeWithdrawal: "Withdrawal",
    retractedFlag: "Retracted",
    correctedFlag: "Corrected",
  },
  "zh-hant": {
    skipLink: "跳到主要內容",
    language: "語言",
    loading: "載入中…",
    loadError: "無法載入導讀,請稍後再試。",
    notFound: "這個網址沒有頁面。",
    notTranslated: "這個頁面還沒有中文版本。",
    readOther: "這個頁面有英文版:",
    siteTitle: "研究導讀",
    counts: "{papers} 篇 · {topics} 個主題",
    readingTime: "{n} 分鐘",
    emptyFilter: "沒有符合的導讀。",
    filterLabel: "篩選導讀",
    filterHint: "比對兩種語言的名稱、標題、會議、單位與摘要。",
    topics: "主題",
    home: "所有主題",
    breadcrumb: "導覽路徑",
    finishFirst: "先讀完這一章",
    labelEnd: "：",
    comparison: "比較",
    comparisonCaption: "本主題論文並列比較",
    colDigest: "導讀",
    colVenue: "會議",
    colYear: "年份",
    colAuthors: "作者與單位",
    colReading: "閱讀時間",
    paper: "論文",
    authors: "作者",
    affiliations: "單位",
    doi: "DOI",
    links: "連結",
    abstract: "摘要",
    etAl: "等人",
    figure: "圖",
    orcid: "{name} 的 ORCID",
    preview: "未發布變更的預覽:讀者看到的仍是已發布的版本。",
    previewNeverPublished: "尚未發布頁面的預覽：讀者還看不到這個頁面。",
    feed: "新導讀的 Atom 訂閱",
    cite: "引用",
    citeFormat: "格式",
    copy: "複製",
    copied: "已將 {format} 引用格式複製到剪貼簿。",
    copyFailed: "無法複製:請選取引用文字後自行複製。",
    citeError: "無法載入引用格式,請稍後再試。",
    notTranslatedYet: "尚未翻譯：以下為英文原文。",
    notTranslatedYetShort: "尚未翻譯",
    retractedBanner: "這篇論文已被撤回。",
    correctedBanner: "這篇論文已發表更正。",
    concernBanner: "這篇論文已被發表關注聲明。",
    updatedBanner: "這篇論文發表後已有更新。",
    seeNotice: "相關聲明：",
    noticeRetraction: "撤回聲明",
    noticeCorrection: "更正",
    noticeConcern: "關注聲明",
    noticeWithdrawal: "撤稿聲明",
    retractedFlag: "已撤回",
    correctedFlag: "已更正",
  },
};

let current = DEFAULT_LANG;

/**
 * The language to show: the address's prefix (`addressLang`, e.g. "zh-hant" for /zh-hant/...),
 * then an old link's ?lang=, then the choice saved by the language switch, then the browser's.
 */
export function languageToShow(addressLang, search = window.location.search) {
  if (LANGS.includes(addressLang)) return addressLang;
  const asked = new URLSearchParams(search).get("lang");
  if (LANGS.includes(asked)) return asked;
  const saved = readSaved();
  if (LANGS.includes(saved)) return saved;
  const preferred = (navigator.languages || [navigator.language || "en"]).map((tag) =>
    tag.toLowerCase(),
  );
  const zh = preferred.findIndex((tag) => /^zh-(hant|tw|hk|mo)/.test(tag));
  const en = preferred.findIndex((tag) => tag.startsWith("en"));
  return zh !== -1 && (en === -1 || zh < en) ? "zh-hant" : DEFAULT_LANG;
}

function readSaved() {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage disabled (private mode, sandboxed frame): fall back quietly
  }
}

/**
 * Switch the UI language; `remember` saves it as the visitor's choice (the language switch does;
 * a language that comes from the address or a preview's page is shown without being saved).
 */
export function setLanguage(lang, { remember = true } = {}) {
  current = LANGS.includes(lang) ? lang : DEFAULT_LANG;
  document.documentElement.lang = HTML_LANG[current];
  if (remember) {
    try {
      window.localStorage.setItem(STORAGE_KEY, current);
    } catch {
      // Not saved; the switch still applies to this visit.
    }
  }
  return current;
}

/** The language the server rendered the shell in (its <html lang>); the default if unknown. */
export function shellLanguage() {
  const tag = document.documentElement.lang;
  return LANGS.find((lang) => HTML_LANG[lang] === tag) || DEFAULT_LANG;
}

export function language() {
  return current;
}

export function otherLanguage(lang = current) {
  return lang === "en" ? "zh-hant" : "en";
}

/** A UI string in the current language, with {name} placeholders filled in. */
export function t(key, values = {}) {
  const template = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (match, name) =>
    name in values ? String(values[name]) : match,
  );
}
