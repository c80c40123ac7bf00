#include "core/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>

#include "core/decimal.hpp"

namespace toolcalc::metrics {
namespace {

struct Registry {
  std::mutex mu;  // taken to register and to scrape, never on the request path
  std::vector<const Metric*> metrics;
};

// Constructed on first use, so before the first metric registers and destroyed after it.
Registry& registry() {
  static Registry r;
  return r;
}

void escape_label(std::string& out, std::string_view v) {
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
}

void write_name_labels(std::string& out, std::string_view name, std::string_view labels) {
  out += name;
  if (!labels.empty()) {
    out += '{';
    out += labels;
    out += '}';
  }
  out += ' ';
}

// A float sample as the format wants it: integers without a fraction, +Inf spelled so.
void write_double(std::string& out, double v) {
  if (std::isinf(v)) {
    out += v > 0 ? "+Inf" : "-Inf";
    return;
  }
  char buf[32];
  const int n = std::snprintf(buf, sizeof buf, "%.9g", v);
  out.append(buf, static_cast<size_t>(n));
}

}  // namespace

size_t assign_shard() {
  static std::atomic<size_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed) % kShards;
}

Cells::Cells(size_t size)
    : size_(size),
      stride_((std::max<size_t>(size, 1) + kPerLine - 1) / kPerLine * kPerLine),
      lines_(new Line[kShards * stride_ / kPerLine]) {
  for (size_t l = 0; l < kShards * stride_ / kPerLine; ++l)
    for (auto& v : lines_[l].v) v.store(0, std::memory_order_relaxed);
}

uint64_t Cells::value(size_t i) const {
  uint64_t sum = 0;
  for (size_t s = 0; s < kShards; ++s) {
    const size_t at = s * stride_ + i;
    sum += lines_[at / kPerLine].v[at % kPerLine].load(std::memory_order_relaxed);
  }
  return sum;
}

const Buckets& latency_buckets() {
  static const Buckets b = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                            0.05,   0.1,     0.25,   0.5,   1,      2.5,   5,    10};
  return b;
}

Histograms::Histograms(size_t series, Buckets buckets)
    : buckets_(std::move(buckets)), cells_(series * (buckets_.size() + 2)) {
  for (double b : buckets_) bounds_ns_.push_back(static_cast<uint64_t>(std::llround(b * 1e9)));
}

std::vector<uint64_t> Histograms::bucket_counts(size_t series) const {
  const size_t base = series * (buckets_.size() + 2);
  std::vector<uint64_t> out(buckets_.size() + 1);
  for (size_t b = 0; b < out.size(); ++b) out[b] = cells_.value(base + b);
  return out;
}

double Histograms::sum_seconds(size_t series) const {
  return static_cast<double>(cells_.value(series * (buckets_.size() + 2) + buckets_.size() + 1)) /
         1e9;
}

void write_family(std::string& out, std::string_view name, std::string_view help,
                  std::string_view type) {
  out += "# HELP ";
  out += name;
  out += ' ';
  for (char c : help) {  // HELP escapes only backslash and newline
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

void write_sample(std::string& out, std::string_view name, std::string_view labels,
                  uint64_t value) {
  write_name_labels(out, name, labels);
  out += decimal_string(static_cast<int64_t>(value));
  out += '\n';
}

void write_sample(std::string& out, std::string_view name, std::string_view labels, int64_t value) {
  write_name_labels(out, name, labels);
  out += decimal_string(value);
  out += '\n';
}

void write_sample(std::string& out, std::string_view name, std::string_view labels, double value) {
  write_name_labels(out, name, labels);
  write_double(out, value);
  out += '\n';
}

void label_pair(std::string& out, std::string_view name, std::string_view value) {
  if (!out.empty()) out += ',';
  out += name;
  out += "=\"";
  escape_label(out, value);
  out += '"';
}

void write_histogram(std::string& out, std::string_view name, std::string_view labels,
                     const Histograms& h, size_t series) {
  const auto counts = h.bucket_counts(series);
  const std::string bucket = std::string(name) + "_bucket";
  uint64_t cumulative = 0;
  for (size_t b = 0; b < counts.size(); ++b) {
    cumulative += counts[b];
    std::string le(labels);
    std::string bound;
    if (b < h.buckets().size())
      write_double(bound, h.buckets()[b]);
    else
      bound = "+Inf";
    label_pair(le, "le", bound);
    write_sample(out, bucket, le, cumulative);
  }
  write_sample(out, std::string(name) + "_sum", labels, h.sum_seconds(series));
  write_sample(out, std::string(name) + "_count", labels, cumulative);
}

Metric::Metric(std::string_view name, std::string_view help) : name_(name), help_(help) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  r.metrics.push_back(this);
}

Metric::~Metric() {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  std::erase(r.metrics, this);
}

void render_registered(std::string& out) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  for (const Metric* m : r.metrics) m->render(out);
}

void Counter::render(std::string& out) const {
  write_family(out, name_, help_, "counter");
  write_sample(out, name_, "", value());
}

LabeledCounter::LabeledCounter(std::string_view name, std::string_view help, std::string label,
                               std::vector<std::string> values)
    : Metric(name, help),
      label_(std::move(label)),
      values_(std::move(values)),
      cells_(values_.size()) {}

void LabeledCounter::render(std::string& out) const {
  write_family(out, name_, help_, "counter");
  for (size_t i = 0; i < values_.size(); ++i) {
    std::string labels;
    label_pair(labels, label_, values_[i]);
    write_sample(out, name_, labels, cells_.value(i));
  }
}

void UpDownGauge::render(std::string& out) const {
  write_family(out, name_, help_, "gauge");
  write_sample(out, name_, "", value());
}

void Gauge::render(std::string& out) const {
  write_family(out, name_, help_, "gauge");
  write_sample(out, name_, "", value());
}

}  // namespace toolcalc::metrics
