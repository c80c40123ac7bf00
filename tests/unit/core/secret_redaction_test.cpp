#include "core/secret_redaction.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using toolcalc::redact_keys;

namespace {

constexpr const char* kKey = "tc_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345";

// What redact_keys makes of `text`, or "(none)" when it finds no key.
std::string redacted(std::string_view text) {
  std::string out;
  return redact_keys(text, out) ? out : std::string("(none)");
}

}  // namespace

TEST(SecretRedaction, PlainKeyKeepsItsPrefix) {
  // Appended in place: g++ 12 warns falsely (-Warray-bounds, GCC bug 105651) on the
  // moved-from temporary of std::string("…") + kKey.
  std::string path = "/v1/tools/";
  path += kKey;
  EXPECT_EQ(redacted(path), "/v1/tools/tc_live_AbCd[redacted]");
  EXPECT_EQ(redacted("no tool 'tc_test_ZyXwVuTsRqPo0987' in domain 'x'"),
            "no tool 'tc_test_ZyXw[redacted]' in domain 'x'");
}

TEST(SecretRedaction, TextWithoutAKeyIsLeftAlone) {
  EXPECT_EQ(redacted("/v1/tools/rc-filter"), "(none)");
  EXPECT_EQ(redacted("/tc_x/tc_live_/tc_livex_AbCdEfGh/tc_live_AbCd"), "(none)");
  EXPECT_EQ(redacted("100%25 of %zz and a trailing %5"), "(none)");
  EXPECT_EQ(redacted(""), "(none)");
}

TEST(SecretRedaction, PercentEncodedUnderscoresInEitherCase) {
  EXPECT_EQ(redacted("/v1/tools/tc%5Flive%5FAbCdEfGhIjKlMnOpQrStUvWxYz012345"),
            "/v1/tools/tc%5Flive%5FAbCd[redacted]");
  EXPECT_EQ(redacted("/v1/tools/tc%5flive%5fAbCdEfGhIjKlMnOpQrStUvWxYz012345/x"),
            "/v1/tools/tc%5flive%5fAbCd[redacted]/x");
  EXPECT_EQ(redacted("/v1/tools/tc%5Ftest%5fAbCdEfGhIjKlMnOpQrStUvWxYz012345"),
            "/v1/tools/tc%5Ftest%5fAbCd[redacted]");
}

TEST(SecretRedaction, EveryCharacterPercentEncoded) {
  // "tc_live_AbCdEf" spelled wholly as %XX, as an encoder that escapes everything would.
  std::string spelled;
  for (char c : std::string(kKey)) {
    char hex[4];
    std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
    spelled += hex;
  }
  const std::string out = redacted("/v1/" + spelled + "?q");
  EXPECT_EQ(out, "/v1/%74%63%5F%6C%69%76%65%5F%41%62%43%64[redacted]?q");
}

TEST(SecretRedaction, DoubleAndTripleEncoding) {
  EXPECT_EQ(redacted("/v1/tools/tc%255Flive%255FAbCdEfGhIjKlMnOpQrStUvWxYz012345"),
            "/v1/tools/tc%255Flive%255FAbCd[redacted]");
  EXPECT_EQ(redacted("/v1/tools/tc%25255Flive%25255fAbCdEfGhIjKlMnOpQrStUvWxYz012345"),
            "/v1/tools/tc%25255Flive%25255fAbCd[redacted]");
}

TEST(SecretRedaction, EncodedCharactersInsideTheSecretPart) {
  // The secret's own letters encoded: the whole run still goes.
  EXPECT_EQ(redacted("/x/tc_live_AbCd%45%66GhIjKlMnOpQrStUvWxYz012345/y"),
            "/x/tc_live_AbCd[redacted]/y");
  EXPECT_EQ(redacted("/x/tc_live_AbCdEfGhIjKlMnOp%51rStUvWxYz012345/y"),
            "/x/tc_live_AbCd[redacted]/y");
}

TEST(SecretRedaction, PlusIsNotASpellingOfAKeyCharacter) {
  // '+' is a space only in form-encoded query strings; no key character is either.
  EXPECT_EQ(redacted("/v1/tc+live+AbCdEfGhIjKlMnOpQrStUvWxYz012345"), "(none)");
  EXPECT_EQ(redacted("/v1/tc_live_AbCdEf+GhIj"), "/v1/tc_live_AbCd[redacted]+GhIj");
}

TEST(SecretRedaction, SeveralKeysInOneText) {
  EXPECT_EQ(redacted("a tc_live_AbCdEfGh b tc%5Ftest_ZyXwVuTs c"),
            "a tc_live_AbCd[redacted] b tc%5Ftest_ZyXw[redacted] c");
}

TEST(SecretRedaction, WithoutKeysReturnsTheTextWhenThereIsNone) {
  std::string scratch = "untouched";
  EXPECT_EQ(toolcalc::without_keys("plain", scratch), "plain");
  EXPECT_EQ(scratch, "untouched");
  EXPECT_EQ(toolcalc::without_keys("tc_live_AbCdEfGh", scratch), "tc_live_AbCd[redacted]");
}
