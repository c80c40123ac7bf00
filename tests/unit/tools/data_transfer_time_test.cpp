// data-transfer-time: the descriptor table, the worked examples of
// docs/tools/data-transfer-time.md (expected texts copied from that page), the unit definitions,
// the 422s, and properties over random valid inputs.
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
using tool_test::expected_result;
using tool_test::RequestBody;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_data_transfer_time();
  return t;
}

std::string body(double size, const char* size_unit, double bandwidth, const char* rate_unit,
                 double overhead_pct) {
  return RequestBody()
      .number("data_size", size)
      .text("size_unit", size_unit)
      .number("bandwidth", bandwidth)
      .text("bandwidth_unit", rate_unit)
      .number("protocol_overhead_pct", overhead_pct)
      .json();
}

TEST(DataTransferTime, Descriptor) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "data-transfer-time");
  EXPECT_EQ(d.domain, "programming-dev");
  EXPECT_EQ(d.version, "2.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"data_size", InputType::Number, "(in size_unit)", 0.001, 1e12, 1, 10.0},
             {.key = "size_unit",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("GB"),
              .options = {"B", "kB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB"}},
             {"bandwidth", InputType::Number, "(in bandwidth_unit)", 0.001, 1e12, 1, 100.0},
             {.key = "bandwidth_unit",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("Mbit/s"),
              .options = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"}},
             {"protocol_overhead_pct", InputType::Number, "%", 0, 90, 0.5, 5.0},
         });
  tool_test::expect_outputs(d, {
                                   {"size_bytes", OutputType::Number, "B", 0},
                                   {"effective_throughput_mbit_s", OutputType::Number, "Mbit/s", 6},
                                   {"effective_throughput_mbyte_s", OutputType::Number, "MB/s", 6},
                                   {"time_s", OutputType::Number, "s", 3},
                                   {"time_min", OutputType::Number, "min", 3},
                                   {"time_h", OutputType::Number, "h", 3},
                                   {"time_days", OutputType::Number, "days", 3},
                                   {"time_ms", OutputType::Number, "ms", 3},
                                   {"time_us", OutputType::Number, "µs", 3},
                                   {"time_ns", OutputType::Number, "ns", 3},
                                   {"effective_throughput_bit_s", OutputType::Number, "bit/s", 3},
                                   {"effective_throughput_byte_s", OutputType::Number, "B/s", 4},
                               });
}

// 64 kB at 10 Gbit/s with 5 % overhead takes 53.9 µs: time_s printed 0.000 before the finer
// outputs existed; now the time reads in µs (and ms, ns).
TEST(DataTransferTime, ShortTransferIsNotHiddenByRounding) {
  const std::string result = run_tool(tool(), body(64, "kB", 10, "Gbit/s", 5));
  EXPECT_EQ(tool_test::result_field(result, "time_s"), "0.000");
  EXPECT_EQ(tool_test::result_field(result, "time_us"), "53.895");
  EXPECT_EQ(tool_test::result_field(result, "time_ns"), "53894.737");
}

struct WorkedExample {
  const char* name;
  std::string body;
  // bytes, Mbit/s, MB/s, s, min, h, days, ms, µs, ns, bit/s, B/s
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/data-transfer-time.md, row by row.
TEST(DataTransferTime, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults",
       body(10, "GB", 100, "Mbit/s", 5),
       {"10000000000", "95.000000", "11.875000", "842.105", "14.035", "0.234", "0.010",
        "842105.263", "842105263.158", "842105263157.895", "95000000.000", "11875000.0000"}},
      {"2 one byte at 1 bit/s, the slowest it takes",
       body(1, "B", 1, "bit/s", 90),
       {"1", "0.000000", "0.000000", "80.000", "1.333", "0.022", "0.001", "80000.000",
        "80000000.000", "80000000000.000", "0.100", "0.0125"}},
      {"3 every number at its maximum",
       body(1e12, "TiB", 1e12, "Tbit/s", 90),
       {"1099511627776000000000000", "99999999999999980.000000", "12499999999999998.000000",
        "87.961", "1.466", "0.024", "0.001", "87960.930", "87960930.222", "87960930222.080",
        "100000000000000000000000.000", "12500000000000000000000.0000"}},
      {"4 binary prefix: 10 GiB on the default link",
       body(10, "GiB", 100, "Mbit/s", 5),
       {"10737418240", "95.000000", "11.875000", "904.204", "15.070", "0.251", "0.010",
        "904203.641", "904203641.263", "904203641263.158", "95000000.000", "11875000.0000"}},
      {"5 1 TB at 1 Gbit/s, no overhead",
       body(1, "TB", 1, "Gbit/s", 0),
       {"1000000000000", "1000.000000", "125.000000", "8000.000", "133.333", "2.222", "0.093",
        "8000000.000", "8000000000.000", "8000000000000.000", "1000000000.000", "125000000.0000"}},
      {"6 50 GiB over gigabit Ethernet, TCP/IPv4",
       body(50, "GiB", 1, "Gbit/s", 5.07),
       {"53687091200", "949.300000", "118.662500", "452.435", "7.541", "0.126", "0.005",
        "452435.194", "452435193.932", "452435193932.371", "949300000.000", "118662500.0000"}},
      {"7 1 MiB over a 9600 bit/s UART, 8N1",
       body(1, "MiB", 9600, "bit/s", 20),
       {"1048576", "0.007680", "0.000960", "1092.267", "18.204", "0.303", "0.013", "1092266.667",
        "1092266666.667", "1092266666666.667", "7680.000", "960.0000"}},
      {"8 64 kB at 10 Gbit/s",
       body(64, "kB", 10, "Gbit/s", 5),
       {"64000", "9500.000000", "1187.500000", "0.000", "0.000", "0.000", "0.000", "0.054",
        "53.895", "53894.737", "9500000000.000", "1187500000.0000"}},
      {"9 1.3 KiB is 1331.2 bytes, rounded up",
       body(1.3, "KiB", 1, "Mbit/s", 0),
       {"1332", "1.000000", "0.125000", "0.011", "0.000", "0.000", "0.000", "10.656", "10656.000",
        "10656000.000", "1000000.000", "125000.0000"}},
      {"10 one byte in exactly 1 ns",
       body(1, "B", 8, "Gbit/s", 0),
       {"1", "8000.000000", "1000.000000", "0.000", "0.000", "0.000", "0.000", "0.000", "0.001",
        "1.000", "8000000000.000", "1000000000.0000"}},
      {"14 a 400 MB file at 5 Mbit/s",
       body(400, "MB", 5, "Mbit/s", 0),
       {"400000000", "5.000000", "0.625000", "640.000", "10.667", "0.178", "0.007", "640000.000",
        "640000000.000", "640000000000.000", "5000000.000", "625000.0000"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(DataTransferTime, UnitsAreDecimalOrBinaryAsDefined) {
  const std::vector<std::pair<const char*, const char*>> sizes = {
      {"B", "1"},           {"kB", "1000"},          {"MB", "1000000"},
      {"GB", "1000000000"}, {"TB", "1000000000000"}, {"KiB", "1024"},
      {"MiB", "1048576"},   {"GiB", "1073741824"},   {"TiB", "1099511627776"},
  };
  for (const auto& [name, bytes] : sizes) {
    SCOPED_TRACE(name);
    EXPECT_EQ(
        tool_test::result_field(run_tool(tool(), body(1, name, 1, "Mbit/s", 0)), "size_bytes"),
        bytes);
  }
  const std::vector<std::pair<const char*, const char*>> rates = {
      {"bit/s", "0.000001"},     {"kbit/s", "0.001000"},       {"Mbit/s", "1.000000"},
      {"Gbit/s", "1000.000000"}, {"Tbit/s", "1000000.000000"},
  };
  for (const auto& [name, mbit] : rates) {
    SCOPED_TRACE(name);
    EXPECT_EQ(tool_test::result_field(run_tool(tool(), body(1, "MB", 1, name, 0)),
                                      "effective_throughput_mbit_s"),
              mbit);
  }
}

TEST(DataTransferTime, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(10, "KB", 100, "Mbit/s", 5)),
            "400:size_unit:size_unit must be one of: B, kB, MB, GB, TB, KiB, MiB, GiB, TiB");
  EXPECT_EQ(run_tool(tool(), body(10, "GB", 100, "MB/s", 5)),
            "400:bandwidth_unit:bandwidth_unit must be one of: bit/s, kbit/s, Mbit/s, Gbit/s, "
            "Tbit/s");
  EXPECT_EQ(run_tool(tool(), body(10, "GB", 100, "Mbit/s", 95)),
            "400:protocol_overhead_pct:protocol_overhead_pct must be at most 90");
  EXPECT_EQ(run_tool(tool(), body(0, "GB", 100, "Mbit/s", 5)),
            "400:data_size:data_size must be at least 0.001");
}

TEST(DataTransferTime, ImpossibleCombinationsAre422) {  // doc rows 11–13
  EXPECT_EQ(run_tool(tool(), body(0.9, "B", 1, "Mbit/s", 0)),
            "422:data_size:data_size of 0.9 B is less than one byte; a transfer moves whole "
            "bytes, so enter at least 1 B");
  EXPECT_EQ(run_tool(tool(), body(1, "kB", 0.5, "bit/s", 0)),
            "422:bandwidth:bandwidth of 0.5 bit/s is below 1 bit/s, slower than any data link; "
            "check the value and its unit");
  EXPECT_EQ(run_tool(tool(), body(1, "B", 8.1, "Gbit/s", 0)),
            "422:data_size:data_size of 1 B at this bandwidth would take 987.6543209876543 ps, "
            "less than 1 ns: light in a cable covers only 20 cm in that time, so latency, not "
            "bandwidth, sets such a transfer; enter a larger data_size");
}

TEST(DataTransferTime, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(8000013);
  const auto& d = tool().descriptor;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int draw = 0; draw < 3000; ++draw) {
    const std::string json = tool_test::random_body(tool(), rng);
    const auto result = compute_body(tool(), json);
    if (const auto* error = std::get_if<catalog::ToolError>(&result)) {
      ASSERT_TRUE(error->field == "data_size" || error->field == "bandwidth") << json;
      continue;
    }
    const auto& out = std::get<catalog::Outputs>(result);
    for (const auto& o : d.outputs) ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
    const double s = out.number("time_s");
    ASSERT_GT(s, 0) << json;
    // time = bits / throughput, and the time units agree.
    ASSERT_NEAR(s, out.number("size_bytes") * 8 / (out.number("effective_throughput_mbit_s") * 1e6),
                1e-9 * s);
    ASSERT_NEAR(out.number("time_min") * 60, s, 1e-9 * s);
    ASSERT_NEAR(out.number("time_h") * 3600, s, 1e-9 * s);
    ASSERT_NEAR(out.number("time_days") * 86400, s, 1e-9 * s);
    ASSERT_NEAR(out.number("time_ns") / 1e9, s, 1e-9 * s);
    ASSERT_GE(out.number("time_ns"), 1);
    ASSERT_EQ(out.number("size_bytes"), std::ceil(out.number("size_bytes")));
    ASSERT_NEAR(out.number("effective_throughput_mbit_s"),
                8 * out.number("effective_throughput_mbyte_s"),
                1e-12 * out.number("effective_throughput_mbit_s"));
  }
  // More overhead, longer transfer; a binary unit is always larger than its decimal one.
  for (int draw = 0; draw < 500; ++draw) {
    const double size = tool_test::draw_number(d.inputs[0], rng);
    const double rate = tool_test::draw_number(d.inputs[2], rng);
    const double o1 = 89 * unit(rng);
    const double o2 = o1 + 1;
    const auto a = compute_body(tool(), body(size, "GB", rate, "Mbit/s", o1));
    const auto b = compute_body(tool(), body(size, "GB", rate, "Mbit/s", o2));
    const auto c = compute_body(tool(), body(size, "GiB", rate, "Mbit/s", o1));
    // Under a nanosecond is a 422 (checked above); the other two are only slower.
    if (std::holds_alternative<catalog::ToolError>(a)) continue;
    const double ta = std::get<catalog::Outputs>(a).number("time_s");
    ASSERT_GT(std::get<catalog::Outputs>(b).number("time_s"), ta);
    // Equal up to the rounding to whole bytes (at least 10^6 of them here).
    ASSERT_NEAR(std::get<catalog::Outputs>(c).number("time_s") / ta, 1.073741824, 2e-6);
  }
}

}  // namespace
}  // namespace toolcalc::tools
