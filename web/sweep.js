// The sweep panel: vary one numeric input over a range (POST …/sweep) and plot one or
// more number outputs against it with uPlot (served by toolcalc from npm's uplot; the
// global `uPlot` comes from vendor/uPlot.iife.min.js). A data table under the plot gives
// the same numbers to keyboard and screen-reader users.
import { postJson, curlCommand } from "./api.js";
import { h, idFor } from "./dom.js";
import { clearErrors, labelText, numericInputs, readInputs, showFieldError } from "./form.js";
import { formatOutput } from "./results.js";

const MAX_POINTS = 200;

// A starting range around the current value, inside the input's bounds.
function defaultRange(input, current) {
  const lo = input.min ?? -Infinity;
  const hi = input.max ?? Infinity;
  const v = Number.isFinite(current) ? current : Number(input.default ?? 0);
  let from = v !== 0 ? v / 2 : Number.isFinite(lo) ? lo : -1;
  let to = v !== 0 ? v * 2 : Number.isFinite(hi) ? hi : 1;
  from = Math.min(Math.max(from, lo), hi);
  to = Math.min(Math.max(to, lo), hi);
  if (from === to) {
    from = Number.isFinite(lo) ? lo : from - 1;
    to = Number.isFinite(hi) ? hi : to + 1;
  }
  if (input.type === "integer") {
    from = Math.ceil(from);
    to = Math.floor(to);
  }
  // Six significant digits for the form, kept inside the bounds (a bound such as 99.99999
  // would round past itself to 100).
  const round = (x) => Math.min(Math.max(Number(x.toPrecision(6)), lo), hi);
  return { from: round(from), to: round(to) };
}

function defaultPoints(input, from, to) {
  return input.type === "integer" ? Math.max(2, Math.min(50, Math.abs(to - from) + 1)) : 50;
}

export function renderSweepPanel(tool, toolForm, hooks) {
  const numeric = numericInputs(tool.inputs);
  const outputs = tool.outputs.filter((o) => o.type === "number");
  if (numeric.length === 0 || outputs.length === 0) return h("p", {}, "This tool has no numeric input to sweep.");

  const vary = h("select", { id: "sweep-key", name: "key", "data-key": "vary.key",
                              "aria-describedby": "sweep-key-error" },
    numeric.map((i) => h("option", { value: i.key }, labelText(i))));
  const num = (id, name) => h("input", { id, name, type: "number", step: "any", inputmode: "decimal",
                                          "data-key": `vary.${name}`, "aria-describedby": `${id}-error` });
  const from = num("sweep-from", "from");
  const to = num("sweep-to", "to");
  const points = h("input", { id: "sweep-points", name: "points", type: "number", min: 2, max: MAX_POINTS,
                              step: 1, inputmode: "numeric", "data-key": "vary.points",
                              "aria-describedby": "sweep-points-hint sweep-points-error" });
  const error = (key) => h("p", { id: `sweep-${key}-error`, class: "error", "data-error-for": `vary.${key}`, hidden: true });
  const field = (id, label, el, key, hint) => h("div", { class: "field" },
    h("label", { for: id }, label), el, hint, error(key));

  const outputBoxes = outputs.map((o, i) => h("div", { class: "field-check" },
    h("input", { type: "checkbox", id: idFor("sweep-out", o.key), name: "outputs", value: o.key, checked: i === 0 }),
    h("label", { for: idFor("sweep-out", o.key) }, labelText(o))));

  const resetRange = () => {
    const input = numeric.find((i) => i.key === vary.value);
    const current = Number(toolForm.elements.namedItem(input.key)?.value);
    const r = defaultRange(input, current);
    from.value = r.from;
    to.value = r.to;
    from.step = to.step = input.type === "integer" ? 1 : "any";
    points.value = defaultPoints(input, r.from, r.to);
  };
  vary.addEventListener("change", resetRange);

  const status = h("p", { class: "form-error", role: "alert", hidden: true });
  const plotBox = h("div", { class: "plot", id: "sweep-plot" });
  const table = h("div", { class: "table-wrap" });
  const curl = h("pre", { class: "curl", id: "sweep-curl" }, h("code"));

  const form = h("form", { id: "sweep-form", class: "sweep-form", novalidate: true },
    h("div", { class: "grid" },
      field("sweep-key", "Input to vary", vary, "key"),
      field("sweep-from", "From", from, "from"),
      field("sweep-to", "To", to, "to"),
      field("sweep-points", "Points", points, "points",
        h("p", { id: "sweep-points-hint", class: "hint" }, `2 to ${MAX_POINTS}; each point uses one unit of the monthly quota.`))),
    h("fieldset", {}, h("legend", {}, "Outputs to plot"), outputBoxes),
    h("button", { type: "submit" }, "Run sweep"),
    status);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    clearErrors(toolForm);
    status.hidden = true;
    const chosen = [...form.querySelectorAll('input[name="outputs"]:checked')].map((b) => b.value);
    if (chosen.length === 0) {
      status.textContent = "Choose at least one output to plot.";
      status.hidden = false;
      return;
    }
    const asNumber = (el) => (el.value.trim() === "" ? el.value : Number(el.value));
    const payload = {
      inputs: readInputs(toolForm, tool.inputs),
      vary: { key: vary.value, from: asNumber(from), to: asNumber(to), points: asNumber(points) },
    };
    const path = `${tool.endpoint}/sweep`;
    curl.firstChild.textContent = curlCommand(path, payload);
    const { status: code, body } = await postJson(path, payload);
    hooks.onSweep?.({ request: payload, status: code, body });
    if (!body.ok) {
      const field = body.error?.field ?? "";
      const shown = field.startsWith("inputs.")
        ? showFieldError(toolForm, field.slice("inputs.".length), body.error.message)
        : field && showFieldError(form, field, body.error.message);
      if (!shown) {
        status.textContent = `${body.error?.code ?? code}: ${body.error?.message ?? "request failed"}`;
        status.hidden = false;
      }
      return;
    }
    drawSweep(plotBox, table, tool, body.result, chosen, hooks);
  });

  resetRange();
  return h("section", { class: "sweep", "aria-labelledby": "sweep-title" },
    h("h2", { id: "sweep-title" }, "Sweep"),
    h("p", { class: "hint" }, "Plot how outputs move as one input runs over a range; the other inputs keep the values in the form above."),
    form, plotBox, table,
    h("details", {}, h("summary", {}, "curl for this sweep"), curl));
}

function drawSweep(plotBox, tableBox, tool, result, chosen, hooks) {
  const input = tool.inputs.find((i) => i.key === result.key);
  const outs = chosen.map((k) => tool.outputs.find((o) => o.key === k));
  const xs = result.points.map((p) => Number(p.x));
  const ys = outs.map((o) => result.points.map((p) => (p.result ? Number(p.result[o.key]) : null)));

  // One scale per unit: the first on the left axis, the second on the right.
  const units = [...new Set(outs.map((o) => o.unit ?? ""))];
  const palette = ["#1f4e79", "#c0392b", "#2e7d32", "#8e44ad", "#d35400", "#00838f"];
  const width = Math.max(280, Math.min(plotBox.clientWidth || 640, 900));
  const opts = {
    title: `${outs.map((o) => o.label).join(", ")} vs ${input.label}`,
    width,
    height: Math.round(Math.min(360, width * 0.6)),
    scales: { x: { time: false } },
    series: [
      { label: labelText(input) },
      ...outs.map((o, i) => ({ label: labelText(o), scale: `u${units.indexOf(o.unit ?? "")}`,
                                stroke: palette[i % palette.length], width: 2, spanGaps: false,
                                value: (u, v) => (v == null ? "—" : v) })),
    ],
    axes: [
      { label: labelText(input) },
      ...units.slice(0, 2).map((unit, i) => ({ scale: `u${i}`, label: unit, side: i === 0 ? 3 : 1,
                                               grid: { show: i === 0 } })),
    ],
  };
  plotBox.replaceChildren();
  const plot = new window.uPlot(opts, [xs, ...ys], plotBox);
  plotBox.setAttribute("role", "img");
  plotBox.setAttribute("aria-label", `${opts.title}: ${xs.length} points from ${xs[0]} to ${xs[xs.length - 1]}`);

  const failed = result.points.filter((p) => p.error).length;
  tableBox.replaceChildren(...[
    failed ? h("p", { class: "hint" }, `${failed} of ${xs.length} points have no result (the tool refused those inputs); they are gaps in the plot.`) : null,
    h("details", {}, h("summary", {}, `Data table (${xs.length} points)`),
      h("table", { class: "data", id: "sweep-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, labelText(input)),
          outs.map((o) => h("th", { scope: "col" }, labelText(o))))),
        h("tbody", {}, result.points.map((p) => h("tr", {},
          h("th", { scope: "row" }, String(p.x)),
          outs.map((o) => h("td", {}, p.result ? formatOutput(o, p.result[o.key]) : p.error.message))))))),
  ].filter(Boolean));
  hooks.onPlot?.(plot);
}
