// POST /v1/{domain}/{slug}/tolerance and …/solve (docs/api.md, "Analyses"): the paths and
// the schemas of their bodies and results, for every tool with a numeric input (and, for
// solve, a number output). The schemas come from api/analysis_schema, which MCP's
// tolerance_analysis and solve_for_input use too.
#include "api/analysis_schema.hpp"
#include "api/openapi/paths.hpp"
#include "api/openapi/writing.hpp"

namespace toolcalc::api::openapi {

using catalog::ToolDescriptor;

namespace {

void write_analysis_path(JsonWriter& w, ErrorRefs& refs, const ToolDescriptor& t,
                         const std::string& prefix, std::string_view kind,
                         std::string_view operation, const std::string& summary,
                         const std::string& description, std::string_view ok) {
  w.key(t.endpoint() + "/" + std::string(kind)).begin_object().key("post").begin_object();
  w.field("operationId", std::string(operation) + prefix);
  w.field("summary", summary);
  w.field("description", description);
  w.key("tags").begin_array().string(t.domain).end_array();
  security_required(w);
  w.key("requestBody").begin_object().field("required", true);
  const std::string type = kind == "tolerance" ? "Tolerance" : "Solve";
  json_content(w, prefix + type + "Request");
  w.end_object();
  w.key("responses").begin_object();
  ok_response(w, ok, prefix + type + "Response");
  error_ref(w, refs, 400);
  error_ref(w, refs, 401);
  error_ref(w, refs, 415);
  error_ref(w, refs, 422);
  error_ref(w, refs, 429);
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, true);
  w.end_object();
  w.end_object().end_object();
}

// This tool's price: its cost class in quota units per 1,000 evaluations.
std::string price_text(const ToolDescriptor& t, int analysis_cost_class) {
  const std::string cls = std::to_string(analysis_cost_class);
  return cls + (analysis_cost_class == 1 ? " unit" : " units") + " of the monthly quota per " +
         analysis_schema::evaluations_per_quota_unit() +
         " evaluations of the tool (its analysis cost class, "
         "`analysis_cost_class` in GET /v1/tools/" +
         t.slug + ")";
}

}  // namespace

void tolerance_paths(Paths& p) {
  for (const auto& r : p.registry.tools()) {
    const ToolDescriptor& t = r.tool.descriptor;
    if (!analysis_schema::has_tolerance(t)) continue;
    const std::string price = price_text(t, r.analysis_cost_class);
    write_analysis_path(
        p.w, p.refs, t, p.prefix(r), "tolerance", "tolerance", t.name + ": tolerance analysis",
        "Runs " + t.endpoint() + " around nominal inputs with tolerances on " +
            analysis_schema::toleranced_inputs_range() +
            " numeric inputs: per number "
            "output the worst case over every corner and Monte Carlo sample, the first-order "
            "(RSS) spread with each input's share of the variance, and Monte Carlo statistics "
            "with a histogram; per text output the count of each value. Deterministic for a "
            "seed. Costs one rate-limit unit and " +
            price +
            ", rounded up, at least one (reserved first: 429 `QUOTA_EXCEEDED` when fewer are "
            "left; none are used on an error). 422 `UNPROCESSABLE` when the tool refuses the "
            "nominal inputs or every sample. 429 `TOO_MANY_ANALYSES` when the key already has "
            "its limit of analyses waiting or running; 503 `SERVER_BUSY` when the analysis "
            "queue is full. Errors name the field: `inputs.<key>`, `tolerances.<key>`, "
            "`tolerances.<key>.<member>`, `distribution`, `samples`, `seed`. docs/analysis.md "
            "has the maths.",
        "The analysis.");
  }
}

void solve_paths(Paths& p) {
  for (const auto& r : p.registry.tools()) {
    const ToolDescriptor& t = r.tool.descriptor;
    if (!analysis_schema::has_solve(t)) continue;
    const std::string price = price_text(t, r.analysis_cost_class);
    write_analysis_path(
        p.w, p.refs, t, p.prefix(r), "solve", "solve", t.name + ": solve for an input",
        "Every value of one numeric input of " + t.endpoint() +
            ", within its bounds, where a number output (unrounded) equals a target: a scan "
            "for sign changes refined by Brent's method, nearest the given value first, with "
            "the tool's outputs at each. 422 `NO_SOLUTION` (field `target.value`) when none "
            "does; the message states the range the output reaches. Costs one rate-limit unit "
            "and " +
            price + ", rounded up (the " + analysis_schema::solve_evaluation_budget() +
            "-evaluation budget reserved, the unused units given back). "
            "429 `TOO_MANY_ANALYSES` when the key already has its limit of analyses waiting or "
            "running; 503 `SERVER_BUSY` when the analysis queue is full. Errors name the field: "
            "`vary`, `target`, `target.output`, `target.value`, `inputs.<key>`.",
        "The values found, with the tool's outputs at each.");
  }
}

void write_analysis_schemas(JsonWriter& w, const ToolDescriptor& t, const std::string& prefix) {
  if (analysis_schema::has_tolerance(t)) {
    w.key(prefix + "ToleranceRequest");
    analysis_schema::write_tolerance_request(w, t);
    w.key(prefix + "ToleranceResult");
    analysis_schema::write_tolerance_result(w, t);
    w.key(prefix + "ToleranceResponse");
    write_success_response_schema(w, t, t.endpoint() + "/tolerance", prefix + "ToleranceResult");
  }
  if (analysis_schema::has_solve(t)) {
    w.key(prefix + "SolveRequest");
    analysis_schema::write_solve_request(w, t);
    w.key(prefix + "SolveResult");
    analysis_schema::write_solve_result(w, t, prefix + "Result");
    w.key(prefix + "SolveResponse");
    write_success_response_schema(w, t, t.endpoint() + "/solve", prefix + "SolveResult");
  }
}

}  // namespace toolcalc::api::openapi
