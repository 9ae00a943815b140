// The "Cite" control of a digest page: the paper's citation in one of the API's formats
// (/api/v2/papers/<id>/cite/), shown as text and copied with the Clipboard API.

import { citation } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

// Format names are the same in both languages.
export const CITE_FORMATS = [
  { id: "bibtex", label: "BibTeX", params: { format: "bibtex" } },
  { id: "ris", label: "RIS", params: { format: "ris" } },
  { id: "csl-json", label: "CSL-JSON", params: { format: "csl-json" } },
  { id: "acm", label: "ACM", params: { format: "text", style: "acm" } },
  { id: "ieee", label: "IEEE", params: { format: "text", style: "ieee" } },
];

/** A disclosure with a format menu, the citation, and a copy button; loads on first open. */
export function citeControl(paperId) {
  const select = h(
    "select",
    { id: "cite-format", class: "cite__format" },
    CITE_FORMATS.map((format) => h("option", { value: format.id }, format.label)),
  );
  const output = h("pre", { class: "cite__output", tabindex: "0", "aria-labelledby": "cite-heading" });
  const copy = h("button", { type: "button", class: "cite__copy", disabled: true }, t("copy"));
  const status = h("p", { class: "cite__status", role: "status" });
  let text = "";
  let requests = 0;

  async function show() {
    const request = ++requests;
    const format = CITE_FORMATS.find((each) => each.id === select.value);
    text = "";
    copy.disabled = true;
    status.textContent = "";
    output.textContent = t("loading");
    try {
      const loaded = await citation(paperId, format.params);
      if (request !== requests) return; // another format was picked meanwhile
      text = loaded;
      output.textContent = loaded;
      copy.disabled = false;
    } catch (error) {
      if (request !== requests) return;
      output.textContent = "";
      status.textContent = t("citeError");
      console.error(error);
    }
  }

  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = t("copied", { format: select.selectedOptions[0].textContent });
    } catch {
      status.textContent = t("copyFailed"); // no permission or no secure context
    }
  });
  select.addEventListener("change", show);

  const control = h(
    "details",
    { class: "cite" },
    h("summary", { id: "cite-heading" }, t("cite")),
    h(
      "div",
      { class: "cite__bar" },
      h("label", { for: "cite-format" }, t("citeFormat")),
      select,
      copy,
    ),
    output,
    status,
  );
  control.addEventListener("toggle", () => {
    if (control.open && !text) show();
  });
  return control;
}
