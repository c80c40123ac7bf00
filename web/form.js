// The tool form, generated from the tool's schema (GET /v1/{domain}/{slug}/schema):
// labels with units, help, min/max/step, defaults, <select> for enums, a checkbox for
// booleans. The browser's own constraint checks are off (novalidate): the API validates,
// and its error is shown beside the field it names.
import { h, idFor } from "./dom.js";

const numeric = (input) => input.type === "number" || input.type === "integer";

export function labelText(item) {
  return item.unit ? `${item.label} (${item.unit})` : item.label;
}

function control(input) {
  const id = idFor("in", input.key);
  const described = [input.help ? `${id}-help` : null, `${id}-error`].filter(Boolean).join(" ");
  const common = { id, name: input.key, "aria-describedby": described, "data-key": input.key };
  if (input.type === "enum") {
    return h("select", common,
      input.options.map((o) => h("option", { value: o, selected: o === input.default }, o)));
  }
  if (input.type === "boolean") {
    return h("input", { ...common, type: "checkbox", checked: input.default === true });
  }
  return h("input", {
    ...common,
    type: "number",
    inputmode: input.type === "integer" ? "numeric" : "decimal",
    min: input.min, max: input.max,
    step: input.step ?? (input.type === "integer" ? 1 : "any"),
    value: input.default,
    required: input.required,
  });
}

export function renderField(input) {
  const id = idFor("in", input.key);
  const isBool = input.type === "boolean";
  const range = numeric(input) && (input.min !== undefined || input.max !== undefined)
    ? ` Range ${input.min ?? "−∞"} to ${input.max ?? "∞"}.` : "";
  return h("div", { class: isBool ? "field field-check" : "field", "data-field": input.key },
    isBool ? [control(input), h("label", { for: id }, labelText(input))]
           : [h("label", { for: id }, labelText(input)), control(input)],
    input.help || range ? h("p", { id: `${id}-help`, class: "hint" }, (input.help ?? "") + range) : null,
    h("p", { id: `${id}-error`, class: "error", "data-error-for": input.key, hidden: true }));
}

// The request body from the form: numbers as numbers (an empty box is left out, so an
// optional input takes its default and a required one is reported by the API).
export function readInputs(form, inputs) {
  const body = {};
  for (const input of inputs) {
    const el = form.elements.namedItem(input.key);
    if (!el) continue;
    if (input.type === "boolean") body[input.key] = el.checked;
    else if (input.type === "enum") body[input.key] = el.value;
    else if (el.value.trim() !== "") {
      const n = Number(el.value);
      body[input.key] = Number.isFinite(n) ? n : el.value;
    }
  }
  return body;
}

// Puts `values` into the form: each input its value there, else its default.
export function fillInputs(form, inputs, values) {
  for (const input of inputs) {
    const el = form.elements.namedItem(input.key);
    if (!el) continue;
    const v = input.key in values ? values[input.key] : input.default;
    if (input.type === "boolean") el.checked = v === true;
    else el.value = String(v);
  }
  form.dispatchEvent(new Event("change"));
}

export function clearErrors(root) {
  for (const p of root.querySelectorAll("[data-error-for]")) {
    p.hidden = true;
    p.textContent = "";
  }
  for (const el of root.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
}

// Shows `error.message` beside the control whose data-key is `key`; false when no such
// field is on the page (the caller shows it at the top of the form instead).
export function showFieldError(root, key, message) {
  const p = root.querySelector(`[data-error-for="${CSS.escape(key)}"]`);
  if (!p) return false;
  p.textContent = message;
  p.hidden = false;
  const control = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (control) {
    control.setAttribute("aria-invalid", "true");
    control.focus();
  }
  return true;
}

export const numericInputs = (inputs) => inputs.filter(numeric);
