#include "analysis/solve.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analysis/evaluator.hpp"
#include "analysis/roots.hpp"

namespace toolcalc::analysis {

namespace {

// Geometric means between a and b (0 < a < b), 2^halvings intervals, appended in order
// (b excluded).
void append_geometric(std::vector<double>& out, double a, double b, int halvings) {
  if (halvings == 0) {
    out.push_back(a);
    return;
  }
  const double mid = std::sqrt(a) * std::sqrt(b);  // no overflow of a·b
  append_geometric(out, a, mid, halvings - 1);
  append_geometric(out, mid, b, halvings - 1);
}

}  // namespace

std::vector<double> scan_points(double low, double high, double reference, bool integer) {
  std::vector<double> xs;
  if (integer && high - low <= 2 * kScanIntervals) {
    for (double x = low; x <= high; ++x) xs.push_back(x);  // every integer
    return xs;
  }
  for (int i = 0; i < kScanIntervals; ++i) xs.push_back(low + (high - low) * i / kScanIntervals);
  xs.push_back(high);
  if (low >= 0 && high > 0 && (low == 0 || high / low > 100)) {
    const double start = low > 0 ? low : high * kGeometricFloor;
    append_geometric(xs, start, high, kScanHalvings);
  }
  xs.push_back(reference);
  for (double& x : xs) {
    x = std::clamp(x, low, high);
    if (integer) x = std::clamp(std::round(x), std::ceil(low), std::floor(high));
    if (x == 0) x = 0;
  }
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  return xs;
}

namespace {

struct ScanPoint {
  double x = 0;
  bool ok = false;
  double g = 0;  // f(x) − V
};

bool sign_of(double g) {
  return g > 0;
}

// A piece of the scan to refine: a sign change between two neighbours, or a minimum of
// |g| at a point between two neighbours that may touch zero.
struct Candidate {
  size_t i = 0;  // bracket: [i, i+1]; touch: [i−1, i+1] around i
  bool touch = false;
  double distance = 0;  // from the reference to the candidate's interval
  double left = 0;
};

class Solver {
 public:
  Solver(const catalog::Tool& tool, const catalog::Inputs& nominal, const SolveOptions& options)
      : options_(options), evaluator_(tool, nominal) {
    const auto& in = tool.descriptor.inputs.at(options.input);
    low_ = in.min.value_or(-HUGE_VAL);
    high_ = in.max.value_or(HUGE_VAL);
    integer_ = in.type == catalog::InputType::Integer;
  }

  SolveResult run() {
    std::vector<ScanPoint> scan;
    for (const double x : scan_points(low_, high_, options_.reference, integer_)) {
      ScanPoint p{x, false, 0};
      p.ok = g(x, p.g);
      if (p.ok && p.g == 0) roots_.push_back(x);
      scan.push_back(p);
    }
    std::vector<Candidate> candidates = find_candidates(scan);
    for (const Candidate& c : candidates) {
      if (budget_spent_) break;
      if (c.touch)
        refine_touch(scan[c.i - 1], scan[c.i], scan[c.i + 1]);
      else
        refine_bracket(scan[c.i], scan[c.i + 1]);
    }
    if (budget_spent_) result_.complete = false;
    collect();
    result_.evaluations = evaluator_.evaluations();
    return std::move(result_);
  }

 private:
  const SolveOptions& options_;
  Evaluator evaluator_;
  double low_ = 0, high_ = 0;
  bool integer_ = false;
  bool budget_spent_ = false;
  double largest_ = 0;  // the largest |f| seen
  std::vector<double> roots_;
  SolveResult result_;

  // g(x) = f(x) − V; false when the tool refuses x or the search budget is spent.
  bool g(double x, double& out) {
    if (evaluator_.evaluations() >= kSolveEvaluationBudget - static_cast<int64_t>(kMaxSolutions)) {
      budget_spent_ = true;
      return false;
    }
    evaluator_.set(options_.input, x);
    catalog::ToolError error;
    if (evaluator_.run(error) == nullptr) {
      if (!result_.first_failure) result_.first_failure = error;
      return false;
    }
    const double f = evaluator_.number(options_.output);
    result_.reach_min = result_.reach_min ? std::min(*result_.reach_min, f) : f;
    result_.reach_max = result_.reach_max ? std::max(*result_.reach_max, f) : f;
    largest_ = std::max(largest_, std::fabs(f));
    out = f - options_.target;
    return true;
  }

  double distance_to(double a, double b) const {
    const double r = options_.reference;
    return r < a ? a - r : (r > b ? r - b : 0);
  }

  std::vector<Candidate> find_candidates(const std::vector<ScanPoint>& s) const {
    std::vector<Candidate> out;
    for (size_t i = 0; i + 1 < s.size(); ++i) {
      const ScanPoint &a = s[i], &b = s[i + 1];
      if (a.ok && b.ok && a.g != 0 && b.g != 0 && sign_of(a.g) != sign_of(b.g))
        out.push_back({i, false, distance_to(a.x, b.x), a.x});
    }
    if (!integer_) {
      for (size_t i = 1; i + 1 < s.size(); ++i)
        if (may_touch(s[i - 1], s[i], s[i + 1]))
          out.push_back({i, true, distance_to(s[i - 1].x, s[i + 1].x), s[i - 1].x});
    }
    std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
      return a.distance != b.distance ? a.distance < b.distance : a.left < b.left;
    });
    return out;
  }

  // p is a local minimum of |g| with its neighbours on the same side of zero, and the
  // parabola through the three points reaches at least halfway from g(p) to zero: f may
  // touch (or cross and come back across) the target between the neighbours.
  static bool may_touch(const ScanPoint& a, const ScanPoint& p, const ScanPoint& b) {
    if (!a.ok || !p.ok || !b.ok || a.g == 0 || p.g == 0 || b.g == 0) return false;
    const bool s = sign_of(p.g);
    if (sign_of(a.g) != s || sign_of(b.g) != s) return false;
    if (!(std::fabs(p.g) < std::fabs(a.g) && std::fabs(p.g) <= std::fabs(b.g))) return false;
    // Newton form through (a, p, b): g ≈ g_a + d1·(x − x_a) + c·(x − x_a)(x − x_p).
    const double d1 = (p.g - a.g) / (p.x - a.x);
    const double d2 = (b.g - p.g) / (b.x - p.x);
    const double c = (d2 - d1) / (b.x - a.x);
    if (c == 0) return false;
    const double vertex = (a.x + p.x) / 2 - d1 / (2 * c);
    const double value = a.g + d1 * (vertex - a.x) + c * (vertex - a.x) * (vertex - p.x);
    return s ? value <= p.g / 2 : value >= p.g / 2;
  }

  void refine_bracket(const ScanPoint& a, const ScanPoint& b) {
    if (integer_) return refine_integer(a, b);
    const RootSearch r =
        brent_zero(a.x, b.x, a.g, b.g, [this](double x, double& gx) { return g(x, gx); });
    // A sign change with |g| still large where the bracket closed is a jump of the output
    // across the target (a step, a rounded value), not a point where it equals the target.
    if (r.status != SearchStatus::Failed && std::fabs(r.fx) <= kTouchTolerance * scale())
      roots_.push_back(r.x);
  }

  double scale() const { return std::max(std::fabs(options_.target), largest_); }

  // Integer input: bisection on integers down to two neighbours, then the one whose
  // output is nearer the target.
  void refine_integer(ScanPoint a, ScanPoint b) {
    while (b.x - a.x > 1) {
      ScanPoint m{std::floor(a.x + (b.x - a.x) / 2), false, 0};
      if (!g(m.x, m.g)) return;
      if (m.g == 0) {
        roots_.push_back(m.x);
        return;
      }
      (sign_of(m.g) == sign_of(a.g) ? a : b) = m;
    }
    roots_.push_back(std::fabs(a.g) <= std::fabs(b.g) ? a.x : b.x);
  }

  void refine_touch(const ScanPoint& a, const ScanPoint& p, const ScanPoint& b) {
    const double s = sign_of(p.g) ? 1 : -1;
    const MinimumSearch m =
        brent_localmin(a.x, b.x, p.x, s * p.g, 0, [this, s](double x, double& sg) {
          double gx = 0;
          if (!g(x, gx)) return false;
          sg = s * gx;
          return true;
        });
    if (m.status == SearchStatus::Failed) return;
    if (m.stopped) {  // crossed: one root on each side of the point reached
      const double gm = s * m.fx;
      if (gm == 0) {
        roots_.push_back(m.x);
        return;
      }
      refine_bracket(a, {m.x, true, gm});
      refine_bracket({m.x, true, gm}, b);
      return;
    }
    if (m.fx <= kTouchTolerance * scale()) roots_.push_back(m.x);  // a tangent
  }

  void collect() {
    for (double& x : roots_)
      if (x == 0) x = 0;
    std::sort(roots_.begin(), roots_.end());
    roots_.erase(std::unique(roots_.begin(), roots_.end()), roots_.end());
    const double r = options_.reference;
    std::stable_sort(roots_.begin(), roots_.end(),
                     [r](double a, double b) { return std::fabs(a - r) < std::fabs(b - r); });
    if (roots_.size() > kMaxSolutions) {
      roots_.resize(kMaxSolutions);
      result_.complete = false;
    }
    catalog::ToolError error;
    for (const double x : roots_) {
      evaluator_.set(options_.input, x);
      const catalog::Outputs* outputs = evaluator_.run(error);
      if (outputs != nullptr) result_.solutions.push_back({x, *outputs});
    }
  }
};

}  // namespace

SolveResult run_solve(const catalog::Tool& tool, const catalog::Inputs& nominal,
                      const SolveOptions& options) {
  if (tool.descriptor.outputs.at(options.output).type != catalog::OutputType::Number)
    throw std::logic_error("solve for a text output");
  Solver solver(tool, nominal, options);
  return solver.run();
}

}  // namespace toolcalc::analysis
