// A tiny element builder: content goes in as text nodes, so API strings can never become markup.

/**
 * h("a", { href: "/x", class: "y" }, "text", childNode, [more, children])
 * Attributes set to null/undefined/false are left out; `true` sets an empty attribute.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Rich text as Wagtail expands it (`rich_text_format=html`). It is trusted exactly as far as
 * Wagtail's own `|richtext` template filter trusts it: the editor stores it through Wagtail's
 * element whitelist. Parsed in an inert <template>, then moved into the page.
 */
export function richText(html) {
  const template = document.createElement("template");
  template.innerHTML = html || "";
  return template.content;
}
