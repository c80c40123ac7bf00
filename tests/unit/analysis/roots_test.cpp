// Brent's zero and localmin against known answers.
#include "analysis/roots.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace toolcalc::analysis;

namespace {

template <class F>
RootSearch zero_of(double a, double b, F f, int* calls = nullptr) {
  auto counted = [&](double x, double& fx) {
    if (calls) ++*calls;
    fx = f(x);
    return true;
  };
  return brent_zero(a, b, f(a), f(b), counted);
}

}  // namespace

TEST(Roots, BrentZeroFindsKnownRootsToFullPrecision) {
  // cos x = x: the Dottie number.
  RootSearch r = zero_of(0, 1, [](double x) { return std::cos(x) - x; });
  EXPECT_EQ(r.status, SearchStatus::Converged);
  EXPECT_NEAR(r.x, 0.7390851332151607, 2e-16);
  // Wallis's cubic x³ − 2x − 5 = 0 (Brent 1973's and Numerical Recipes' example).
  int calls = 0;
  r = zero_of(
      2, 3, [](double x) { return x * x * x - 2 * x - 5; }, &calls);
  EXPECT_NEAR(r.x, 2.0945514815423265, 5e-16);
  EXPECT_LT(calls, 15);
  // A linear function: the secant step lands on the root.
  r = zero_of(-40, 125, [](double x) { return 3 * x; });
  EXPECT_NEAR(r.x, 0, 1e-12);
  // A root at an end.
  r = zero_of(1, 2, [](double x) { return x - 2; });
  EXPECT_EQ(r.x, 2);
}

TEST(Roots, BrentZeroReportsAFailedEvaluation) {
  auto f = [](double x, double& fx) {
    if (x > 0.5) return false;
    fx = x - 0.75;
    return true;
  };
  const RootSearch r = brent_zero(0, 1, -0.75, 0.25, f);
  EXPECT_EQ(r.status, SearchStatus::Failed);
}

TEST(Roots, LocalMinFindsAParabolasVertex) {
  auto f = [](double x, double& fx) {
    fx = (x - 2) * (x - 2) + 1;
    return true;
  };
  const MinimumSearch m = brent_localmin(0, 5, 1, 2, -1e300, f);
  EXPECT_EQ(m.status, SearchStatus::Converged);
  EXPECT_NEAR(m.x, 2, 1e-7);
  EXPECT_NEAR(m.fx, 1, 1e-14);
  EXPECT_FALSE(m.stopped);
}

TEST(Roots, LocalMinStopsWhereTheFunctionReachesTheThreshold) {
  auto f = [](double x, double& fx) {
    fx = (x - 2) * (x - 2) - 0.01;
    return true;
  };
  const MinimumSearch m = brent_localmin(0, 5, 1, 0.99, 0, f);
  EXPECT_TRUE(m.stopped);
  EXPECT_LE(m.fx, 0);
  EXPECT_NEAR(m.x, 2, 0.1);
}
