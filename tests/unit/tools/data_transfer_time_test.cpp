// data-transfer-time: descriptor, the worked examples of docs/tools/data-transfer-time.md
// (expected texts copied from that page), the unit definitions, and properties over random
// valid inputs. The tool has no 422 condition.
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
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.name.empty());
  EXPECT_FALSE(d.description.empty());
  EXPECT_FALSE(d.standard.has_value());
  EXPECT_EQ(d.endpoint(), "/v1/programming-dev/data-transfer-time");
  EXPECT_GE(d.references.size(), 3u);
  EXPECT_FALSE(d.examples.empty());

  ASSERT_EQ(d.inputs.size(), 5u);
  struct Num {
    size_t index;
    const char* key;
    const char* unit;
    double min, max, step, def;
  };
  for (const Num& n : {Num{0, "data_size", "(in size_unit)", 0.001, 1e12, 1, 10},
                       Num{2, "bandwidth", "(in bandwidth_unit)", 0.001, 1e12, 1, 100},
                       Num{4, "protocol_overhead_pct", "%", 0, 90, 0.5, 5}}) {
    const auto& in = d.inputs[n.index];
    SCOPED_TRACE(n.key);
    EXPECT_EQ(in.key, n.key);
    EXPECT_EQ(in.type, InputType::Number);
    EXPECT_TRUE(in.required);
    EXPECT_EQ(in.unit, n.unit);
    EXPECT_EQ(in.min, n.min);
    EXPECT_EQ(in.max, n.max);
    EXPECT_EQ(in.step, n.step);
    EXPECT_EQ(std::get<double>(in.default_value), n.def);
    EXPECT_TRUE(in.help.has_value());
  }
  const auto& size_unit = d.inputs[1];
  EXPECT_EQ(size_unit.key, "size_unit");
  EXPECT_EQ(size_unit.type, InputType::Enum);
  EXPECT_TRUE(size_unit.required);
  EXPECT_FALSE(size_unit.unit.has_value());
  EXPECT_EQ(size_unit.options,
            (std::vector<std::string>{"B", "kB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB"}));
  EXPECT_EQ(std::get<std::string>(size_unit.default_value), "GB");
  const auto& rate_unit = d.inputs[3];
  EXPECT_EQ(rate_unit.key, "bandwidth_unit");
  EXPECT_EQ(rate_unit.type, InputType::Enum);
  EXPECT_TRUE(rate_unit.required);
  EXPECT_FALSE(rate_unit.unit.has_value());
  EXPECT_EQ(rate_unit.options,
            (std::vector<std::string>{"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"}));
  EXPECT_EQ(std::get<std::string>(rate_unit.default_value), "Mbit/s");

  struct Out {
    const char* key;
    const char* unit;
    int precision;
  };
  const std::vector<Out> outputs = {
      {"size_bytes", "B", 0},
      {"effective_throughput_mbit_s", "Mbit/s", 6},
      {"effective_throughput_mbyte_s", "MB/s", 6},
      {"time_s", "s", 3},
      {"time_min", "min", 3},
      {"time_h", "h", 3},
      {"time_days", "days", 3},
  };
  ASSERT_EQ(d.outputs.size(), outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    SCOPED_TRACE(outputs[i].key);
    EXPECT_EQ(d.outputs[i].key, outputs[i].key);
    EXPECT_EQ(d.outputs[i].type, OutputType::Number);
    EXPECT_EQ(d.outputs[i].unit, outputs[i].unit);
    EXPECT_EQ(d.outputs[i].precision, outputs[i].precision);
    EXPECT_FALSE(d.outputs[i].label.empty());
  }
}

TEST(DataTransferTime, DescriptorExamplesRun) {
  for (const auto& ex : tool().descriptor.examples) {
    SCOPED_TRACE(ex.title);
    EXPECT_EQ(run_tool(tool(), ex.request_json).front(), '{');
  }
}

struct WorkedExample {
  const char* name;
  std::string body;
  // bytes, Mbit/s, MB/s, s, min, h, days
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/data-transfer-time.md, row by row.
TEST(DataTransferTime, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults",
       body(10, "GB", 100, "Mbit/s", 5),
       {"10000000000", "95.000000", "11.875000", "842.105", "14.035", "0.234", "0.010"}},
      {"2 every number at its minimum",
       body(0.001, "B", 0.001, "bit/s", 0),
       {"0", "0.000000", "0.000000", "8.000", "0.133", "0.002", "0.000"}},
      {"3 every number at its maximum",
       body(1e12, "TiB", 1e12, "Tbit/s", 90),
       {"1099511627776000000000000", "99999999999999980.000000", "12499999999999998.000000",
        "87.961", "1.466", "0.024", "0.001"}},
      {"4 binary prefix: 10 GiB on the default link",
       body(10, "GiB", 100, "Mbit/s", 5),
       {"10737418240", "95.000000", "11.875000", "904.204", "15.070", "0.251", "0.010"}},
      {"5 1 TB at 1 Gbit/s, no overhead",
       body(1, "TB", 1, "Gbit/s", 0),
       {"1000000000000", "1000.000000", "125.000000", "8000.000", "133.333", "2.222", "0.093"}},
      {"6 50 GiB over gigabit Ethernet, TCP/IPv4",
       body(50, "GiB", 1, "Gbit/s", 5.07),
       {"53687091200", "949.300000", "118.662500", "452.435", "7.541", "0.126", "0.005"}},
      {"7 1 MiB over a 9600 bit/s UART, 8N1",
       body(1, "MiB", 9600, "bit/s", 20),
       {"1048576", "0.007680", "0.000960", "1092.267", "18.204", "0.303", "0.013"}},
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

TEST(DataTransferTime, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(8000013);
  const auto& d = tool().descriptor;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int draw = 0; draw < 3000; ++draw) {
    const std::string json = tool_test::random_body(tool(), rng);
    const auto result = compute_body(tool(), json);
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result)) << json;
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
    const double ta = std::get<catalog::Outputs>(a).number("time_s");
    ASSERT_GT(std::get<catalog::Outputs>(b).number("time_s"), ta);
    ASSERT_NEAR(std::get<catalog::Outputs>(c).number("time_s") / ta, 1.073741824, 1e-12);
  }
}

}  // namespace
}  // namespace toolcalc::tools
