#include "accounts/api_key.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <set>

using namespace toolcalc::accounts;

TEST(ApiKey, LiveKeyIsPrefixAnd32Base62Characters) {
  const std::string key = generate_api_key(KeyKind::Live);
  ASSERT_EQ(key.size(), 40u);
  EXPECT_TRUE(key.starts_with("tc_live_"));
  for (char c : key.substr(8)) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c))) << key;
  EXPECT_TRUE(is_well_formed_key(key));
}

TEST(ApiKey, TestKeysUseTheTestPrefix) {
  const std::string key = generate_api_key(KeyKind::Test);
  EXPECT_TRUE(key.starts_with("tc_test_"));
  EXPECT_TRUE(is_well_formed_key(key));
}

TEST(ApiKey, PrefixIsTheFirstTwelveCharacters) {
  const std::string key = generate_api_key(KeyKind::Live);
  EXPECT_EQ(key_prefix(key), key.substr(0, 12));
  EXPECT_EQ(key_prefix(key).size(), 12u);
}

TEST(ApiKey, KeysDifferAndUseTheWholeAlphabet) {
  std::set<std::string> keys;
  std::set<char> chars;
  for (int i = 0; i < 2000; ++i) {
    const std::string k = generate_api_key(KeyKind::Live);
    keys.insert(k);
    for (char c : k.substr(8)) chars.insert(c);
  }
  EXPECT_EQ(keys.size(), 2000u);
  EXPECT_EQ(chars.size(), 62u);  // 64 000 draws: every base62 character shows up
}

TEST(ApiKey, RejectsMalformedKeys) {
  const std::string good = generate_api_key(KeyKind::Live);
  EXPECT_FALSE(is_well_formed_key(good.substr(0, 39)));
  EXPECT_FALSE(is_well_formed_key(good + "a"));
  EXPECT_FALSE(is_well_formed_key("tc_prod_" + good.substr(8)));
  std::string bad = good;
  bad[20] = '-';
  EXPECT_FALSE(is_well_formed_key(bad));
}

TEST(ApiKey, HashIsSha256) {
  // SHA-256("abc"), FIPS 180-2 appendix B.1.
  const std::string h = hash_api_key("abc");
  ASSERT_EQ(h.size(), 32u);
  static const unsigned char expected[] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
                                           0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
                                           0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
                                           0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
  EXPECT_EQ(h, std::string(reinterpret_cast<const char*>(expected), 32));
}

// The per-thread cache must answer exactly what SHA-256 answers: for 500 keys (far more
// than its 64 slots, so slots are overwritten), each asked three times in varying order,
// and for keys that differ from a cached one in the last character only.
TEST(ApiKey, CachedHashAlwaysEqualsTheHash) {
  std::vector<std::string> keys;
  for (int i = 0; i < 500; ++i)
    keys.push_back(generate_api_key(i % 2 ? KeyKind::Live : KeyKind::Test));
  for (int round = 0; round < 3; ++round)
    for (size_t i = 0; i < keys.size(); ++i) {
      const std::string& k = keys[(i * 7 + round * 13) % keys.size()];
      ASSERT_EQ(hash_api_key_cached(k), hash_api_key(k)) << k;
      std::string near = k;
      near.back() = near.back() == 'a' ? 'b' : 'a';
      ASSERT_EQ(hash_api_key_cached(near), hash_api_key(near)) << near;
      ASSERT_EQ(hash_api_key_cached(k), hash_api_key(k)) << k;
    }
  EXPECT_EQ(hash_api_key_cached("short"), hash_api_key("short"));
}

// A key differing from the cached one at any single position (same slot when the change
// is outside characters 8..15) gets its own hash, never the cached one.
TEST(ApiKey, CachedHashTellsKeysApartAtEveryPosition) {
  const std::string k = generate_api_key(KeyKind::Live);
  for (size_t i = 0; i < k.size(); ++i) {
    ASSERT_EQ(hash_api_key_cached(k), hash_api_key(k));
    std::string near = k;
    near[i] = near[i] == 'a' ? 'b' : 'a';
    ASSERT_EQ(hash_api_key_cached(near), hash_api_key(near)) << "position " << i;
    ASSERT_NE(hash_api_key(near), hash_api_key(k));
  }
}

TEST(BearerToken, AcceptsTheSchemeInAnyCase) {
  EXPECT_EQ(bearer_token("Bearer abc"), "abc");
  EXPECT_EQ(bearer_token("bearer abc"), "abc");
  EXPECT_EQ(bearer_token("BEARER   abc  "), "abc");
  EXPECT_EQ(bearer_token(" Bearer\tabc"), "abc");
}

TEST(BearerToken, RejectsOtherForms) {
  EXPECT_FALSE(bearer_token(""));
  EXPECT_FALSE(bearer_token("Bearer"));
  EXPECT_FALSE(bearer_token("Bearer "));
  EXPECT_FALSE(bearer_token("Bearerabc"));
  EXPECT_FALSE(bearer_token("Basic abc"));
  EXPECT_FALSE(bearer_token("Bearer abc def"));
  EXPECT_FALSE(bearer_token("abc"));
}
