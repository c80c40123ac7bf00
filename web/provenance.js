// "Where the numbers come from": a tool's method, references and worked examples with their
// published sources, from GET /v1/tools/{slug} (the details record). Each example can be
// loaded into the form and run, so the page's result can be set beside the source's.
import { h } from "./dom.js";
import { labelText } from "./form.js";

const text = (v) => (typeof v === "string" ? v : JSON.stringify(v));

// One "key = value unit" line per member of `values`, labelled from the tool's inputs or
// outputs (`items`).
function valueList(values, items, cls) {
  return h("ul", { class: `values ${cls}` }, Object.entries(values).map(([key, value]) => {
    const item = items.find((i) => i.key === key);
    return h("li", { "data-key": key },
      h("span", { class: "name" }, item ? labelText(item) : key), ": ",
      h("span", { class: "value" }, text(value)));
  }));
}

function renderExample(details, example, index, onUse) {
  const id = `example-${index + 1}`;
  const tolerance = example.tolerance_pct !== undefined
    ? `Matches when within ${example.tolerance_pct} % plus half a unit in the last place of each output's precision.`
    : null;
  return h("article", { class: "example", id, "data-example": index, "aria-labelledby": `${id}-title` },
    h("h4", { id: `${id}-title` }, example.title),
    h("p", { class: "example-label" }, "Inputs (the others at their defaults):"),
    valueList(example.body, details.inputs, "example-inputs"),
    example.expected
      ? [h("p", { class: "example-label" }, "The source gives:"),
         valueList(example.expected, details.outputs, "example-expected")]
      : null,
    tolerance ? h("p", { class: "hint" }, tolerance) : null,
    example.source
      ? h("p", { class: "source" }, h("span", { class: "example-label" }, "Source: "),
          h("cite", { "data-source": index }, example.source))
      : h("p", { class: "hint no-source" }, "No published source: an example of the method, not a verification vector."),
    h("button", { type: "button", class: "secondary", "data-use-example": index,
                  onclick: () => onUse(example) }, "Run this example"));
}

// The section; `onUse(example)` puts the example's inputs into the form and submits it.
export function renderProvenance(details, onUse) {
  const method = [
    details.standard
      ? h("p", { id: "method-standard" }, h("strong", {}, "Standard: "), details.standard)
      : h("p", { id: "method-standard" }, "No standard governs this calculation; the references below give its formula and constants."),
    h("p", { id: "method-docs" }, "Formula, constants, bounds and the reasons for them: ",
      h("code", {}, details.docs), " in the toolcalc repository."),
  ];
  return h("section", { id: "provenance", "aria-labelledby": "provenance-title" },
    h("h2", { id: "provenance-title" }, "Where the numbers come from"),
    h("h3", { id: "method-title" }, "Method"),
    h("p", { id: "method-description" }, details.description),
    method,
    h("h3", { id: "references-title" }, "References"),
    h("ol", { id: "references", class: "references" }, details.references.map((r) => h("li", {}, r))),
    h("h3", { id: "examples-title" }, "Worked examples"),
    details.examples.length === 0
      ? h("p", { class: "hint" }, "This tool has no worked example yet.")
      : h("p", { class: "hint" }, "An example with a source is a published calculation: its inputs, the outputs the source states, and the source; the test suite checks each one against the API."),
    h("div", { id: "examples" }, details.examples.map((ex, i) => renderExample(details, ex, i, onUse))));
}
