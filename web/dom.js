// A small element builder: h("p", {class: "hint"}, "text", child, …). Text is always set
// as text (never as HTML), so names and messages from the API cannot inject markup.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// A CSS- and id-safe token for an input key.
export const idFor = (prefix, key) => `${prefix}-${key.replace(/[^A-Za-z0-9_-]/g, "_")}`;
