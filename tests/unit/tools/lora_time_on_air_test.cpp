// lora-time-on-air: the fixed descriptor keys, the published airtime tables of
// docs/tools/lora-time-on-air.md (The Things Network spreadsheet and calculator), and
// properties over random valid inputs. The tool has no 422 condition.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tools/tool_factories.hpp"
#include "tools/tool_test_support.hpp"

namespace toolcalc::tools {
namespace {

using catalog::InputType;
using catalog::OutputType;
using tool_test::compute_body;
using tool_test::RequestBody;
using tool_test::result_field;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_lora_time_on_air();
  return t;
}

std::string body(int sf, const char* bw, const char* cr, int payload, const char* ldro = "auto",
                 bool explicit_header = true, int preamble = 8, bool crc = true) {
  return RequestBody()
      .number("spreading_factor", sf)
      .text("bandwidth_khz", bw)
      .text("coding_rate", cr)
      .number("payload_bytes", payload)
      .number("preamble_symbols", preamble)
      .boolean("explicit_header", explicit_header)
      .boolean("crc", crc)
      .text("low_data_rate_optimize", ldro)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(LoraTimeOnAir, DescriptorKeepsTheFixedKeys) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "lora-time-on-air");
  EXPECT_EQ(d.domain, "iot-mcu");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  EXPECT_NE(d.references[0].find("SX1276"), std::string::npos);
  tool_test::expect_inputs(
      d, {
             {"spreading_factor", InputType::Integer, "", 7, 12, 1, 7.0},
             {.key = "bandwidth_khz",
              .type = InputType::Enum,
              .unit = "kHz",
              .default_value = std::string("125"),
              .required = false,
              .options = {"125", "250", "500"}},
             {.key = "coding_rate",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("4/5"),
              .required = false,
              .options = {"4/5", "4/6", "4/7", "4/8"}},
             {"payload_bytes", InputType::Integer, "bytes", 1, 255, 1, 20.0},
             {"preamble_symbols", InputType::Integer, "symbols", 6, 65535, 1, 8.0, false},
             {.key = "explicit_header",
              .type = InputType::Boolean,
              .unit = std::nullopt,
              .default_value = true,
              .required = false},
             {.key = "crc",
              .type = InputType::Boolean,
              .unit = std::nullopt,
              .default_value = true,
              .required = false},
             {.key = "low_data_rate_optimize",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("auto"),
              .required = false,
              .options = {"auto", "on", "off"}},
         });
  tool_test::expect_outputs(d,
                            {
                                {"symbol_time_ms", OutputType::Number, "ms", 3},
                                {"preamble_time_ms", OutputType::Number, "ms", 3},
                                {"payload_symbols", OutputType::Number, "symbols", 0},
                                {"time_on_air_ms", OutputType::Number, "ms", 3},
                                {"max_messages_per_hour_1pct", OutputType::Number, "packets/h", 0},
                            });
}

// M. Kooijman's LoRa airtime spreadsheet (The Things Network forum), 24 + 13 = 37 bytes,
// explicit header, low DR optimize "auto" (on for SF11–12 at 125 kHz), CR 4/5, 8 preamble
// symbols, 125 kHz: Tsym, Tpreamble, payloadSymbNb and Tpacket for SF7 … SF12.
TEST(LoraTimeOnAir, ReproducesTheThingsNetworkSpreadsheet) {
  struct Row {
    int sf;
    double tsym, tpreamble, symbols, tpacket;
  };
  const std::vector<Row> rows = {
      {7, 1.024, 12.544, 68, 82.176},      {8, 2.048, 25.088, 58, 143.872},
      {9, 4.096, 50.176, 53, 267.264},     {10, 8.192, 100.352, 48, 493.568},
      {11, 16.384, 200.704, 53, 1069.056}, {12, 32.768, 401.408, 48, 1974.272},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.sf);
    const std::string r = run_tool(tool(), body(row.sf, "125", "4/5", 37));
    EXPECT_DOUBLE_EQ(field(r, "symbol_time_ms"), row.tsym);
    EXPECT_DOUBLE_EQ(field(r, "preamble_time_ms"), row.tpreamble);
    EXPECT_DOUBLE_EQ(field(r, "payload_symbols"), row.symbols);
    EXPECT_DOUBLE_EQ(field(r, "time_on_air_ms"), row.tpacket);
  }
  // The other spreadsheet: 13 bytes at SF9 with the optimisation off.
  const std::string r = run_tool(tool(), body(9, "125", "4/5", 13, "off"));
  EXPECT_DOUBLE_EQ(field(r, "payload_symbols"), 28);
  EXPECT_DOUBLE_EQ(field(r, "time_on_air_ms"), 164.864);
}

// The unit tests of The Things Network airtime calculator (github.com/avbentem/
// airtime-calculator, src/lora/Airtime.test.ts): full packet size, SF, bandwidth, coding
// rate → airtime in ms; LoRaWAN defaults (explicit header, CRC, 8 preamble symbols).
TEST(LoraTimeOnAir, ReproducesTheThingsNetworkCalculatorTests) {
  struct Row {
    int size, sf;
    const char* bw;
    const char* cr;
    double ms;
  };
  const std::vector<Row> rows = {
      {14, 7, "125", "4/5", 46.336},   {15, 7, "125", "4/5", 46.336},
      {16, 7, "125", "4/5", 51.456},   {25, 7, "125", "4/5", 61.696},
      {14, 7, "250", "4/5", 23.168},   {16, 7, "250", "4/5", 25.728},
      {25, 7, "250", "4/5", 30.848},   {14, 7, "125", "4/8", 61.696},
      {16, 7, "125", "4/8", 69.888},   {25, 7, "125", "4/8", 86.272},
      {14, 7, "250", "4/8", 30.848},   {16, 7, "250", "4/8", 34.944},
      {25, 7, "250", "4/8", 43.136},   {14, 8, "125", "4/5", 82.432},
      {15, 8, "125", "4/5", 92.672},   {25, 8, "125", "4/5", 113.152},
      {14, 11, "125", "4/5", 659.456}, {16, 11, "125", "4/5", 659.456},
      {25, 11, "125", "4/5", 823.296},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(std::to_string(row.size) + " bytes SF" + std::to_string(row.sf) + " " + row.bw +
                 " " + row.cr);
    EXPECT_DOUBLE_EQ(
        field(run_tool(tool(), body(row.sf, row.bw, row.cr, row.size)), "time_on_air_ms"), row.ms);
  }
}

TEST(LoraTimeOnAir, DutyCycleCountsWholePacketsFromTheUnroundedAirtime) {
  // 82.176 ms at SF7: 36 s / 82.176 ms = 438.08 → 438 packets.
  EXPECT_EQ(result_field(run_tool(tool(), body(7, "125", "4/5", 37)), "max_messages_per_hour_1pct"),
            "438");
  // SF12 with a 65535-symbol preamble lasts about 2148 s: no packet fits in 36 s.
  EXPECT_EQ(result_field(run_tool(tool(), body(12, "125", "4/5", 255, "auto", true, 65535)),
                         "max_messages_per_hour_1pct"),
            "0");
}

TEST(LoraTimeOnAir, AutoOptimisationFollowsTheSixteenMillisecondRule) {
  // SF12 at 250 kHz has a 16.384 ms symbol: auto is on, so it matches "on", not "off".
  const auto with = [](const char* ldro) {
    return run_tool(tool(), body(12, "250", "4/5", 51, ldro));
  };
  EXPECT_EQ(with("auto"), with("on"));
  EXPECT_NE(with("auto"), with("off"));
  // SF10 at 125 kHz (8.192 ms): auto is off.
  EXPECT_EQ(run_tool(tool(), body(10, "125", "4/5", 51, "auto")),
            run_tool(tool(), body(10, "125", "4/5", 51, "off")));
}

TEST(LoraTimeOnAir, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(868);
  for (int draw = 0; draw < 3000; ++draw) {
    const std::string b = tool_test::random_body(tool(), rng);
    const auto result = compute_body(tool(), b);
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result)) << b;  // never a 422
    const auto& out = std::get<catalog::Outputs>(result);
    const double tsym = out.number("symbol_time_ms");
    const double symbols = out.number("payload_symbols");
    const double toa = out.number("time_on_air_ms");
    // Airtime = preamble + payload symbols, each a whole number of symbol times.
    ASSERT_NEAR(toa, out.number("preamble_time_ms") + symbols * tsym, 1e-9 * toa);
    ASSERT_GE(symbols, 8);
    // The count is the largest whole number of packets within 36 s.
    const double n = out.number("max_messages_per_hour_1pct");
    ASSERT_LE(n * toa, 36000 + 1e-6);
    ASSERT_GT((n + 1) * toa, 36000);
  }
  // More payload never shortens the packet; a higher SF always lengthens it.
  for (int sf = 7; sf <= 12; ++sf) {
    double previous = 0;
    for (int payload = 1; payload <= 255; ++payload) {
      const double toa = field(run_tool(tool(), body(sf, "125", "4/6", payload)), "time_on_air_ms");
      ASSERT_GE(toa, previous);
      previous = toa;
      if (sf < 12) {
        ASSERT_GT(field(run_tool(tool(), body(sf + 1, "125", "4/6", payload)), "time_on_air_ms"),
                  toa);
      }
    }
  }
}

}  // namespace
}  // namespace toolcalc::tools
