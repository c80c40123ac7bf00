// The usage history's in-memory counts: one entry per request, store deltas out, deltas
// of a failed write back in, and the merge a reader sees.
#include "accounts/usage_history.hpp"

#include <gtest/gtest.h>

#include "support/test_support.hpp"

using namespace toolcalc;
using namespace toolcalc::accounts;
using accounts::testing::utc_ms;

namespace {

const int64_t kNoon = utc_ms(2026, 11, 30, 12, 0, 0) / 1000;  // day 20,787

std::vector<store::HistoryDelta> sorted(std::vector<store::HistoryDelta> v) {
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    return std::tie(a.key_id, a.day, a.tool, a.metric) <
           std::tie(b.key_id, b.day, b.tool, b.metric);
  });
  return v;
}

}  // namespace

TEST(UsageHistoryCounts, SuccessesRefusalsDaysAndKeys) {
  EXPECT_EQ(utc_day_of(kNoon), 20'787);
  EXPECT_EQ(utc_day_of(0), 0);
  EXPECT_EQ(utc_day_of(-1), -1);
  UsageHistory h;
  h.record(1, kNoon, "iot-mcu", "mcu-deep-sleep-battery", 200, 1);
  h.record(1, kNoon + 60, "iot-mcu", "mcu-deep-sleep-battery", 200, 4);  // a sweep
  h.record(1, kNoon, "iot-mcu", "mcu-deep-sleep-battery", 422, 0);
  h.record(1, kNoon, "electronics", "rc-filter", 429, 0);
  h.record(1, kNoon + 86'400, "electronics", "rc-filter", 200, 1);  // the next day
  h.record(2, kNoon, "electronics", "rc-filter", 200, 1);

  auto mine = sorted(h.pending_for(1, 20'787, 20'788));
  ASSERT_EQ(mine.size(), 4u);
  EXPECT_EQ(mine[0].tool, "electronics/rc-filter");
  EXPECT_EQ(mine[0].metric, 429);
  EXPECT_EQ(mine[1].metric, store::kHistoryExecutions);
  EXPECT_EQ(mine[1].delta, 2);
  EXPECT_EQ(mine[2].metric, store::kHistoryUnits);
  EXPECT_EQ(mine[2].delta, 5);
  EXPECT_EQ(mine[3].metric, 422);

  const auto all = h.take_pending();
  EXPECT_EQ(all.size(), 8u);  // 4 + the next day's 2 + key 2's 2
  EXPECT_TRUE(h.take_pending().empty());
  // A failed write hands them back: the same deltas come out again, added to new ones.
  h.restore_pending(all);
  h.record(1, kNoon, "iot-mcu", "mcu-deep-sleep-battery", 200, 1);
  const auto again = sorted(h.take_pending());
  ASSERT_EQ(again.size(), 8u);
  int64_t units = 0;
  for (const auto& d : again)
    if (d.key_id == 1 && d.day == 20'787 && d.metric == store::kHistoryUnits) units = d.delta;
  EXPECT_EQ(units, 6);
}

TEST(UsageHistoryCounts, MergeAddsPendingToStoredRows) {
  const auto rows = merge_history({{20'787, "a/b", 0, 2}, {20'787, "a/b", 1, 3}},
                                  {{9, 20'787, "a/b", 0, 1}, {9, 20'786, "c/d", 400, 1}});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].day, 20'786);
  EXPECT_EQ(rows[0].metric, 400);
  EXPECT_EQ(rows[1].count, 3);
  EXPECT_EQ(rows[2].count, 3);
}
