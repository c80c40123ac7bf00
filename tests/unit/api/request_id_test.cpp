// Request ids: "req_" and 24 characters drawn uniformly from the 62 of base62.
#include "api/request_id.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>

namespace toolcalc::api {
namespace {

constexpr std::string_view kAlphabet =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

TEST(RequestId, IsReqAndTwentyFourBase62Characters) {
  std::string id = "left over";
  assign_request_id(id);
  ASSERT_EQ(id.size(), 28u);
  EXPECT_TRUE(id.starts_with("req_"));
  for (char c : id.substr(4)) EXPECT_NE(kAlphabet.find(c), std::string_view::npos) << c;
}

// Every character equally likely: a chi-square test over 480,000 characters. With 61
// degrees of freedom the statistic exceeds 120 with probability below 1e-6, while a
// generator that never drew one character, or drew the rejected 6-bit values 62 and 63
// as characters, lands in the thousands.
TEST(RequestId, CharactersAreUniform) {
  std::array<int, 256> counts{};
  constexpr int kIds = 20'000;
  std::string id;
  for (int i = 0; i < kIds; ++i) {
    assign_request_id(id);
    for (char c : id.substr(4)) ++counts[static_cast<unsigned char>(c)];
  }
  const double expected = kIds * 24.0 / 62.0;
  double chi_square = 0;
  int total = 0;
  for (char c : kAlphabet) {
    const double d = counts[static_cast<unsigned char>(c)] - expected;
    chi_square += d * d / expected;
    total += counts[static_cast<unsigned char>(c)];
  }
  EXPECT_EQ(total, kIds * 24);  // no character outside the alphabet
  EXPECT_LT(chi_square, 120.0);
}

}  // namespace
}  // namespace toolcalc::api
