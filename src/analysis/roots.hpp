#pragma once
// Brent's methods (R. P. Brent, "Algorithms for Minimization without Derivatives",
// Prentice-Hall 1973): ch. 4's `zero` (bisection, secant and inverse quadratic
// interpolation; never slower than bisection by more than a bounded factor) and ch. 5's
// `localmin` (golden section and successive parabolic interpolation), transcribed from
// the book's ALGOL 60 procedures. The function may fail at a point (a tool's 422): the
// search then stops and reports it.
#include <cmath>
#include <limits>

namespace toolcalc::analysis {

inline constexpr double kMachineEpsilon = std::numeric_limits<double>::epsilon();  // 2^-52
// Iterations each search may take (Numerical Recipes' ITMAX): a bracket of a double
// shrinks to full precision in far fewer.
inline constexpr int kMaxIterations = 100;

enum class SearchStatus {
  Converged,  // within the tolerance (or an exact zero was met)
  Exhausted,  // kMaxIterations or the caller's evaluation budget ran out first
  Failed,     // the function could not be evaluated at a point
};

struct RootSearch {
  SearchStatus status = SearchStatus::Converged;
  double x = 0;   // the last estimate (the root when Converged)
  double fx = 0;  // f(x)
};

// A zero of f in [a, b], where fa = f(a) and fb = f(b) have opposite signs (or one is
// zero). `f(x, fx)` returns false when f cannot be evaluated at x (or the budget is
// spent). Converges when the bracket is within 2·ε·|x| + t, with t = ε·max(|a|, |b|)
// (absolute, for a root at or near 0).
template <class F>
RootSearch brent_zero(double a, double b, double fa, double fb, F&& f) {
  RootSearch out;
  const double t = kMachineEpsilon * std::fmax(std::fabs(a), std::fabs(b));
  double c = a, fc = fa, d = b - a, e = d;
  for (int iteration = 0;; ++iteration) {
    if (std::fabs(fc) < std::fabs(fb)) {
      a = b, b = c, c = a;
      fa = fb, fb = fc, fc = fa;
    }
    const double tol = 2 * kMachineEpsilon * std::fabs(b) + t;
    const double m = 0.5 * (c - b);
    out.x = b, out.fx = fb;
    if (std::fabs(m) <= tol || fb == 0) return out;
    if (iteration == kMaxIterations) {
      out.status = SearchStatus::Exhausted;
      return out;
    }
    if (std::fabs(e) < tol || std::fabs(fa) <= std::fabs(fb)) {
      d = e = m;  // bisection
    } else {
      double s = fb / fa, p, q;
      if (a == c) {  // linear interpolation
        p = 2 * m * s;
        q = 1 - s;
      } else {  // inverse quadratic interpolation
        q = fa / fc;
        const double r = fb / fc;
        p = s * (2 * m * q * (q - r) - (b - a) * (r - 1));
        q = (q - 1) * (r - 1) * (s - 1);
      }
      if (p > 0)
        q = -q;
      else
        p = -p;
      s = e;
      e = d;
      if (2 * p < 3 * m * q - std::fabs(tol * q) && p < std::fabs(0.5 * s * q)) {
        d = p / q;
      } else {
        d = e = m;
      }
    }
    a = b, fa = fb;
    b += std::fabs(d) > tol ? d : (m > 0 ? tol : -tol);
    if (!f(b, fb)) {
      out.status = SearchStatus::Failed;
      out.x = b;
      return out;
    }
    if ((fb > 0) == (fc > 0)) {
      c = a, fc = fa;
      d = e = b - a;
    }
  }
}

struct MinimumSearch {
  SearchStatus status = SearchStatus::Converged;
  double x = 0;
  double fx = 0;
  bool stopped = false;  // f(x) ≤ stop_at: the search ended there (Converged)
};

// A local minimum of f on (a, b), starting from x (a < x < b) with fx = f(x). Converges
// when x is within √ε·|x| + t of it, t = ε·max(|a|, |b|). Stops early, at the first point
// where f ≤ stop_at (the solver only needs to know that f reaches the target).
template <class F>
MinimumSearch brent_localmin(double a, double b, double x, double fx, double stop_at, F&& f) {
  constexpr double kGolden = 0.3819660112501051;  // (3 − √5)/2
  const double eps = 1.4901161193847656e-08;      // √ε = 2^-26
  const double t = kMachineEpsilon * std::fmax(std::fabs(a), std::fabs(b));
  MinimumSearch out;
  double v = x, w = x, fv = fx, fw = fx, d = 0, e = 0;
  for (int iteration = 0;; ++iteration) {
    const double m = 0.5 * (a + b);
    const double tol = eps * std::fabs(x) + t;
    const double t2 = 2 * tol;
    out.x = x, out.fx = fx;
    if (std::fabs(x - m) <= t2 - 0.5 * (b - a)) return out;
    if (iteration == kMaxIterations) {
      out.status = SearchStatus::Exhausted;
      return out;
    }
    double p = 0, q = 0, r = 0;
    if (std::fabs(e) > tol) {  // fit a parabola through x, w and v
      r = (x - w) * (fx - fv);
      q = (x - v) * (fx - fw);
      p = (x - v) * q - (x - w) * r;
      q = 2 * (q - r);
      if (q > 0)
        p = -p;
      else
        q = -q;
      r = e;
      e = d;
    }
    if (std::fabs(p) < std::fabs(0.5 * q * r) && p > q * (a - x) && p < q * (b - x)) {
      d = p / q;  // a parabolic interpolation step
      const double u = x + d;
      if (u - a < t2 || b - u < t2) d = x < m ? tol : -tol;
    } else {
      e = x < m ? b - x : a - x;  // a golden-section step
      d = kGolden * e;
    }
    const double u = x + (std::fabs(d) >= tol ? d : (d > 0 ? tol : -tol));
    double fu = 0;
    if (!f(u, fu)) {
      out.status = SearchStatus::Failed;
      out.x = u;
      return out;
    }
    if (fu <= stop_at) {
      out.x = u, out.fx = fu, out.stopped = true;
      return out;
    }
    if (fu <= fx) {
      if (u < x)
        b = x;
      else
        a = x;
      v = w, fv = fw;
      w = x, fw = fx;
      x = u, fx = fu;
    } else {
      if (u < x)
        a = u;
      else
        b = u;
      if (fu <= fw || w == x) {
        v = w, fv = fw;
        w = u, fw = fu;
      } else if (fu <= fv || v == x || v == w) {
        v = u, fv = fu;
      }
    }
  }
}

}  // namespace toolcalc::analysis
