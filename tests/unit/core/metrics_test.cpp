#include "core/metrics.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

using namespace toolcalc;

TEST(Metrics, CellsSumTheShardsOfEveryThread) {
  metrics::Cells cells(3);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10'000; ++i) cells.add(1);
      cells.add(2, 5);
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(cells.value(0), 0u);
  EXPECT_EQ(cells.value(1), 80'000u);
  EXPECT_EQ(cells.value(2), 40u);
}

TEST(Metrics, HistogramBucketsAreCumulativeInTheText) {
  metrics::Histograms h(2, {0.001, 0.01});
  h.observe_ns(1, 500'000);        // 0.5 ms: first bucket
  h.observe_ns(1, 1'000'000);      // exactly 1 ms: first bucket (le is inclusive)
  h.observe_ns(1, 5'000'000);      // second
  h.observe_ns(1, 2'000'000'000);  // +Inf
  EXPECT_EQ(h.bucket_counts(0), (std::vector<uint64_t>{0, 0, 0}));
  EXPECT_EQ(h.bucket_counts(1), (std::vector<uint64_t>{2, 1, 1}));
  std::string out;
  metrics::write_histogram(out, "x_seconds", "kind=\"a\"", h, 1);
  EXPECT_EQ(out,
            "x_seconds_bucket{kind=\"a\",le=\"0.001\"} 2\n"
            "x_seconds_bucket{kind=\"a\",le=\"0.01\"} 3\n"
            "x_seconds_bucket{kind=\"a\",le=\"+Inf\"} 4\n"
            "x_seconds_sum{kind=\"a\"} 2.0065\n"
            "x_seconds_count{kind=\"a\"} 4\n");
}

TEST(Metrics, LabelValuesAndHelpAreEscaped) {
  std::string labels;
  metrics::label_pair(labels, "a", "x\"y\\z\nw");
  metrics::label_pair(labels, "b", "");
  EXPECT_EQ(labels, "a=\"x\\\"y\\\\z\\nw\",b=\"\"");
  std::string out;
  metrics::write_family(out, "n_total", "line\\one\ntwo", "counter");
  EXPECT_EQ(out, "# HELP n_total line\\\\one\\ntwo\n# TYPE n_total counter\n");
}

TEST(Metrics, RegisteredMetricsRenderUntilDestroyed) {
  std::string before;
  metrics::render_registered(before);
  {
    metrics::LabeledCounter c("test_things_total", "Things.", "kind", {"a", "b"});
    metrics::UpDownGauge g("test_open", "Open.");
    c.inc(1, 3);
    g.add(2);
    g.add(-1);
    std::string out;
    metrics::render_registered(out);
    EXPECT_NE(out.find("# TYPE test_things_total counter\ntest_things_total{kind=\"a\"} 0\n"
                       "test_things_total{kind=\"b\"} 3\n"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("# TYPE test_open gauge\ntest_open 1\n"), std::string::npos) << out;
  }
  std::string after;
  metrics::render_registered(after);
  EXPECT_EQ(after, before);
}
