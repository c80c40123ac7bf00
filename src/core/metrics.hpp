#pragma once
// Metrics for the Prometheus endpoint (GET /metrics, docs/operations.md "Metrics"):
// counters, gauges and histograms that any layer updates on the request path without a
// lock or an allocation. A value is split over per-thread shards, each shard on its own
// cache lines, so an update is one relaxed atomic add on a line no other thread writes;
// a scrape adds the shards up. Process-wide metrics register themselves with the
// registry (core/service_metrics.hpp lists them); the API renders the registry and its
// own per-route families in the text exposition format 0.0.4.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace toolcalc::metrics {

// More shards than worker threads on any machine we run on; threads beyond that share
// shards (still correct, only no longer contention-free).
inline constexpr size_t kShards = 32;

size_t assign_shard();
constinit inline thread_local size_t tls_shard = SIZE_MAX;

// The calling thread's shard: threads take shards in turn on their first update.
inline size_t shard() {
  size_t s = tls_shard;
  if (s == SIZE_MAX) [[unlikely]]
    s = tls_shard = assign_shard();
  return s;
}

// `size` unsigned counters, each kept per shard. add() never allocates or locks.
class Cells {
 public:
  explicit Cells(size_t size);
  void add(size_t i, uint64_t n = 1) {
    const size_t at = shard() * stride_ + i;
    lines_[at / kPerLine].v[at % kPerLine].fetch_add(n, std::memory_order_relaxed);
  }
  // The sum over shards (wraps like the adds: a gauge adds -1 as 2^64 - 1).
  uint64_t value(size_t i) const;
  size_t size() const { return size_; }

 private:
  static constexpr size_t kPerLine = 8;
  struct alignas(64) Line {
    std::atomic<uint64_t> v[kPerLine];
  };
  size_t size_;
  size_t stride_;  // cells per shard, a whole number of lines
  std::unique_ptr<Line[]> lines_;
};

// Bucket upper bounds in seconds, increasing; +Inf is implied.
using Buckets = std::vector<double>;
// 100 µs … 10 s: an execute takes tens of µs; a shared store's round trip ms.
const Buckets& latency_buckets();

// `series` histograms over the same buckets (one per label set).
class Histograms {
 public:
  Histograms(size_t series, Buckets buckets);
  void observe_ns(size_t series, int64_t ns) {
    const uint64_t v = ns < 0 ? 0 : static_cast<uint64_t>(ns);
    size_t b = 0;
    while (b < bounds_ns_.size() && v > bounds_ns_[b]) ++b;
    const size_t base = series * (bounds_ns_.size() + 2);
    cells_.add(base + b);
    cells_.add(base + bounds_ns_.size() + 1, v);
  }
  const Buckets& buckets() const { return buckets_; }
  // Per bucket (not cumulative; the last is +Inf), and the sum of observations.
  std::vector<uint64_t> bucket_counts(size_t series) const;
  double sum_seconds(size_t series) const;

 private:
  Buckets buckets_;
  std::vector<uint64_t> bounds_ns_;
  Cells cells_;
};

// --- the text exposition format 0.0.4 ---------------------------------------------------

// `# HELP` and `# TYPE` lines of a family.
void write_family(std::string& out, std::string_view name, std::string_view help,
                  std::string_view type);
// One sample: name{labels} value. `labels` is already rendered (label_pair), may be "".
void write_sample(std::string& out, std::string_view name, std::string_view labels, uint64_t value);
void write_sample(std::string& out, std::string_view name, std::string_view labels, double value);
void write_sample(std::string& out, std::string_view name, std::string_view labels, int64_t value);
// name="value", the value escaped (\\, \", \n); appended after a comma when `out` is not empty.
void label_pair(std::string& out, std::string_view name, std::string_view value);
// The _bucket, _sum and _count samples of one histogram series.
void write_histogram(std::string& out, std::string_view name, std::string_view labels,
                     const Histograms& h, size_t series);

// --- process-wide metrics -------------------------------------------------------------

// A metric of the whole process: it registers itself when constructed (they are
// namespace-scope objects, core/service_metrics.cpp) and renders itself on a scrape.
class Metric {
 public:
  Metric(std::string_view name, std::string_view help);
  virtual ~Metric();
  Metric(const Metric&) = delete;
  Metric& operator=(const Metric&) = delete;
  virtual void render(std::string& out) const = 0;
  std::string_view name() const { return name_; }

 protected:
  std::string name_;
  std::string help_;
};

// Every registered metric, in registration order.
void render_registered(std::string& out);

class Counter : public Metric {
 public:
  using Metric::Metric;
  void inc(uint64_t n = 1) { cells_.add(0, n); }
  uint64_t value() const { return cells_.value(0); }
  void render(std::string& out) const override;

 private:
  Cells cells_{1};
};

// A counter with one label whose values are known when it is made.
class LabeledCounter : public Metric {
 public:
  LabeledCounter(std::string_view name, std::string_view help, std::string label,
                 std::vector<std::string> values);
  void inc(size_t value_index, uint64_t n = 1) { cells_.add(value_index, n); }
  uint64_t value(size_t value_index) const { return cells_.value(value_index); }
  void render(std::string& out) const override;

 private:
  std::string label_;
  std::vector<std::string> values_;
  Cells cells_;
};

// A gauge moved up and down by many threads (open connections): sharded adds.
class UpDownGauge : public Metric {
 public:
  using Metric::Metric;
  void add(int64_t n) { cells_.add(0, static_cast<uint64_t>(n)); }
  int64_t value() const { return static_cast<int64_t>(cells_.value(0)); }
  void render(std::string& out) const override;

 private:
  Cells cells_{1};
};

// A gauge set by one writer now and then (the key cache's size).
class Gauge : public Metric {
 public:
  using Metric::Metric;
  Gauge(std::string_view name, std::string_view help, int64_t initial) : Metric(name, help) {
    set(initial);
  }
  void set(int64_t v) { v_.store(v, std::memory_order_relaxed); }
  int64_t value() const { return v_.load(std::memory_order_relaxed); }
  void render(std::string& out) const override;

 private:
  std::atomic<int64_t> v_{0};
};

}  // namespace toolcalc::metrics
