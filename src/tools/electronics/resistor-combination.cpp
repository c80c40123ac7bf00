// Series and parallel combination of two to four resistors, and the pair of IEC 60063
// preferred values that comes nearest a target resistance in series and in parallel.
// Formula, search, references and verification vectors: docs/tools/resistor-combination.md.
#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "catalog/descriptor_builder.hpp"
#include "tools/common/e_series.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// The parts the pair search draws from: every preferred value from 1 Ω to 10 MΩ, the range of
// standard thick-film resistor series (e.g. Yageo RC, 1 Ω – 10 MΩ).
constexpr int kFirstDecade = 0;  // 1.00 … 9.xx Ω
constexpr int kLastDecade = 6;   // 1.00 … 9.xx MΩ, then 10 MΩ
// A relative error below this is floating-point noise in an exact combination (the doubles of
// a sum or a parallel value differ from the decimal result by a few ulps): it is reported as 0.
constexpr double kExactRelative = 1e-12;

std::vector<double> build_parts(std::span<const int> mantissas) {
  std::vector<double> parts;
  for (int d = kFirstDecade; d <= kLastDecade; ++d)
    for (int m : mantissas) parts.push_back(e_series::preferred_value(m, d - 2));
  parts.push_back(e_series::preferred_value(mantissas[0], kLastDecade + 1 - 2));
  return parts;  // ascending
}

const std::vector<double>& parts(const std::string& series) {
  static const std::vector<double> e12 = build_parts(e_series::series("E12"));
  static const std::vector<double> e24 = build_parts(e_series::series("E24"));
  static const std::vector<double> e96 = build_parts(e_series::series("E96"));
  if (series == "E12") return e12;
  if (series == "E96") return e96;
  return e24;
}

struct Pair {
  double a = 0, b = 0;  // a ≥ b
  double value = 0;
  double distance = INFINITY;  // |ln(value/target)|
};

// The pair (a, b) of parts whose series (or parallel) value is nearest the target on a
// logarithmic scale. For each part a, the complement b that would hit the target exactly is
// computed and its two neighbouring parts are tried; ties keep the pair found first (the
// smaller a).
Pair nearest_pair(double target, const std::vector<double>& p, bool in_series) {
  Pair best;
  for (double a : p) {
    double exact_b = 0;
    if (in_series) {
      if (a >= target) break;  // a + b > a ≥ target: a larger a only moves away
      exact_b = target - a;
    } else {
      if (a <= target) continue;  // a ∥ b < a ≤ target
      exact_b = a * target / (a - target);
    }
    const auto above = std::lower_bound(p.begin(), p.end(), exact_b);
    std::array<double, 2> candidates = {above == p.begin() ? p.front() : *(above - 1),
                                        above == p.end() ? p.back() : *above};
    for (double b : candidates) {
      const double value = in_series ? a + b : a * b / (a + b);
      const double distance = std::fabs(std::log(value / target));
      if (distance < best.distance) best = {std::max(a, b), std::min(a, b), value, distance};
    }
  }
  if (in_series && best.distance == INFINITY) {
    // Every part is at or above the target: the two smallest parts are the nearest sum.
    best = {p[0], p[0], 2 * p[0], std::fabs(std::log(2 * p[0] / target))};
  }
  if (!in_series && best.distance == INFINITY) {
    // Every part is at or below the target: the two largest parts in parallel are nearest.
    const double top = p.back();
    best = {top, top, top / 2, std::fabs(std::log(top / 2 / target))};
  }
  return best;
}

double relative_error(double value, double target) {
  const double e = (value - target) / target;
  return std::fabs(e) < kExactRelative ? 0.0 : e;
}

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "resistor-combination";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Resistor Combination";
  t.description =
      "Series and parallel combination of two to four resistors, and the pair of IEC 60063 "
      "E12/E24/E96 values (1 Ω – 10 MΩ) whose series or parallel combination comes nearest a "
      "target resistance, with its error.";
  t.standard = std::nullopt;
  auto resistor = [](std::string key, std::string label, std::string help, double min, double def,
                     bool required) {
    return number_input({.key = std::move(key),
                         .label = std::move(label),
                         .unit = "Ω",
                         .help = std::move(help),
                         .min = min,
                         .max = 10000000,
                         .step = 1,
                         .default_value = def,
                         .required = required});
  };
  t.inputs = {
      resistor("r1_ohm", "R1", "First resistor, 1 Ω – 10 MΩ.", 1, 1000, true),
      resistor("r2_ohm", "R2", "Second resistor, 1 Ω – 10 MΩ.", 1, 2200, true),
      resistor("r3_ohm", "R3 (optional)",
               "Third resistor, 1 Ω – 10 MΩ; 0 (the default) when there is none.", 0, 0, false),
      resistor("r4_ohm", "R4 (optional)",
               "Fourth resistor, 1 Ω – 10 MΩ; 0 (the default) when there is none.", 0, 0, false),
      resistor("target_ohm", "Target resistance",
               "Resistance to approximate with two preferred values, 1 Ω – 10 MΩ.", 1, 4990, true),
      choice_input({.key = "e_series",
                    .label = "Preferred-value series",
                    .help = "IEC 60063 series to draw the pair from: E12 (10 % parts), E24 (5 %) "
                            "or E96 (1 %).",
                    .options = {"E12", "E24", "E96"},
                    .default_value = "E24",
                    .required = false}),
  };
  auto ohm = [](std::string key, std::string label) {
    return number_output(
        {.key = std::move(key), .label = std::move(label), .unit = "Ω", .precision = 3});
  };
  auto error_pct = [](std::string key, std::string label, std::string finer) {
    return number_output({.key = std::move(key),
                          .label = std::move(label),
                          .unit = "%",
                          .precision = 3,
                          .small_values_in = std::move(finer)});
  };
  auto error_ppm = [](std::string key, std::string label) {
    return number_output(
        {.key = std::move(key), .label = std::move(label), .unit = "ppm", .precision = 6});
  };
  t.outputs = {
      ohm("series_ohm", "R1 + R2 (+ R3 + R4) in series"),
      ohm("parallel_ohm", "R1 ∥ R2 (∥ R3 ∥ R4) in parallel"),
      ohm("series_pair_a_ohm", "Series pair: larger value"),
      ohm("series_pair_b_ohm", "Series pair: smaller value"),
      ohm("series_pair_ohm", "Series pair: combined value"),
      error_pct("series_pair_error_pct", "Series pair: error against the target",
                "series_pair_error_ppm"),
      error_ppm("series_pair_error_ppm", "Series pair: error, in ppm"),
      ohm("parallel_pair_a_ohm", "Parallel pair: larger value"),
      ohm("parallel_pair_b_ohm", "Parallel pair: smaller value"),
      ohm("parallel_pair_ohm", "Parallel pair: combined value"),
      error_pct("parallel_pair_error_pct", "Parallel pair: error against the target",
                "parallel_pair_error_ppm"),
      error_ppm("parallel_pair_error_ppm", "Parallel pair: error, in ppm"),
  };
  t.references = {
      "P. Horowitz, W. Hill, \"The Art of Electronics\", 3rd ed., Cambridge University Press, "
      "2015, §1.2 (resistors in series add; in parallel, 1/R = 1/R1 + 1/R2 + …)",
      "IEC 60063:2015, \"Preferred number series for resistors and capacitors\" (E12, E24 and "
      "E96 values)",
      "KiCad pcb_calculator, \"E-series\" resistor calculator (r_calculator_help.md): "
      "combinations of standard E-series values in series (R1 + R2) and parallel (R1 | R2) "
      "that approximate an arbitrary value",
  };
  t.examples = {
      {.title = "Three resistors in series: 3.3 kΩ + 120 kΩ + 4.7 kΩ",
       .request_json = R"({"r1_ohm":3300,"r2_ohm":120000,"r3_ohm":4700,"target_ohm":128000})",
       .expected_json = R"({"series_ohm":128000})",
       .tolerance_pct = 0,
       .source = "Instructables, \"Custom Resistor Values\" (instructables.com/"
                 "Custom-Resistor-Values/): 3,300 + 120,000 + 4,700 = 128,000 Ω"},
      {.title = "Three resistors in parallel: 2.0, 5.0 and 2.0 Ω",
       .request_json = R"({"r1_ohm":2,"r2_ohm":5,"r3_ohm":2,"target_ohm":1})",
       .expected_json = R"({"parallel_ohm":0.83})",
       .tolerance_pct = 0.5,
       .source = "Show Me The Physics (T. Mangiacapre), \"Total Resistance Parallel Circuit\" "
                 "(showmethephysics.com/home/notes/electricity/circuits/parallelCircuit/"
                 "TotalResistanceParallel.htm), Ex 3: 2.0, 5.0 and 2.0 Ω in parallel, RT = "
                 "10/12 = .83 Ω"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const std::array<const char*, 2> optional_keys = {"r3_ohm", "r4_ohm"};
  std::vector<double> rs = {in.number("r1_ohm"), in.number("r2_ohm")};
  for (const char* key : optional_keys) {
    const double r = in.number(key);
    if (r == 0) continue;
    if (r < 1)
      return ToolError{key, std::string(key) +
                                " must be 0 (no resistor) or at least 1 Ω, the smallest standard "
                                "value; enter 0 to leave it out"};
    rs.push_back(r);
  }
  double series = 0, conductance = 0;
  for (double r : rs) {
    series += r;
    conductance += 1 / r;
  }
  const double target = in.number("target_ohm");
  const auto& p = parts(in.enumeration("e_series"));
  const Pair s = nearest_pair(target, p, true);
  const Pair q = nearest_pair(target, p, false);
  const double s_err = relative_error(s.value, target);
  const double q_err = relative_error(q.value, target);
  Outputs out;
  out.set("series_ohm", series)
      .set("parallel_ohm", 1 / conductance)
      .set("series_pair_a_ohm", s.a)
      .set("series_pair_b_ohm", s.b)
      .set("series_pair_ohm", s.value)
      .set("series_pair_error_pct", 100 * s_err)
      .set("series_pair_error_ppm", 1e6 * s_err)
      .set("parallel_pair_a_ohm", q.a)
      .set("parallel_pair_b_ohm", q.b)
      .set("parallel_pair_ohm", q.value)
      .set("parallel_pair_error_pct", 100 * q_err)
      .set("parallel_pair_error_ppm", 1e6 * q_err);
  return out;
}

}  // namespace

Tool make_resistor_combination() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
