#include "core/api_error.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace toolcalc {
namespace {

TEST(ErrorTable, EveryCodeHasOneNameAndAnErrorStatus) {
  std::set<std::string_view> names;
  for (const auto& kind : kErrorTable) {
    SCOPED_TRACE(std::string(kind.name));
    EXPECT_TRUE(names.insert(kind.name).second) << "names are unique";
    EXPECT_GE(kind.status, 400);
    EXPECT_LT(kind.status, 600);
    EXPECT_FALSE(kind.meaning.empty());
    for (char c : kind.name) EXPECT_TRUE((c >= 'A' && c <= 'Z') || c == '_');
  }
}

TEST(ErrorTable, AnErrorTakesItsStatusAndNameFromTheTable) {
  const ApiError e = validation_error("vin_v", "vin_v must be at least 1");
  EXPECT_EQ(e.status(), 400);
  EXPECT_EQ(e.code_name(), "VALIDATION_ERROR");
  EXPECT_EQ(e.field, "vin_v");
  EXPECT_EQ(ApiError{ErrorCode::RateLimited}.status(), 429);
  EXPECT_EQ(ApiError{ErrorCode::StoreUnavailable}.code_name(), "STORE_UNAVAILABLE");
  EXPECT_EQ(internal_error().status(), 500);
}

}  // namespace
}  // namespace toolcalc
