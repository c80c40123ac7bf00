// Series and parallel combination of two to four resistors, and the pair of IEC 60063
// preferred values that comes nearest a target resistance in series and in parallel.
// Formula, search, references and verification vectors: docs/tools/resistor-combination.md.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
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

// Room for the parts of the largest series (E96: 7 decades of 96 values and 10 MΩ, 673).
constexpr size_t kMaxParts = 704;
static_assert((kLastDecade - kFirstDecade + 1) * 96 + 1 <= kMaxParts);

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

// std::lower_bound(p + lo, p + hi, x) − p, with the comparisons' outcomes selecting, not
// branching (they are unpredictable; the same index).
size_t lower_index(const std::vector<double>& p, size_t lo, size_t hi, double x) {
  if (lo >= hi) return lo;
  const double* base = p.data() + lo;
  for (size_t len = hi - lo; len > 1;) {
    const size_t half = len / 2;
    base = base[half] < x ? base + half : base;
    len -= half;
  }
  return static_cast<size_t>(base - p.data()) + (*base < x ? 1 : 0);
}

// std::lower_bound(p + lo, p + hi, x) − p, walked from `at` (exact from any start in
// [lo, hi]; cheap when the result is near it).
size_t walk_to(const std::vector<double>& p, size_t lo, size_t hi, double x, size_t at) {
  while (at > lo && !(p[at - 1] < x)) --at;
  while (at < hi && p[at] < x) ++at;
  return at;
}

double combine(bool in_series, double a, double b) {
  return in_series ? a + b : a * b / (a + b);
}

// The pair (a, b) of parts whose series (or parallel) value is nearest the target on a
// logarithmic scale. For each part a, the complement b that would hit the target exactly is
// computed and its two neighbouring parts are tried; ties keep the pair found first (the
// smaller a). Search::step is that for one a; nearest_pair does it for the a's that can
// matter, with the full scan's result bit for bit (see there).
class Search {
 public:
  // `hint`: where the first step's lower bound probably is (any index: the walk is exact).
  Search(double target, const std::vector<double>& p, bool in_series, size_t hint)
      : target_(target), p_(p), in_series_(in_series), above_(std::min(hint, p.size())) {}

  void step(size_t i) {
    const double a = p_[i];
    const double exact_b = in_series_ ? target_ - a : a * target_ / (a - target_);
    // std::lower_bound(p, exact_b), walked from the last step's (the complement moves little
    // from one a to the next; the walk is exact from any start).
    while (above_ > 0 && !(p_[above_ - 1] < exact_b)) --above_;
    while (above_ < p_.size() && p_[above_] < exact_b) ++above_;
    consider(a, above_ == 0 ? p_.front() : p_[above_ - 1]);
    consider(a, above_ == p_.size() ? p_.back() : p_[above_]);
  }

  bool found() const { return found_; }
  // The best pair, its distance |ln(value/target)| taken now if it was not yet.
  const Pair& best() {
    if (found_ && !known_) {
      best_.distance = std::fabs(std::log(best_.value / target_));
      known_ = true;
    }
    return best_;
  }

  // Ignore from the start what `other` ignores now (its best is at least as near as this
  // search's can be that matters).
  void ignore_as(const Search& other) {
    keep_low_ = other.keep_low_;
    keep_high_ = other.keep_high_;
  }
  // target·e^(∓d)·(1 ∓ widen), d the best distance so far (found() must hold).
  double low(double widen) const { return target_ / ratio_ * (1 - widen); }
  double high(double widen) const { return target_ * ratio_ * (1 + widen); }

 private:
  // The scan's test, "|ln(value/target)| < the best's: replace", decided without the
  // logarithm where it is certain: with r = max(q, 1/q), q = value/target, ln r is
  // |ln q| to within an ulp of q, and the logarithm's error is below an ulp of its result
  // (< 4e-15 here), so a ratio smaller (larger) than the best's by a factor 1 ∓ 1e-12 is a
  // smaller (larger) distance for certain; in between both logarithms are taken and compared.
  // Candidates outside target/r·(1 − 1e-9) … target·r·(1 + 1e-9), r the best's ratio, are
  // farther for certain and skipped first.
  void consider(double a, double b) {
    const double value = combine(in_series_, a, b);
    if (value <= keep_low_ || value >= keep_high_) return;
    const double q = value / target_;
    const double ratio = q >= 1 ? q : target_ / value;
    bool known = false;
    double distance = 0;
    if (found_) {
      if (ratio > ratio_ * (1 + kDecisive)) return;
      if (!(ratio < ratio_ * (1 - kDecisive))) {
        distance = std::fabs(std::log(q));
        if (!(distance < best().distance)) return;
        known = true;
      }
    }
    best_ = {std::max(a, b), std::min(a, b), value, distance};
    found_ = true;
    known_ = known;
    ratio_ = ratio;
    keep_low_ = target_ / ratio * (1 - kMargin);
    keep_high_ = target_ * ratio * (1 + kMargin);
  }

  static constexpr double kMargin = 1e-9;
  static constexpr double kDecisive = 1e-12;
  double target_;
  const std::vector<double>& p_;
  bool in_series_;
  size_t above_;  // the last step's lower bound
  Pair best_;
  bool found_ = false, known_ = false;
  double ratio_ = INFINITY, keep_low_ = 0, keep_high_ = INFINITY;
};

// The full scan's result from a few of its steps. The a's the scan visits (series: parts
// below the target; parallel: above it) split at the symmetric point (target/2; 2·target):
//  1. the near half (a between the split and the target: about one octave of parts) is
//     scanned; its best distance d0 bounds the scan's best distance D from above;
//  2. a step of the far half can only matter through a candidate b whose value comes within
//     d0 of the target. Its b is a neighbour of its complement, so among the few parts around
//     the complements of the far half (about one octave too), and for each such b the a's
//     whose value with b lies in target·e^(∓d0)·(1 ∓ 1e-6) form one run of parts (the value
//     grows with a): those above low − b and below high − b in series, above
//     low·b/(b − low) and below high·b/(b − high) in parallel;
//  3. the far half's steps are taken for those runs only, in the scan's order, ignoring
//     candidates beyond d0; its first best and the near half's are compared in the scan's
//     order (series: the far half first; parallel: last), a tie keeping the earlier.
// Every candidate left out is farther than d0 ≥ D (by a margin of 1e-6, far above the
// rounding of the values and of the runs' bounds, which amplify it alike), so the first
// candidate at distance D, the one the full scan keeps, is among those taken. When the runs
// are long (a part near the target by itself, every a beside it then close), the far half is
// scanned whole.
Pair nearest_pair(double target, const std::vector<double>& p, bool in_series) {
  constexpr double kWide = 1e-6;
  constexpr size_t kMostSteps = 64;
  // The scan's a's: near half [near_begin, near_end), far half [far_begin, far_end). The
  // bounds, complements and first steps below are walked from indices nearby (an octave at
  // most) rather than bisected: a bisection's chain of dependent loads costs more.
  size_t near_begin = 0, near_end = 0, far_begin = 0, far_end = 0;
  if (in_series) {
    near_end = lower_index(p, 0, p.size(), target);
    near_begin = walk_to(p, 0, near_end, target / 2, near_end);
    far_begin = 0;
    far_end = near_begin;
  } else {
    // std::upper_bound: the first part above the target, then above twice the target.
    near_begin = lower_index(p, 0, p.size(), target);
    while (near_begin < p.size() && !(target < p[near_begin])) ++near_begin;
    near_end = near_begin;
    while (near_end < p.size() && !(2 * target < p[near_end])) ++near_end;
    far_begin = near_end;
    far_end = p.size();
  }

  // The first near step's complement: target − target/2 in series; in parallel, above twice
  // the target (an a just above the target has a large one).
  Search near(target, p, in_series, in_series ? near_begin : near_end);
  for (size_t i = near_begin; i < near_end; ++i) near.step(i);
  // The first far step's complement: about the target in series (a small a), up to twice
  // the target in parallel.
  Search far(target, p, in_series, near_end);
  if (!near.found()) {
    for (size_t i = far_begin; i < far_end; ++i) far.step(i);
  } else if (far_begin < far_end) {
    far.ignore_as(near);
    const double low = near.low(kWide), high = near.high(kWide);
    // The candidates of the far half's steps lie between the neighbours of the complements
    // of its first and last a (the complement is monotone in a; one more part either side
    // covers rounding). The first a's complement is about the target in series (about twice
    // it in parallel), the last a's about half the target (about the target).
    auto complement_index = [&](size_t i, size_t hint) {
      const double a = p[i];
      return walk_to(p, 0, p.size(), in_series ? target - a : a * target / (a - target), hint);
    };
    const size_t k1 = complement_index(far_begin, near_end);
    const size_t k2 = complement_index(far_end - 1, near_begin);
    const size_t b_first = std::min(k1, k2) >= 2 ? std::min(k1, k2) - 2 : 0;
    const size_t b_last = std::min(std::max(k1, k2) + 1, p.size() - 1);
    // The steps to take, one bit per part.
    std::array<uint64_t, kMaxParts / 64> take{};
    size_t steps = 0, from_at = far_begin;
    // b descending: the runs move up from the far half's start, from_at forward.
    for (size_t j = b_last + 1; j > b_first && steps <= kMostSteps;) {
      const double b = p[--j];
      double a_from = 0, a_to = 0;
      if (in_series) {
        a_from = low - b;
        a_to = high - b;
      } else {
        if (b <= low) continue;  // a ∥ b < b ≤ low for every a
        a_from = low * b / (b - low);
        a_to = b > high ? high * b / (b - high) : INFINITY;
      }
      const size_t from = from_at = walk_to(p, far_begin, far_end, a_from, from_at);
      size_t to = from;  // lower_index(p, from, far_end, a_to): a run is a part or two
      while (to < far_end && p[to] < a_to) ++to;
      for (size_t i = from; i < to; ++i) take[i / 64] |= uint64_t{1} << (i % 64);
      steps += to - from;
    }
    if (steps > kMostSteps) {
      for (size_t i = far_begin; i < far_end; ++i) far.step(i);
    } else {
      for (size_t word = 0; word < take.size(); ++word)
        for (uint64_t bits = take[word]; bits != 0; bits &= bits - 1)
          far.step(word * 64 + static_cast<size_t>(std::countr_zero(bits)));
    }
  }
  const Pair& f = far.best();
  const Pair& n = near.best();
  Pair best = in_series ? (f.distance <= n.distance ? f : n) : (n.distance <= f.distance ? n : f);
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
                            "or E96 (1 %). Nearest means the smallest error on a logarithmic "
                            "scale (the ratio to the target), as the series are spaced.",
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
  std::array<double, 4> rs = {in.number("r1_ohm"), in.number("r2_ohm"), 0, 0};
  size_t count = 2;
  for (const char* key : optional_keys) {
    const double r = in.number(key);
    if (r == 0) continue;
    if (r < 1)
      return ToolError{key, std::string(key) +
                                " must be 0 (no resistor) or at least 1 Ω, the smallest standard "
                                "value; enter 0 to leave it out"};
    rs[count++] = r;
  }
  double series = 0, conductance = 0;
  for (size_t i = 0; i < count; ++i) {
    series += rs[i];
    conductance += 1 / rs[i];
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
