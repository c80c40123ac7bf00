// The playground (docs/playground.md): hash routes
//   #/                   domains with their live/target counts and tools
//   #/{domain}/{slug}    one tool: form, results, curl line, sweep, tolerance and solve
//                        panels, and where its numbers come from (method, references,
//                        worked examples)
// Everything goes through the public API at the base path the server wrote into the page.
import { currentKey, curlCommand, getResult, isDevKeyPrefilled, postJson, saveKey } from "./api.js";
import { h } from "./dom.js";
import { clearErrors, fillInputs, readInputs, renderField, showFieldError } from "./form.js";
import { renderProvenance } from "./provenance.js";
import { renderResults } from "./results.js";
import { renderSolvePanel, renderTolerancePanel } from "./analysis.js";
import { renderSweepPanel } from "./sweep.js";

const main = document.getElementById("main");

// A test hook for the browser test (tests/browser): what the page last asked and got.
const state = { ready: false, lastExecute: null, lastSweep: null, plot: null,
                lastTolerance: null, histogram: null, lastSolve: null };
window.toolcalcPlayground = state;

function setKeyForm() {
  const form = document.getElementById("key-form");
  const input = document.getElementById("api-key");
  const status = document.getElementById("api-key-status");
  input.value = currentKey();
  status.textContent = isDevKeyPrefilled() ? "dev key pre-filled" : input.value ? "saved" : "no key yet";
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const ok = saveKey(input.value.trim());
    status.textContent = ok ? (input.value ? "saved in this browser" : "key removed") : "could not save (storage disabled)";
  });
}

// After a route change focus goes to the new content (where a screen reader expects it);
// on the first load it stays at the top, where the skip link is the first Tab stop.
let firstRender = true;
function show(title, ...content) {
  document.title = title ? `${title} · toolcalc playground` : "toolcalc playground";
  main.replaceChildren(...content.flat().filter((c) => c !== null && c !== undefined));
  if (!firstRender) main.focus();
  firstRender = false;
}

async function homePage() {
  const [domains, tools] = await Promise.all([getResult("/v1/domains"), allTools()]);
  show("",
    h("h1", {}, "Engineering calculators"),
    h("p", {}, "Pick a tool: fill in its inputs, see the results with their units, copy the curl line, sweep an input and plot the outputs, put tolerances on the inputs, or solve for the input that gives a target."),
    domains.items.map((d) => h("section", { class: "domain", "aria-labelledby": `domain-${d.domain}` },
      h("h2", { id: `domain-${d.domain}` }, d.name, " ",
        h("span", { class: "count", "data-domain-count": d.domain }, `${d.live} of ${d.target} tools live`)),
      h("p", { class: "hint" }, d.description),
      h("ul", { class: "tools" }, tools.filter((t) => t.domain === d.domain).map((t) =>
        h("li", {}, h("a", { href: `#/${t.domain}/${t.tool}`, "data-tool": `${t.domain}/${t.tool}` }, t.name),
          " — ", t.description))))));
}

async function allTools() {
  const items = [];
  for (let page = 1; ; ++page) {
    const r = await getResult(`/v1/tools?limit=100&page=${page}`);
    items.push(...r.items);
    if (page >= r.pages) return items;
  }
}

async function toolPage(domain, slug) {
  const [tool, details] = await Promise.all([getResult(`/v1/${domain}/${slug}/schema`),
                                             getResult(`/v1/tools/${encodeURIComponent(slug)}`)]);
  const form = h("form", { id: "tool-form", class: "tool-form", novalidate: true },
    h("div", { class: "grid" }, tool.inputs.map(renderField)),
    h("button", { type: "submit" }, "Calculate"));
  const formError = h("p", { id: "form-error", class: "form-error", role: "alert", hidden: true });
  const results = h("div", { id: "results", "aria-live": "polite" });
  const curl = h("pre", { class: "curl", id: "curl" }, h("code"));
  const copy = h("button", { type: "button", class: "secondary" }, "Copy curl");
  const copied = h("span", { class: "hint", role: "status" });

  const updateCurl = () => {
    curl.firstChild.textContent = curlCommand(tool.endpoint, readInputs(form, tool.inputs));
  };
  form.addEventListener("input", updateCurl);
  form.addEventListener("change", updateCurl);
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(curl.textContent);
      copied.textContent = "copied";
    } catch {
      const range = document.createRange();
      range.selectNodeContents(curl);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      copied.textContent = "selected: press Ctrl+C";
    }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    formError.hidden = true;
    const payload = readInputs(form, tool.inputs);
    const { status, body } = await postJson(tool.endpoint, payload);
    state.lastExecute = { request: payload, status, body };
    if (body.ok) {
      results.replaceChildren(renderResults(tool, body.result),
        h("p", { class: "hint" }, `Quota left this month: ${body.meta.quota_remaining ?? "unlimited"}.`));
      return;
    }
    results.replaceChildren();
    const e = body.error ?? {};
    if (!(e.field && showFieldError(form, e.field, e.message))) {
      formError.textContent = `${e.code ?? status}: ${e.message ?? "request failed"}`;
      formError.hidden = false;
    }
  });

  show(tool.name,
    h("nav", { "aria-label": "Breadcrumb", class: "crumbs" }, h("a", { href: "#/" }, "All tools"), ` / ${domain}`),
    h("h1", {}, tool.name),
    h("p", {}, tool.description),
    tool.standard ? h("p", { class: "hint" }, `Standard: ${tool.standard}`) : null,
    h("section", { "aria-labelledby": "inputs-title" }, h("h2", { id: "inputs-title" }, "Inputs"), formError, form),
    results,
    h("section", { "aria-labelledby": "curl-title" },
      h("h2", { id: "curl-title" }, "curl"),
      h("p", { class: "hint" }, "Set TOOLCALC_KEY to your key, then paste:"), curl, copy, " ", copied),
    renderSweepPanel(tool, form, {
      onSweep: (s) => { state.lastSweep = s; },
      onPlot: (plot) => { state.plot = plot; },
    }),
    renderTolerancePanel(tool, form, {
      onTolerance: (t) => { state.lastTolerance = t; },
      onHistogram: (plot) => { state.histogram = plot; },
    }),
    renderSolvePanel(tool, form, { onSolve: (s) => { state.lastSolve = s; } }),
    renderProvenance(details, (example) => {
      fillInputs(form, tool.inputs, example.body);
      form.requestSubmit();
      form.scrollIntoView({ block: "start" });
    }));
  updateCurl();
}

async function route() {
  state.ready = false;
  state.lastExecute = state.lastSweep = state.plot = null;
  state.lastTolerance = state.histogram = state.lastSolve = null;
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  try {
    if (parts.length === 2) await toolPage(...parts.map(decodeURIComponent));
    else await homePage();
  } catch (err) {
    show("Error", h("h1", {}, "Something went wrong"), h("p", { role: "alert" }, err.message),
      h("p", {}, h("a", { href: "#/" }, "Back to all tools")));
  }
  state.ready = true;
}

// The skip link moves focus without touching the hash, which holds the route.
document.querySelector(".skip").addEventListener("click", (event) => {
  event.preventDefault();
  main.focus();
});

setKeyForm();
window.addEventListener("hashchange", route);
route();
