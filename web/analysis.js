// The Tolerances and Solve panels (docs/playground.md, docs/analysis.md):
//   Tolerances: a ± % box per numeric input (empty: exact), the distribution and the number
//     of Monte Carlo samples → POST …/tolerance; a table per output (nominal, worst case,
//     RSS, Monte Carlo), the histogram of one output (uPlot bars) and its sensitivity bars.
//   Solve: the input to vary, the output and its target value → POST …/solve; the values
//     found with the output there, or the API's message (NO_SOLUTION gives the reachable
//     range).
// The other inputs are the tool form's, as for the sweep panel.
import { curlCommand, postJson, RawNumber } from "./api.js";
import { h, idFor } from "./dom.js";
import { clearErrors, labelText, numericInputs, readInputs, showFieldError } from "./form.js";
import { formatOutput } from "./results.js";

const text = (v) => (v instanceof RawNumber ? v.text : String(v));

// Shows an API error beside the field it names (inputs.* in the tool form, the rest in the
// panel), else in the panel's alert.
function showError(body, code, toolForm, panelForm, status) {
  const e = body.error ?? {};
  const field = e.field ?? "";
  const shown = field.startsWith("inputs.")
    ? showFieldError(toolForm, field.slice("inputs.".length), e.message)
    : field && showFieldError(panelForm, field, e.message);
  if (!shown) {
    status.textContent = `${e.code ?? code}: ${e.message ?? "request failed"}`;
    status.hidden = false;
  }
}

// ±1 % on the first numeric input whose default leaves room for it within its bounds.
function prefilledKey(numeric) {
  const fits = (i) => {
    const v = Number(i.default ?? 0);
    const half = Math.abs(v) / 100;
    if (v === 0 || (i.type === "integer" && half < 1)) return false;
    return (i.min === undefined || v - half >= i.min) && (i.max === undefined || v + half <= i.max);
  };
  return numeric.find(fits)?.key;
}

export function renderTolerancePanel(tool, toolForm, hooks) {
  const numeric = numericInputs(tool.inputs);
  if (numeric.length === 0) return h("p", {}, "This tool has no numeric input to put a tolerance on.");
  const first = prefilledKey(numeric);

  const rows = numeric.map((i) => {
    const id = idFor("tol-pct", i.key);
    const box = h("input", { id, name: i.key, type: "number", min: 0, step: "any", inputmode: "decimal",
                             value: i.key === first ? 1 : undefined, "data-key": `tolerances.${i.key}`,
                             "aria-describedby": `${id}-error` });
    return h("div", { class: "field" }, h("label", { for: id }, `± % on ${labelText(i)}`), box,
      h("p", { id: `${id}-error`, class: "error", "data-error-for": `tolerances.${i.key}`, hidden: true }),
      h("p", { class: "error", "data-error-for": `tolerances.${i.key}.pct`, hidden: true }));
  });
  const distribution = h("select", { id: "tol-distribution", name: "distribution", "data-key": "distribution" },
    h("option", { value: "normal" }, "normal (± is 3σ, truncated)"), h("option", { value: "uniform" }, "uniform"));
  const samples = h("input", { id: "tol-samples", name: "samples", type: "number", min: 100, max: 100000, step: 1,
                               value: 10000, inputmode: "numeric", "data-key": "samples",
                               "aria-describedby": "tol-samples-hint tol-samples-error" });
  const status = h("p", { class: "form-error", role: "alert", hidden: true });
  const out = h("div", { id: "tol-results", "aria-live": "polite" });
  const curl = h("pre", { class: "curl", id: "tol-curl" }, h("code"));
  const form = h("form", { id: "tol-form", class: "tol-form", novalidate: true },
    h("div", { class: "grid" }, rows,
      h("div", { class: "field" }, h("label", { for: "tol-distribution" }, "Distribution"), distribution,
        h("p", { class: "error", "data-error-for": "distribution", hidden: true })),
      h("div", { class: "field" }, h("label", { for: "tol-samples" }, "Monte Carlo samples"), samples,
        h("p", { id: "tol-samples-hint", class: "hint" }, "100 to 100,000; one unit of the monthly quota per 1,000 evaluations."),
        h("p", { id: "tol-samples-error", class: "error", "data-error-for": "samples", hidden: true }))),
    h("button", { type: "submit" }, "Run tolerance analysis"), status);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    clearErrors(toolForm);
    status.hidden = true;
    const tolerances = {};
    for (const i of numeric) {
      const v = form.elements.namedItem(i.key).value.trim();
      if (v !== "") tolerances[i.key] = { pct: Number.isFinite(Number(v)) ? Number(v) : v };
    }
    const n = samples.value.trim();
    const payload = { inputs: readInputs(toolForm, tool.inputs), tolerances,
                      distribution: distribution.value, samples: n === "" ? n : Number(n) };
    const path = `${tool.endpoint}/tolerance`;
    curl.firstChild.textContent = curlCommand(path, payload);
    const { status: code, body } = await postJson(path, payload);
    hooks.onTolerance?.({ request: payload, status: code, body });
    if (!body.ok) {
      out.replaceChildren();
      showError(body, code, toolForm, form, status);
      return;
    }
    renderToleranceResult(out, tool, body.result, hooks);
  });

  return h("section", { class: "analysis", "aria-labelledby": "tol-title" },
    h("h2", { id: "tol-title" }, "Tolerances"),
    h("p", { class: "hint" }, "Give inputs a ± tolerance: worst case over every corner and sample, " +
      "first-order (RSS) spread, Monte Carlo statistics and which input matters most. The other " +
      "inputs keep the values in the form above."),
    form, out, h("details", {}, h("summary", {}, "curl for this analysis"), curl));
}

function statRows(o, n) {
  const wc = n.worst_case;
  const mc = n.monte_carlo;
  const unit = o.unit ? ` ${o.unit}` : "";
  const row = (label, ...values) => h("tr", {}, h("th", { scope: "row" }, label),
    h("td", { class: "value" }, values.map(text).join(" … ") + unit));
  return [
    row("nominal", n.nominal),
    row("worst case", wc.min, wc.max),
    n.rss ? row("RSS ±3σ", n.rss.min, n.rss.max) : row("RSS", "not available"),
    n.rss ? row("RSS σ", n.rss.sigma) : null,
    row("Monte Carlo mean", mc.mean),
    row("Monte Carlo σ", mc.std),
    row("p1 … p99", mc.p1, mc.p99),
    row("p5 … p95", mc.p5, mc.p95),
  ].filter(Boolean);
}

function renderToleranceResult(box, tool, result, hooks) {
  const numbers = tool.outputs.filter((o) => o.type === "number");
  const texts = tool.outputs.filter((o) => o.type !== "number");
  const failed = Number(result.failed_samples);
  const tables = tool.outputs.map((o) => {
    const r = result.outputs[o.key];
    if (o.type === "number") {
      return h("table", { class: "results tol-table", id: idFor("tol-table", o.key), "data-output": o.key },
        h("caption", {}, labelText(o)), h("tbody", {}, statRows(o, r)));
    }
    return h("table", { class: "results tol-table", id: idFor("tol-table", o.key), "data-output": o.key },
      h("caption", {}, o.label),
      h("tbody", {},
        r.samples.map((c) => h("tr", {}, h("th", { scope: "row" }, c.value),
          h("td", { class: "value" }, `${text(c.count)} samples`))),
        h("tr", {}, h("th", { scope: "row" }, "at the corners"), h("td", {}, r.corners.join(", ")))));
  });

  const chosen = h("select", { id: "tol-output", "aria-label": "Output shown in the histogram and sensitivity" },
    numbers.map((o) => h("option", { value: o.key }, labelText(o))));
  const plotBox = h("div", { class: "plot", id: "tol-histogram" });
  const bars = h("div", { id: "tol-sensitivity", class: "sensitivity" });
  const draw = () => {
    const o = numbers.find((x) => x.key === chosen.value);
    drawHistogram(plotBox, o, result.outputs[o.key].monte_carlo, hooks);
    drawSensitivity(bars, tool, o, result.outputs[o.key]);
  };
  chosen.addEventListener("change", draw);
  box.replaceChildren(...[
    h("p", { class: "hint" }, `${text(result.samples)} samples, seed ${text(result.seed)}, ` +
      `${text(result.evaluations)} evaluations of the tool.`),
    failed ? h("p", { class: "hint", id: "tol-failed" }, `${failed} samples had no result (the tool refused ` +
      `those inputs): ${result.first_failed_sample.message}`) : null,
    h("div", { class: "tol-tables" }, tables),
    numbers.length ? h("div", { class: "field" }, h("label", { for: "tol-output" }, "Histogram and sensitivity of"), chosen) : null,
    plotBox,
    h("h3", {}, "Sensitivity: share of the RSS variance"),
    bars,
  ].filter(Boolean));
  if (numbers.length) draw();
  hooks.onToleranceDrawn?.(texts.length);
}

function drawHistogram(plotBox, output, mc, hooks) {
  const edges = mc.histogram.edges.map(Number);
  const counts = mc.histogram.counts.map(Number);
  const mids = counts.map((_, i) => (edges[i] + edges[i + 1]) / 2);
  const width = Math.max(280, Math.min(plotBox.clientWidth || 640, 900));
  const bars = window.uPlot.paths.bars({ size: [0.95, Infinity], align: 0 });
  const opts = {
    title: `${output.label}: ${counts.reduce((a, b) => a + b, 0)} samples`,
    width,
    height: Math.round(Math.min(300, width * 0.5)),
    scales: { x: { time: false } },
    series: [{ label: labelText(output) },
             { label: "samples", stroke: "#1f4e79", fill: "rgba(31,78,121,0.35)", paths: bars }],
    axes: [{ label: labelText(output) }, { label: "samples" }],
  };
  plotBox.replaceChildren();
  const plot = new window.uPlot(opts, [mids, counts], plotBox);
  plotBox.setAttribute("role", "img");
  plotBox.setAttribute("aria-label", `Histogram of ${output.label}: ${counts.length} bins from ${edges[0]} to ${edges[edges.length - 1]}`);
  hooks.onHistogram?.(plot);
}

function drawSensitivity(box, tool, output, r) {
  if (!r.sensitivity.length) {
    box.replaceChildren(h("p", { class: "hint" }, "Not available: a derivative could not be computed."));
    return;
  }
  box.replaceChildren(h("ul", { class: "bars" }, r.sensitivity.map((s) => {
    const input = tool.inputs.find((i) => i.key === s.key);
    // Set through the CSSOM: the page's CSP (default-src 'self') refuses style attributes.
    const fill = h("span", { class: "bar-fill" });
    fill.style.width = `${Number(s.share_pct)}%`;
    return h("li", { "data-key": s.key },
      h("span", { class: "bar-label" }, labelText(input)),
      h("span", { class: "bar", role: "presentation" }, fill),
      h("span", { class: "bar-value" }, `${text(s.share_pct)} %  (∂/∂ = ${text(s.derivative)} ${output.unit ?? ""}/${input.unit ?? "1"})`));
  })));
}

export function renderSolvePanel(tool, toolForm, hooks) {
  const numeric = numericInputs(tool.inputs);
  const outputs = tool.outputs.filter((o) => o.type === "number");
  if (numeric.length === 0 || outputs.length === 0) return h("p", {}, "This tool has no numeric input and output to solve for.");
  const vary = h("select", { id: "solve-vary", name: "vary", "data-key": "vary", "aria-describedby": "solve-vary-error" },
    numeric.map((i) => h("option", { value: i.key }, labelText(i))));
  const output = h("select", { id: "solve-output", name: "output", "data-key": "target.output",
                               "aria-describedby": "solve-output-error" },
    outputs.map((o) => h("option", { value: o.key }, labelText(o))));
  const value = h("input", { id: "solve-value", name: "value", type: "number", step: "any", inputmode: "decimal",
                             "data-key": "target.value", "aria-describedby": "solve-value-error" });
  const error = (id, key) => h("p", { id, class: "error", "data-error-for": key, hidden: true });
  const status = h("p", { class: "form-error", role: "alert", hidden: true });
  const out = h("div", { id: "solve-results", "aria-live": "polite" });
  const curl = h("pre", { class: "curl", id: "solve-curl" }, h("code"));
  const form = h("form", { id: "solve-form", class: "solve-form", novalidate: true },
    h("div", { class: "grid" },
      h("div", { class: "field" }, h("label", { for: "solve-vary" }, "Input to find"), vary, error("solve-vary-error", "vary")),
      h("div", { class: "field" }, h("label", { for: "solve-output" }, "Output"), output, error("solve-output-error", "target.output")),
      h("div", { class: "field" }, h("label", { for: "solve-value" }, "Target value"), value, error("solve-value-error", "target.value"))),
    h("button", { type: "submit" }, "Solve"), status);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    clearErrors(toolForm);
    status.hidden = true;
    const v = value.value.trim();
    const payload = { inputs: readInputs(toolForm, tool.inputs), vary: vary.value,
                      target: { output: output.value, value: v === "" ? v : Number(v) } };
    const path = `${tool.endpoint}/solve`;
    curl.firstChild.textContent = curlCommand(path, payload);
    const { status: code, body } = await postJson(path, payload);
    hooks.onSolve?.({ request: payload, status: code, body });
    if (!body.ok) {
      out.replaceChildren();
      showError(body, code, toolForm, form, status);
      return;
    }
    const input = tool.inputs.find((i) => i.key === body.result.vary);
    const o = outputs.find((x) => x.key === body.result.target.output);
    out.replaceChildren(
      h("table", { class: "results", id: "solve-table" },
        h("caption", {}, `${labelText(input)} giving ${o.label} = ${text(body.result.target.value)}`),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, labelText(input)), h("th", { scope: "col" }, labelText(o)))),
        h("tbody", {}, body.result.solutions.map((s) => h("tr", {},
          h("td", { class: "value" }, text(s.value)),
          h("td", { class: "value" }, formatOutput(o, s.result[o.key])))))),
      h("p", { class: "hint" }, `${o.label} reaches ${text(body.result.reachable.min)} to ` +
        `${text(body.result.reachable.max)} over the bounds of ${input.label}` +
        (body.result.complete ? "." : "; the search stopped at its budget, there may be more values.")));
  });

  return h("section", { class: "analysis", "aria-labelledby": "solve-title" },
    h("h2", { id: "solve-title" }, "Solve for an input"),
    h("p", { class: "hint" }, "Find every value of one input, within its bounds, that gives an output a target value; " +
      "nearest the form's value first."),
    form, out, h("details", {}, h("summary", {}, "curl for this solve"), curl));
}
