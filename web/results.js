// Results as the API wrote them: each number keeps its text ("0.50" stays "0.50"), so the
// page shows exactly the output's precision; the unit follows.
import { RawNumber } from "./api.js";
import { h } from "./dom.js";

export function formatOutput(output, value) {
  if (value instanceof RawNumber) return value.text;
  if (typeof value === "number" && output.type === "number") return value.toFixed(output.precision ?? 0);
  return String(value);
}

export function renderResults(tool, result) {
  return h("table", { class: "results", id: "results-table" },
    h("caption", {}, "Results"),
    h("tbody", {}, tool.outputs.map((o) => h("tr", {},
      h("th", { scope: "row" }, o.label),
      h("td", { class: "value", "data-output": o.key }, formatOutput(o, result[o.key])),
      h("td", { class: "unit" }, o.unit ?? "")))));
}
