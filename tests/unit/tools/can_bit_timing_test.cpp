// can-bit-timing: descriptor, the published bit-timing examples of docs/tools/can-bit-timing.md
// (Microchip, TI, Maxim, Beckhoff/SJA1000 tables), each 422, and properties over random valid
// inputs.
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
  static const catalog::Tool t = make_can_bit_timing();
  return t;
}

std::string body(double clock, int prescaler, int tseg1, int tseg2, int sjw,
                 double target_kbps = 500) {
  return RequestBody()
      .number("clock_hz", clock)
      .number("prescaler", prescaler)
      .number("tseg1_tq", tseg1)
      .number("tseg2_tq", tseg2)
      .number("sjw_tq", sjw)
      .number("target_bitrate_kbps", target_kbps)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(CanBitTiming, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "can-bit-timing");
  EXPECT_EQ(d.domain, "iot-mcu");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_EQ(d.standard, "ISO 11898-1");
  tool_test::expect_inputs(
      d, {
             {"clock_hz", InputType::Number, "Hz", 1e6, 2e8, 1, 16000000.0},
             {"prescaler", InputType::Integer, "", 1, 1024, 1, 2.0},
             {"tseg1_tq", InputType::Integer, "tq", 1, 256, 1, 13.0},
             {"tseg2_tq", InputType::Integer, "tq", 1, 128, 1, 2.0},
             {"sjw_tq", InputType::Integer, "tq", 1, 128, 1, 1.0, false},
             {"target_bitrate_kbps", InputType::Number, "kbit/s", 1, 1000, 1, 500.0, false},
         });
  tool_test::expect_outputs(d, {
                                   {"time_quantum_ns", OutputType::Number, "ns", 3},
                                   {"tq_per_bit", OutputType::Number, "tq", 0},
                                   {"bit_time_us", OutputType::Number, "µs", 4},
                                   {"bit_rate_kbps", OutputType::Number, "kbit/s", 3},
                                   {"bit_rate_bps", OutputType::Number, "bit/s", 2},
                                   {"sample_point_pct", OutputType::Number, "%", 2},
                                   {"bitrate_error_pct", OutputType::Number, "%", 3},
                                   {"bitrate_error_ppm", OutputType::Number, "ppm", 3},
                               });
  EXPECT_EQ(d.outputs[3].small_values_in, "bit_rate_bps");
  EXPECT_EQ(d.outputs[6].small_values_in, "bitrate_error_ppm");
}

TEST(CanBitTiming, VendorExamples) {
  // Microchip MCAN: NBTP reset value at an 8 MHz CAN clock is 500 kbit/s.
  EXPECT_EQ(field(run_tool(tool(), body(8e6, 1, 11, 4, 4)), "bit_rate_kbps"), 500);
  // TI MSP432E4 TRM §11.3.16.2: 50 MHz, prescaler 50, TSeg1 5, TSeg2 4 → tq 1 µs, 10 tq,
  // bit time 10 µs, 100 kbit/s.
  const std::string msp = run_tool(tool(), body(50e6, 50, 5, 4, 4, 100));
  EXPECT_EQ(field(msp, "time_quantum_ns"), 1000);
  EXPECT_EQ(field(msp, "tq_per_bit"), 10);
  EXPECT_EQ(field(msp, "bit_time_us"), 10);
  EXPECT_EQ(field(msp, "bit_rate_kbps"), 100);
  EXPECT_EQ(field(msp, "bitrate_error_pct"), 0);
  // TI AM335x TRM §23.3.16.2.2: tq = 100 ns, TSeg1 8, TSeg2 1 → bit time 1000 ns.
  const std::string am335x = run_tool(tool(), body(10e6, 1, 8, 1, 1, 1000));
  EXPECT_EQ(field(am335x, "time_quantum_ns"), 100);
  EXPECT_EQ(field(am335x, "bit_time_us"), 1);
}

// Maxim High-Speed Microcontroller User's Guide: Network Microcontroller Supplement, p. 164,
// "Bus Rate Timing Example" (tq = CCD·BRPV/FOSC): FOSC, CCD·BRPV, tq, rate, tq per bit, TS1,
// TS2, SJW.
TEST(CanBitTiming, MaximBusRateTable) {
  struct Row {
    double fosc;
    int prescaler;
    double tq_ns, kbps, tq_per_bit;
    int ts1, ts2, sjw;
  };
  const std::vector<Row> rows = {
      {40e6, 4, 100, 1000, 10, 5, 4, 3},  {40e6, 8, 200, 500, 10, 5, 4, 3},
      {40e6, 10, 250, 250, 16, 10, 5, 4}, {40e6, 20, 500, 125, 16, 10, 5, 4},
      {16e6, 2, 125, 1000, 8, 4, 3, 2},   {16e6, 2, 125, 500, 16, 10, 5, 4},
      {16e6, 8, 500, 125, 16, 10, 5, 4},  {8e6, 1, 125, 1000, 8, 4, 3, 2},
      {8e6, 4, 500, 125, 16, 10, 5, 4},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(std::to_string(row.fosc) + " Hz, " + std::to_string(row.kbps) + " kbit/s");
    const std::string r =
        run_tool(tool(), body(row.fosc, row.prescaler, row.ts1, row.ts2, row.sjw, row.kbps));
    EXPECT_DOUBLE_EQ(field(r, "time_quantum_ns"), row.tq_ns);
    EXPECT_DOUBLE_EQ(field(r, "tq_per_bit"), row.tq_per_bit);
    EXPECT_DOUBLE_EQ(field(r, "bit_rate_kbps"), row.kbps);
  }
}

// Beckhoff CANopen bit-timing table for SJA1000-type controllers (BTR1 0x14, 0x16, 0x1C:
// TSEG1 = 5, 7, 13 and TSEG2 = 2 tq), which prints the sample points truncated: 75 %, 80 %,
// 87 %. The sample point depends on the segments only; 16 MHz with BRP 0 (prescaler 2) is
// the SJA1000 clock that gives the table's 1000, 800 and 500 kbit/s.
TEST(CanBitTiming, SamplePointsOfTheCanopenTable) {
  EXPECT_EQ(result_field(run_tool(tool(), body(16e6, 2, 5, 2, 1, 1000)), "sample_point_pct"),
            "75.00");
  EXPECT_EQ(result_field(run_tool(tool(), body(16e6, 2, 7, 2, 1, 800)), "sample_point_pct"),
            "80.00");
  const std::string r = run_tool(tool(), body(16e6, 2, 13, 2, 1, 500));
  EXPECT_EQ(result_field(r, "sample_point_pct"), "87.50");
  EXPECT_EQ(result_field(r, "bit_rate_kbps"), "500.000");
}

TEST(CanBitTiming, ErrorAgainstTheTarget) {
  // 36 MHz / (4 · 18) = 500 kbit/s exactly; against 125 kbit/s it is +300 %.
  const std::string exact = run_tool(tool(), body(36e6, 4, 15, 2, 1, 500));
  EXPECT_EQ(result_field(exact, "bitrate_error_pct"), "0.000");
  EXPECT_EQ(result_field(exact, "bitrate_error_ppm"), "0.000");
  EXPECT_EQ(result_field(run_tool(tool(), body(36e6, 4, 15, 2, 1, 125)), "bitrate_error_pct"),
            "300.000");
  // A slightly slow clock: 15.9 MHz / 32 = 496.875 kbit/s, −0.625 % = −6250 ppm.
  const std::string slow = run_tool(tool(), body(15.9e6, 2, 13, 2, 1, 500));
  EXPECT_EQ(result_field(slow, "bitrate_error_pct"), "-0.625");
  EXPECT_EQ(result_field(slow, "bitrate_error_ppm"), "-6250.000");
  // A crystal 50 ppm fast: 0.005 % shows two digits in per cent, all of them in ppm.
  EXPECT_EQ(result_field(run_tool(tool(), body(16.0008e6, 2, 13, 2, 1, 500)), "bitrate_error_ppm"),
            "50.000");
}

TEST(CanBitTiming, SjwLongerThanAPhaseSegmentIsA422) {
  EXPECT_EQ(run_tool(tool(), body(16e6, 2, 13, 2, 3)),
            "422:sjw_tq:sjw_tq (3 tq) exceeds phase segment 2 (tseg2_tq = 2 tq); ISO 11898-1 "
            "requires SJW ≤ Phase_Seg2: set sjw_tq to at most 2.");
  EXPECT_EQ(run_tool(tool(), body(16e6, 2, 2, 8, 4)),
            "422:sjw_tq:sjw_tq (4 tq) exceeds tseg1_tq (2 tq), which holds phase segment 1; "
            "ISO 11898-1 requires SJW ≤ Phase_Seg1: set sjw_tq to at most 2.");
  // Equal is allowed.
  EXPECT_EQ(run_tool(tool(), body(8e6, 1, 11, 4, 4)).front(), '{');
}

TEST(CanBitTiming, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(11898);
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    const std::string b = tool_test::random_body(tool(), rng);
    const auto result = compute_body(tool(), b);
    if (!std::holds_alternative<catalog::Outputs>(result)) continue;
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    const double n = out.number("tq_per_bit");
    ASSERT_NEAR(out.number("bit_time_us") * 1000, out.number("time_quantum_ns") * n,
                1e-9 * out.number("bit_time_us") * 1000);
    ASSERT_NEAR(out.number("bit_rate_bps") * out.number("bit_time_us") * 1e-6, 1, 1e-12);
    ASSERT_NEAR(out.number("bit_rate_kbps") * 1000, out.number("bit_rate_bps"),
                1e-9 * out.number("bit_rate_bps"));
    const double sp = out.number("sample_point_pct");
    ASSERT_GT(sp, 0);
    ASSERT_LT(sp, 100);
    // The sample point sits TSEG2 quanta before the end of the bit.
    ASSERT_NEAR((100 - sp) / 100 * n, std::stod(result_field(b, "tseg2_tq")), 1e-9);
    const double target = std::stod(result_field(b, "target_bitrate_kbps")) * 1000;
    ASSERT_NEAR(out.number("bitrate_error_pct"),
                (out.number("bit_rate_bps") - target) / target * 100,
                1e-9 * std::fabs(out.number("bitrate_error_pct")) + 1e-12);
    ASSERT_NEAR(out.number("bitrate_error_ppm"), out.number("bitrate_error_pct") * 1e4,
                1e-9 * std::fabs(out.number("bitrate_error_ppm")) + 1e-12);
  }
  EXPECT_GT(computed, 1000);
}

}  // namespace
}  // namespace toolcalc::tools
