// StreamField blocks (digest body, topic commentary) from the API's JSON into elements.

import { h, richText } from "./dom.js";

let tableCount = 0;

const RENDERERS = {
  heading: ({ text, level }) => h(["h2", "h3", "h4"].includes(level) ? level : "h2", {}, text),
  paragraph: (html) => h("div", { class: "rich-text" }, richText(html)),
  figure: (value) => figure(value),
  table: ({ caption, header, rows }) => {
    const id = `block-table-${++tableCount}`;
    return h(
      "div",
      { class: "table-scroll", role: "region", tabindex: "0", "aria-labelledby": caption ? id : null },
      h(
        "table",
        {},
        caption ? h("caption", { id }, caption) : null,
        header?.length ? h("thead", {}, h("tr", {}, header.map((cell) => h("th", { scope: "col" }, cell)))) : null,
        h("tbody", {}, (rows || []).map((row) => h("tr", {}, row.map((cell) => h("td", {}, cell))))),
      ),
    );
  },
  quote: ({ text, attribution }) =>
    h("figure", { class: "quote" }, h("blockquote", {}, h("p", {}, text)), attribution ? h("figcaption", {}, attribution) : null),
  code: ({ language, code }) => h("pre", { class: "code" }, h("code", { class: `language-${language}` }, code)),
  // LaTeX is shown as source: typesetting it would need a math library, and nothing is fetched.
  equation: ({ latex }) => h("pre", { class: "equation" }, h("code", {}, latex)),
};

export function renderBlocks(blocks) {
  return blocks.map((block) => RENDERERS[block.type]?.(block.value) ?? null);
}

function figure({ image, caption, alt_text: alt }) {
  const img = h("img", { alt: alt || "", loading: "lazy", decoding: "async" });
  const element = h("figure", { class: "figure" }, img, caption ? h("figcaption", {}, caption) : null);
  // The image API gives the file's URL; the page is shown meanwhile.
  fetch(`/api/v2/images/${encodeURIComponent(image)}/`, { headers: { Accept: "application/json" } })
    .then((response) => (response.ok ? response.json() : null))
    .then((data) => {
      if (data?.meta?.download_url) img.src = data.meta.download_url;
      else element.remove();
    })
    .catch(() => element.remove());
  return element;
}
