// raid-capacity: the descriptor table, the published examples of docs/tools/raid-capacity.md
// (expected values from those sources), the page's worked-example rows, every 422 (too few
// disks, an odd RAID 10), and properties over random valid inputs.
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
using tool_test::result_field;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_raid_capacity();
  return t;
}

std::string body(const char* level, double disks, double size_tb, double rate_mb_s) {
  return RequestBody()
      .text("raid_level", level)
      .number("disks", disks)
      .number("disk_size_tb", size_tb)
      .number("rebuild_rate_mb_s", rate_mb_s)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(RaidCapacity, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "raid-capacity");
  EXPECT_EQ(d.domain, "programming-dev");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(d,
                           {
                               {.key = "raid_level",
                                .type = InputType::Enum,
                                .unit = std::nullopt,
                                .default_value = std::string("raid5"),
                                .options = {"raid0", "raid1", "raid5", "raid6", "raid10"}},
                               {"disks", InputType::Integer, "disks", 1, 100, 1, 4.0},
                               {"disk_size_tb", InputType::Number, "TB", 0.1, 100, 0.1, 4.0},
                               {"rebuild_rate_mb_s", InputType::Number, "MB/s", 1, 10000, 1, 100.0},
                           });
  tool_test::expect_outputs(d, {
                                   {"usable_capacity_tb", OutputType::Number, "TB", 3},
                                   {"raw_capacity_tb", OutputType::Number, "TB", 3},
                                   {"usable_pct", OutputType::Number, "%", 2},
                                   {"failures_tolerated", OutputType::Number, "disks", 0},
                                   {"max_failures_tolerated", OutputType::Number, "disks", 0},
                                   {"rebuild_time_h", OutputType::Number, "h", 2},
                                   {"rebuild_time_min", OutputType::Number, "min", 3},
                               });
}

// The published numbers, as their sources print them.
TEST(RaidCapacity, ReproducesPublishedExamples) {
  // nicolas17's gist: 6×16 TB as RAID-6 → 64 TB, as RAID-5 → 80 TB.
  EXPECT_NEAR(field(run_tool(tool(), body("raid6", 6, 16, 150)), "usable_capacity_tb"), 64, 1e-9);
  EXPECT_NEAR(field(run_tool(tool(), body("raid5", 6, 16, 150)), "usable_capacity_tb"), 80, 1e-9);
  // IBM Power9 RAID level summary: RAID 5 from 67 % (3 disks), RAID 6 from 50 % (4 disks),
  // RAID 10 50 %.
  EXPECT_NEAR(field(run_tool(tool(), body("raid5", 3, 1, 100)), "usable_pct"), 67, 0.5);
  EXPECT_NEAR(field(run_tool(tool(), body("raid6", 4, 1, 100)), "usable_pct"), 50, 1e-9);
  // php-raid README: RAID 10 of four 1 TB drives, 2 TB.
  EXPECT_NEAR(field(run_tool(tool(), body("raid10", 4, 1, 100)), "usable_capacity_tb"), 2, 1e-9);
  // StorageMath: 8 TB at ~385 MB/s ~5.8 hrs, at ~2,450 MB/s ~54 min, at ~105 MB/s ~21 hrs.
  EXPECT_NEAR(field(run_tool(tool(), body("raid5", 4, 8, 385)), "rebuild_time_h"), 5.8, 0.05);
  EXPECT_NEAR(field(run_tool(tool(), body("raid1", 2, 8, 2450)), "rebuild_time_min"), 54, 0.5);
  EXPECT_NEAR(field(run_tool(tool(), body("raid6", 8, 8, 105)), "rebuild_time_h"), 21, 0.5);
}

struct WorkedExample {
  const char* name;
  std::string body;
  std::vector<std::string> expected;  // every output, in descriptor order
};

// The "Worked examples" table of docs/tools/raid-capacity.md, row by row.
TEST(RaidCapacity, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults: RAID 5 of 4 × 4 TB at 100 MB/s",
       body("raid5", 4, 4, 100),
       {"12.000", "16.000", "75.00", "1", "1", "11.11", "666.667"}},
      {"2 RAID 6 of 6 × 16 TB",
       body("raid6", 6, 16, 150),
       {"64.000", "96.000", "66.67", "2", "2", "29.63", "1777.778"}},
      {"3 RAID 5 of 6 × 16 TB",
       body("raid5", 6, 16, 150),
       {"80.000", "96.000", "83.33", "1", "1", "29.63", "1777.778"}},
      {"4 RAID 10 of 4 × 1 TB",
       body("raid10", 4, 1, 100),
       {"2.000", "4.000", "50.00", "1", "2", "2.78", "166.667"}},
      {"5 smallest RAID 0, fastest rate",
       body("raid0", 2, 0.1, 10000),
       {"0.200", "0.200", "100.00", "0", "0", "0.00", "0.000"}},
      {"6 100-way mirror of 100 TB at 1 MB/s",
       body("raid1", 100, 100, 1),
       {"100.000", "10000.000", "1.00", "99", "99", "27777.78", "1666666.667"}},
      {"7 RAID 10 of 100 × 20 TB",
       body("raid10", 100, 20, 200),
       {"1000.000", "2000.000", "50.00", "1", "50", "27.78", "1666.667"}},
      {"8 8 TB SATA SSD rebuild",
       body("raid5", 4, 8, 385),
       {"24.000", "32.000", "75.00", "1", "1", "5.77", "346.320"}},
      {"9 8 TB NVMe mirror rebuild",
       body("raid1", 2, 8, 2450),
       {"8.000", "16.000", "50.00", "1", "1", "0.91", "54.422"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(RaidCapacity, TooFewDisksIs422NamingDisks) {
  EXPECT_EQ(run_tool(tool(), body("raid0", 1, 4, 100)),
            "422:disks:raid0 needs at least 2 disks, not 1 (striping needs two): add disks or "
            "choose another level");
  EXPECT_EQ(run_tool(tool(), body("raid1", 1, 4, 100)),
            "422:disks:raid1 needs at least 2 disks, not 1 (a mirror needs two): add disks or "
            "choose another level");
  EXPECT_EQ(run_tool(tool(), body("raid5", 2, 4, 100)),
            "422:disks:raid5 needs at least 3 disks, not 2 (two for data, one's worth for "
            "parity): add disks or choose another level");
  EXPECT_EQ(run_tool(tool(), body("raid6", 3, 4, 100)),
            "422:disks:raid6 needs at least 4 disks, not 3 (two for data, two's worth for "
            "parity): add disks or choose another level");
  EXPECT_EQ(run_tool(tool(), body("raid10", 2, 4, 100)),
            "422:disks:raid10 needs at least 4 disks, not 2 (two mirror pairs): add disks or "
            "choose another level");
}

TEST(RaidCapacity, OddRaid10Is422) {
  EXPECT_EQ(run_tool(tool(), body("raid10", 5, 4, 100)),
            "422:disks:raid10 stripes over mirror pairs, so it needs an even number of disks, "
            "not 5: add or remove one, or leave the odd disk as a hot spare");
}

TEST(RaidCapacity, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1988);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 3000; ++draw) {
    const std::string level = d.inputs[0].options[draw % 5];
    const double n = std::round(tool_test::draw_number(d.inputs[1], rng));
    const double size = tool_test::draw_number(d.inputs[2], rng);
    const double rate = tool_test::draw_number(d.inputs[3], rng);
    const auto result = compute_body(tool(), body(level.c_str(), n, size, rate));
    const int minimum = level == "raid0" || level == "raid1" ? 2 : level == "raid5" ? 3 : 4;
    if (n < minimum || (level == "raid10" && static_cast<int>(n) % 2 != 0)) {
      ASSERT_TRUE(std::holds_alternative<catalog::ToolError>(result));
      continue;
    }
    const auto& out = std::get<catalog::Outputs>(result);
    const double usable = out.number("usable_capacity_tb");
    const double raw = out.number("raw_capacity_tb");
    ASSERT_NEAR(raw, n * size, 1e-9 * raw);
    // Redundancy is paid in capacity: the usable capacity plus the disks that may always fail
    // make up the raw capacity (RAID 10: half of it plus the one disk of its worst case).
    ASSERT_LE(usable, raw * (1 + 1e-12));
    ASSERT_NEAR(usable + out.number("failures_tolerated") * size,
                level == "raid1"    ? raw
                : level == "raid10" ? raw / 2 + size
                                    : raw,
                1e-9 * raw);
    ASSERT_LE(out.number("failures_tolerated"), out.number("max_failures_tolerated"));
    // Rebuilding writes one disk at the rebuild rate (none for RAID 0).
    const double expected_h = level == "raid0" ? 0 : size * 1e12 / (rate * 1e6) / 3600;
    ASSERT_NEAR(out.number("rebuild_time_h"), expected_h, 1e-9 * expected_h);
    ASSERT_NEAR(out.number("rebuild_time_min"), expected_h * 60, 1e-9 * expected_h * 60);
  }
}

}  // namespace
}  // namespace toolcalc::tools
