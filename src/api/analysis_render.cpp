#include "api/analysis_render.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "catalog/render.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::api {
namespace {

// The decimal exponent of x's shortest round-trip form (x > 0): "1.23e-02" → −2. Exact and
// the same everywhere, unlike a floor(log10(x)) from the C library.
int decimal_exponent(double x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  const char* e = std::find(buf, r.ptr, 'e');
  int exponent = 0;
  if (e != r.ptr) std::from_chars(e + 1 + (e[1] == '+' ? 1 : 0), r.ptr, exponent);
  return exponent;
}

void write_point(JsonWriter& w, const catalog::ToolDescriptor& tool,
                 const analysis::ToleranceOptions& options, const analysis::Point& at) {
  w.begin_object();
  for (size_t i = 0; i < options.inputs.size(); ++i)
    w.plain_key(tool.inputs[options.inputs[i].input].key).shortest(at[i]);
  w.end_object();
}

void write_failure(JsonWriter& w, const catalog::ToolDescriptor& tool,
                   const analysis::ToleranceOptions& options,
                   const std::optional<analysis::FailedPoint>& failure) {
  if (!failure) {
    w.null();
    return;
  }
  w.begin_object().key("inputs");
  write_point(w, tool, options, failure->at);
  w.field("message", failure->error.message);
  if (!failure->error.field.empty()) w.field("field", failure->error.field);
  w.end_object();
}

void write_numeric(JsonWriter& w, const catalog::ToolDescriptor& tool,
                   const analysis::ToleranceOptions& options, const analysis::NumericOutcome& n) {
  const int precision = tool.outputs[n.output].precision;
  const auto& mc = n.monte_carlo;
  const int places = statistic_places(precision, mc.std > 0 ? mc.std : n.rss_sigma);
  auto number = [&](std::string_view key, double v) { w.plain_key(key).fixed(v, places); };

  w.begin_object();
  number("nominal", n.nominal);
  w.plain_key("worst_case").begin_object();
  number("min", n.min.value);
  number("max", n.max.value);
  w.plain_key("min_at");
  write_point(w, tool, options, n.min.at);
  w.plain_key("max_at");
  write_point(w, tool, options, n.max.at);
  w.end_object();

  w.plain_key("rss");
  if (n.rss_known) {
    w.begin_object();
    number("sigma", n.rss_sigma);
    number("min", n.rss_min);
    number("max", n.rss_max);
    w.end_object();
  } else {
    w.null();
  }

  w.plain_key("monte_carlo").begin_object();
  w.plain_key("samples").integer(mc.count);
  number("mean", mc.mean);
  number("std", mc.std);
  for (size_t i = 0; i < analysis::kPercentiles.size(); ++i)
    number("p" + std::to_string(analysis::kPercentiles[i]), mc.percentiles[i]);
  number("min", mc.min);
  number("max", mc.max);
  w.plain_key("histogram").begin_object().plain_key("edges").begin_array();
  for (const double e : mc.histogram.edges) w.fixed(e, places);
  w.end_array().plain_key("counts").begin_array();
  for (const int64_t c : mc.histogram.counts) w.integer(c);
  w.end_array().end_object();
  w.end_object();

  w.plain_key("sensitivity").begin_array();
  for (const auto& s : n.sensitivity) {
    w.begin_object().plain_key("key").string(tool.inputs[options.inputs[s.toleranced].input].key);
    w.plain_key("share_pct").fixed(s.share_pct, 2);
    w.plain_key("derivative");
    write_significant(w, s.derivative);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_text(JsonWriter& w, const analysis::TextOutcome& t) {
  w.begin_object().field("nominal", t.nominal).plain_key("samples").begin_array();
  for (const auto& c : t.samples)
    w.begin_object().field("value", c.value).plain_key("count").integer(c.count).end_object();
  w.end_array().plain_key("corners").begin_array();
  for (const auto& v : t.corners) w.string(v);
  w.end_array().end_object();
}

}  // namespace

int statistic_places(int precision, double sigma) {
  if (!(sigma > 0) || !std::isfinite(sigma)) return precision;
  return std::max(precision, std::min(15, 2 - decimal_exponent(sigma)));
}

void write_significant(JsonWriter& w, double x) {
  if (x == 0 || !std::isfinite(x)) {
    w.integer(0);
    return;
  }
  w.fixed(x, std::clamp(5 - decimal_exponent(std::fabs(x)), 0, 15));
}

void render_tolerance_result(std::string& out, const catalog::ToolDescriptor& tool,
                             const ToleranceRequest& request,
                             const analysis::ToleranceResult& result) {
  const auto& options = request.options;
  JsonWriter w(out);
  w.begin_object();
  w.plain_key("samples").integer(options.samples);
  w.plain_key("seed").integer(static_cast<int64_t>(options.seed));
  w.field("distribution", distribution_name(request.distribution));
  w.plain_key("evaluations").integer(result.evaluations);
  w.plain_key("toleranced").begin_array();
  for (const auto& s : options.inputs) {
    w.begin_object().field("key", tool.inputs[s.input].key);
    w.plain_key("nominal").shortest(s.nominal);
    w.plain_key("min").shortest(s.low);
    w.plain_key("max").shortest(s.high);
    w.field("distribution", distribution_name(s.distribution)).end_object();
  }
  w.end_array();
  w.plain_key("failed_samples").integer(result.failed_samples);
  w.plain_key("first_failed_sample");
  write_failure(w, tool, options, result.first_failed_sample);
  w.plain_key("failed_corners").integer(result.failed_corners);
  w.plain_key("first_failed_corner");
  write_failure(w, tool, options, result.first_failed_corner);
  // Every output in descriptor order, numbers and texts interleaved as the tool has them.
  w.plain_key("outputs").begin_object();
  size_t numeric = 0, text = 0;
  for (size_t o = 0; o < tool.outputs.size(); ++o) {
    w.plain_key(tool.outputs[o].key);
    if (numeric < result.numeric.size() && result.numeric[numeric].output == o)
      write_numeric(w, tool, options, result.numeric[numeric++]);
    else
      write_text(w, result.text.at(text++));
  }
  w.end_object();
  w.end_object();
}

void render_solve_result(std::string& out, const catalog::ToolDescriptor& tool,
                         const SolveRequest& request, const analysis::SolveResult& result) {
  const auto& options = request.options;
  JsonWriter w(out);
  w.begin_object().field("vary", tool.inputs[options.input].key);
  w.plain_key("target").begin_object().field("output", tool.outputs[options.output].key);
  w.plain_key("value").shortest(options.target).end_object();
  w.plain_key("solutions").begin_array();
  for (const auto& s : result.solutions) {
    w.begin_object().plain_key("value").shortest(s.value).plain_key("result");
    catalog::render_result(w, tool, s.outputs);
    w.end_object();
  }
  w.end_array();
  w.plain_key("reachable").begin_object();
  w.plain_key("min").shortest(result.reach_min.value_or(0));
  w.plain_key("max").shortest(result.reach_max.value_or(0));
  w.end_object();
  w.plain_key("evaluations").integer(result.evaluations);
  w.field("complete", result.complete);
  w.end_object();
}

}  // namespace toolcalc::api
