#include "analysis/tolerance.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analysis/evaluator.hpp"

namespace toolcalc::analysis {

double spec_mean(const ToleranceSpec& s) {
  return s.low + (s.high - s.low) / 2;
}

double spec_std(const ToleranceSpec& s) {
  const double width = s.high - s.low;
  if (s.distribution == Distribution::Uniform) return width / std::sqrt(12.0);
  return width / 6 * kTruncatedNormalStd;
}

double corner_low(const ToleranceSpec& s) {
  return s.integer ? std::ceil(s.low) : s.low;
}

double corner_high(const ToleranceSpec& s) {
  return s.integer ? std::floor(s.high) : s.high;
}

namespace {

// draw's last part: x kept within the range (and an integer's rounded), without -0.
double place(const ToleranceSpec& s, double x) {
  x = std::clamp(x, s.low, s.high);
  if (s.integer) x = std::clamp(std::round(x), corner_low(s), corner_high(s));
  return x == 0 ? 0 : x;
}

}  // namespace

double draw(const ToleranceSpec& s, Xoshiro256& rng) {
  if (s.distribution == Distribution::Uniform)
    return place(s, s.low + (s.high - s.low) * uniform01(rng));
  return place(s, spec_mean(s) + (s.high - s.low) / 6 * truncated_normal(rng));
}

int64_t tolerance_evaluations(size_t toleranced, int64_t samples) {
  return 1 + 2 * static_cast<int64_t>(toleranced) + (int64_t{1} << toleranced) + samples;
}

namespace {

// The two points of one input's derivative and the weights that combine f(x0), f(x1),
// f(x2) into f'(x0): the three-point formula for any two distinct offsets a = x1 − x0,
// b = x2 − x0 (exact for a quadratic), which is the central difference when b = −a and
// the second-order one-sided difference when b = 2a.
struct Difference {
  bool possible = false;
  double x1 = 0, x2 = 0;
  double w0 = 0, w1 = 0, w2 = 0;
};

Difference difference_for(const ToleranceSpec& s, const catalog::InputDescriptor& in) {
  const double x0 = s.nominal;
  const double scale = std::max(std::fabs(x0), (s.high - s.low) / 2);
  double h = kDifferenceStep * scale;
  if (s.integer) h = std::max(1.0, std::round(h));
  const double lo = in.min.value_or(-HUGE_VAL), hi = in.max.value_or(HUGE_VAL);
  Difference d;
  if (x0 - h >= lo && x0 + h <= hi) {
    d.x1 = x0 + h, d.x2 = x0 - h;  // central
  } else if (x0 + 2 * h <= hi) {
    d.x1 = x0 + h, d.x2 = x0 + 2 * h;  // forward, at the lower bound
  } else if (x0 - 2 * h >= lo) {
    d.x1 = x0 - h, d.x2 = x0 - 2 * h;  // backward, at the upper bound
  } else {
    return d;
  }
  const double a = d.x1 - x0, b = d.x2 - x0;  // the steps actually taken
  if (a == 0 || b == 0 || a == b) return d;
  d.possible = true;
  d.w0 = -(a + b) / (a * b);
  d.w1 = b / (a * (b - a));
  d.w2 = -a / (b * (b - a));
  return d;
}

class Analysis {
 public:
  Analysis(const catalog::Tool& tool, const catalog::Inputs& nominal,
           const ToleranceOptions& options)
      : options_(options),
        evaluator_(tool, nominal),
        numeric_(numeric_outputs(tool.descriptor)),
        text_(text_outputs(tool.descriptor)) {
    for (const auto& s : options.inputs) point_.push_back(s.nominal);
  }

  ToleranceOutcome run() {
    catalog::ToolError error;
    if (evaluator_.run(error) == nullptr)
      return ToleranceFailure{ToleranceFailure::Kind::Nominal, error, {}};
    start();
    differences();
    corners();
    if (!samples()) {
      const FailedPoint& first = *result_.first_failed_sample;
      return ToleranceFailure{ToleranceFailure::Kind::EverySample, first.error, first.at};
    }
    finish();
    result_.evaluations = evaluator_.evaluations();
    return std::move(result_);
  }

 private:
  const ToleranceOptions& options_;
  Evaluator evaluator_;
  std::vector<size_t> numeric_, text_;
  Point point_;  // the toleranced inputs' current values
  ToleranceResult result_;
  // Per numeric output, one per good sample: the first good_ of each are set.
  std::vector<std::vector<double>> values_;
  int64_t good_ = 0;
  std::vector<double> nominal_values_;
  std::vector<double> low_, high_;  // the extremes' values so far, per numeric output
  // derivative_[i][j]: ∂(numeric output j)/∂(toleranced input i)
  std::vector<std::vector<double>> derivative_;
  bool derivatives_known_ = true;

  void set_point() {
    for (size_t i = 0; i < point_.size(); ++i) evaluator_.set(options_.inputs[i].input, point_[i]);
  }

  // The outcomes start at the nominal: its values are the first extremes.
  void start() {
    for (const size_t o : numeric_) {
      NumericOutcome n;
      n.output = o;
      n.nominal = evaluator_.number(o);
      n.min = n.max = {n.nominal, point_};
      nominal_values_.push_back(n.nominal);
      result_.numeric.push_back(std::move(n));
    }
    for (const size_t o : text_) {
      TextOutcome t;
      t.output = o;
      t.nominal = evaluator_.text(o);
      result_.text.push_back(std::move(t));
    }
    low_ = high_ = nominal_values_;
    values_.assign(numeric_.size(), std::vector<double>(static_cast<size_t>(options_.samples)));
  }

  // Two evaluations per toleranced input, the others at their nominals.
  void differences() {
    const auto& inputs = evaluator_.descriptor().inputs;
    derivative_.assign(options_.inputs.size(), std::vector<double>(numeric_.size(), 0));
    catalog::ToolError error;
    for (size_t i = 0; i < options_.inputs.size(); ++i) {
      const ToleranceSpec& s = options_.inputs[i];
      const Difference d = difference_for(s, inputs[s.input]);
      if (!d.possible) {
        derivatives_known_ = false;
        continue;
      }
      std::vector<double> f1(numeric_.size()), f2(numeric_.size());
      bool ok = true;
      for (const auto& [x, f] : {std::pair{d.x1, &f1}, std::pair{d.x2, &f2}}) {
        evaluator_.set(s.input, x);
        if (evaluator_.run(error) == nullptr) {
          ok = false;
          continue;
        }
        *f = evaluator_.numeric_values();
      }
      evaluator_.set(s.input, s.nominal);
      if (!ok) {
        derivatives_known_ = false;
        continue;
      }
      for (size_t j = 0; j < numeric_.size(); ++j)
        derivative_[i][j] = d.w0 * nominal_values_[j] + d.w1 * f1[j] + d.w2 * f2[j];
    }
  }

  void track_extremes() {
    const double* v = evaluator_.numeric_values().data();
    for (size_t j = 0; j < numeric_.size(); ++j) {
      if (v[j] < low_[j]) result_.numeric[j].min = {low_[j] = v[j], point_};
      if (v[j] > high_[j]) result_.numeric[j].max = {high_[j] = v[j], point_};
    }
  }

  // 2^k evaluations: corner bit i set puts input i at its high end.
  void corners() {
    const size_t k = options_.inputs.size();
    catalog::ToolError error;
    for (uint64_t mask = 0; mask < (uint64_t{1} << k); ++mask) {
      for (size_t i = 0; i < k; ++i)
        point_[i] =
            (mask >> i) & 1 ? corner_high(options_.inputs[i]) : corner_low(options_.inputs[i]);
      set_point();
      if (evaluator_.run(error) == nullptr) {
        if (result_.failed_corners++ == 0) result_.first_failed_corner = {point_, error};
        continue;
      }
      track_extremes();
      for (size_t j = 0; j < text_.size(); ++j) {
        auto& seen = result_.text[j].corners;
        const std::string& value = evaluator_.text(text_[j]);
        if (std::find(seen.begin(), seen.end(), value) == seen.end()) seen.push_back(value);
      }
    }
  }

  // The samples' inputs, as draw gives them. When every input is normal (the default), the
  // truncated normals come from one TruncatedNormalStream over the generator (the same
  // values in the same order), each placed with its input's centre and scale computed once.
  class Draws {
   public:
    Draws(const std::vector<ToleranceSpec>& specs, uint64_t seed)
        : specs_(specs), rng_(seed), normals_(rng_) {
      for (const auto& s : specs) {
        all_normal_ = all_normal_ && s.distribution == Distribution::Normal;
        centre_.push_back(spec_mean(s));
        scale_.push_back((s.high - s.low) / 6);
      }
    }
    void next(Point& point) {
      if (!all_normal_) {
        for (size_t i = 0; i < point.size(); ++i) point[i] = draw(specs_[i], rng_);
        return;
      }
      for (size_t i = 0; i < point.size(); ++i)
        point[i] = place(specs_[i], centre_[i] + scale_[i] * normals_.next());
    }

   private:
    const std::vector<ToleranceSpec>& specs_;
    Xoshiro256 rng_;
    TruncatedNormalStream normals_;
    bool all_normal_ = true;
    std::vector<double> centre_, scale_;
  };

  // False when every sample failed.
  bool samples() {
    Draws draws(options_.inputs, options_.seed);
    catalog::ToolError error;
    for (int64_t n = 0; n < options_.samples; ++n) {
      draws.next(point_);
      set_point();
      if (evaluator_.run(error) == nullptr) {
        if (result_.failed_samples++ == 0) result_.first_failed_sample = {point_, error};
        continue;
      }
      track_extremes();
      const double* v = evaluator_.numeric_values().data();
      for (size_t j = 0; j < numeric_.size(); ++j) values_[j][static_cast<size_t>(good_)] = v[j];
      ++good_;
      for (size_t j = 0; j < text_.size(); ++j) {
        auto& counts = result_.text[j].samples;
        const std::string& value = evaluator_.text(text_[j]);
        auto it = std::find_if(counts.begin(), counts.end(),
                               [&](const TextCount& c) { return c.value == value; });
        if (it == counts.end())
          counts.push_back({value, 1});
        else
          ++it->count;
      }
    }
    return result_.failed_samples < options_.samples;
  }

  void finish() {
    for (size_t j = 0; j < numeric_.size(); ++j) {
      NumericOutcome& n = result_.numeric[j];
      values_[j].resize(static_cast<size_t>(good_));
      n.monte_carlo = summarise(values_[j]);
      std::vector<double>().swap(values_[j]);  // the samples are no longer needed
      if (derivatives_known_) rss(j, n);
    }
    for (auto& t : result_.text)
      std::stable_sort(t.samples.begin(), t.samples.end(),
                       [](const TextCount& a, const TextCount& b) {
                         return a.count != b.count ? a.count > b.count : a.value < b.value;
                       });
  }

  // u_c² = Σ (c_i·u_i)², the centre moved by Σ c_i·(μ_i − x0_i) when a range is not
  // centred on its nominal, and each input's share of u_c².
  void rss(size_t j, NumericOutcome& n) {
    CompensatedSum variance, shift;
    std::vector<double> terms(options_.inputs.size());
    for (size_t i = 0; i < options_.inputs.size(); ++i) {
      const ToleranceSpec& s = options_.inputs[i];
      const double c = derivative_[i][j];
      const double cu = c * spec_std(s);
      terms[i] = cu * cu;
      variance.add(terms[i]);
      shift.add(c * (spec_mean(s) - s.nominal));
    }
    const double total = variance.value();
    n.rss_known = true;
    n.rss_sigma = std::sqrt(total);
    const double centre = n.nominal + shift.value();
    n.rss_min = centre - kRssCoverage * n.rss_sigma;
    n.rss_max = centre + kRssCoverage * n.rss_sigma;
    for (size_t i = 0; i < options_.inputs.size(); ++i)
      n.sensitivity.push_back({i, derivative_[i][j], total > 0 ? terms[i] / total * 100 : 0});
    std::stable_sort(
        n.sensitivity.begin(), n.sensitivity.end(),
        [](const Sensitivity& a, const Sensitivity& b) { return a.share_pct > b.share_pct; });
  }
};

}  // namespace

ToleranceOutcome run_tolerance(const catalog::Tool& tool, const catalog::Inputs& nominal,
                               const ToleranceOptions& options) {
  if (options.inputs.empty() || options.inputs.size() > static_cast<size_t>(kMaxToleranced))
    throw std::logic_error("a tolerance analysis needs 1 to " + std::to_string(kMaxToleranced) +
                           " toleranced inputs");
  Analysis analysis(tool, nominal, options);
  return analysis.run();
}

}  // namespace toolcalc::analysis
