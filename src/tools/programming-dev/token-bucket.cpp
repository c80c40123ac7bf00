// Token-bucket rate limiter (or traffic shaper) sizing: refill time, the most a window can
// admit, how long a burst at the peak rate lasts, and how long N requests take from a full
// bucket. Formula, bounds, references and worked examples: docs/tools/token-bucket.md.
#include <algorithm>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

constexpr double kUsPerS = 1e6;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "token-bucket";
  t.domain = "programming-dev";
  t.version = "1.0.0";
  t.name = "Token Bucket Rate Limiter";
  t.description =
      "Sizes a token bucket (rate r, capacity b) with a peak rate M: the time to refill an empty "
      "bucket, the most requests any window admits (b + r·T), the longest burst at the peak rate "
      "(b/(M − r)) and its size, and the time a burst of N requests takes from a full bucket.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "rate_per_s",
                    .label = "Token rate r (sustained rate)",
                    .unit = "1/s",
                    .help = "Tokens added per second: the long-run request rate, e.g. 100. For "
                            "traffic shaping count bytes, kilobytes or bits, the same unit "
                            "everywhere. 0.001 to 10 000 000.",
                    .min = 0.001,
                    .max = 10000000,
                    .step = 0.001,
                    .default_value = 100}),
      number_input({.key = "bucket_capacity",
                    .label = "Bucket capacity b (burst size)",
                    .unit = "tokens",
                    .help = "The most tokens the bucket holds: the largest burst admitted at "
                            "once after an idle period, e.g. 200 requests.",
                    .min = 1,
                    .max = 1000000000000,
                    .step = 1,
                    .default_value = 200}),
      number_input({.key = "peak_rate_per_s",
                    .label = "Peak rate M",
                    .unit = "1/s",
                    .help = "The fastest requests can arrive or leave (line rate, client "
                            "concurrency); must exceed the token rate. 1 to 10 000 000.",
                    .min = 1,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 1000}),
      number_input({.key = "burst_requests",
                    .label = "Burst N",
                    .unit = "tokens",
                    .help = "Requests (tokens) sent back to back from a full bucket, for the time "
                            "they take to be admitted.",
                    .min = 1,
                    .max = 1000000000000,
                    .step = 1,
                    .default_value = 1000}),
      number_input({.key = "window_s",
                    .label = "Window T",
                    .unit = "s",
                    .help = "A window length for the most requests any such window can admit, "
                            "e.g. 1 or 60 seconds; 1 s to 1 year.",
                    .min = 1,
                    .max = 31557600,
                    .step = 1,
                    .default_value = 60}),
  };
  // Every time is at least 1/10 000 000 s (one token at the largest rate), 0.1 µs, which the
  // microsecond outputs keep to 3 digits.
  t.outputs = {
      number_output({.key = "refill_time_s",
                     .label = "Time to refill an empty bucket b/r",
                     .unit = "s",
                     .precision = 3,
                     .small_values_in = "refill_time_us"}),
      number_output({.key = "max_requests_in_window",
                     .label = "Most admitted in any window T, min(M·T, b + r·T)",
                     .unit = "tokens",
                     .precision = 2}),
      number_output({.key = "max_burst_duration_s",
                     .label = "Longest burst at the peak rate b/(M − r)",
                     .unit = "s",
                     .precision = 3,
                     .small_values_in = "max_burst_duration_us"}),
      number_output({.key = "max_burst_requests",
                     .label = "Size of that burst M·b/(M − r)",
                     .unit = "tokens",
                     .precision = 2}),
      number_output({.key = "burst_time_s",
                     .label = "Time for N back to back from a full bucket",
                     .unit = "s",
                     .precision = 3,
                     .small_values_in = "burst_time_us"}),
      number_output({.key = "refill_time_us",
                     .label = "Refill time in microseconds",
                     .unit = "µs",
                     .precision = 3}),
      number_output({.key = "max_burst_duration_us",
                     .label = "Longest burst in microseconds",
                     .unit = "µs",
                     .precision = 3}),
      number_output({.key = "burst_time_us",
                     .label = "Time for N in microseconds",
                     .unit = "µs",
                     .precision = 3}),
  };
  t.references = {
      "A. S. Tanenbaum, D. J. Wetherall, \"Computer Networks\", 5th ed., Pearson, 2011, §5.4.2 "
      "(traffic shaping: leaky and token buckets; the maximum burst length S = B/(M − R))",
      "J. Heinanen, R. Guerin, RFC 2697 \"A Single Rate Three Color Marker\" and RFC 2698 \"A "
      "Two Rate Three Color Marker\", IETF, 1999 (token buckets with a committed rate and burst "
      "size, and a peak-rate bucket)",
      "R. L. Cruz, \"A Calculus for Network Delay, Part I\", IEEE Transactions on Information "
      "Theory 37(1):114–131, 1991 (the (σ, ρ) arrival curve: at most σ + ρ·T in any window T)",
  };
  t.examples = {
      {.title = "GATE 2016: 1 MB bucket, 10 MB/s tokens, 20 MB/s peak, 12 MB to send",
       .request_json = R"({"rate_per_s":10,"bucket_capacity":1,"peak_rate_per_s":20,)"
                       R"("burst_requests":12,"window_s":1})",
       .expected_json = R"({"burst_time_s":1.1,"max_burst_duration_s":0.1,)"
                        R"("max_burst_requests":2})",
       .tolerance_pct = 0,
       .source = "GATE CS 2016 (set 1) question 54 on the token bucket (1 megabyte bucket, 20 "
                 "MB/s maximum output, tokens for 10 MB/s, 12 MB to send): official key 1.1 s; "
                 "the burst at 20 MB/s lasts 0.1 s and carries 2 MB (GATE Overflow discussion, "
                 "read in the Nemotron-CC-Math crawl, huggingface.co/datasets/nvidia/"
                 "Nemotron-CC-Math-v1)"},
      {.title = "GATE 2008: 16 Mb bucket, 2 Mbps tokens, 10 Mbps link",
       .request_json = R"({"rate_per_s":2,"bucket_capacity":16,"peak_rate_per_s":10,)"
                       R"("burst_requests":16,"window_s":1})",
       .expected_json = R"({"max_burst_duration_s":2})",
       .tolerance_pct = 0,
       .source = "GATE CS 2008 question 58 (token bucket filled at 2 Mbps, 16 megabits full, 10 "
                 "Mbps network): the longest full-rate transmission is 16/(10 − 2) = 2 s, "
                 "answer (B) (GATE Overflow, read in the Nemotron-CC-Math crawl, "
                 "huggingface.co/datasets/nvidia/Nemotron-CC-Math-v1)"},
      {.title = "Cisco shaping: 64 kbps CIR with an 8000-bit Bc",
       .request_json = R"({"rate_per_s":64000,"bucket_capacity":8000,"peak_rate_per_s":128000,)"
                       R"("burst_requests":8000,"window_s":1})",
       .expected_json = R"({"refill_time_s":0.125})",
       .tolerance_pct = 0,
       .source = "W. Odom, \"Cisco QoS Exam Certification Guide\", Cisco Press, 2004, p. 347, "
                 "Figure 6-5 (128-kbps access rate, 64-kbps shaped "
                 "rate, Bc = 8000 bits, Tc = 125 ms = Bc/CIR)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double r = in.number("rate_per_s");
  const double b = in.number("bucket_capacity");
  const double m = in.number("peak_rate_per_s");
  const double n = in.number("burst_requests");
  const double window = in.number("window_s");
  if (m <= r) {
    std::string msg = "peak_rate_per_s of ";
    append_shortest(msg, m);
    msg += "/s does not exceed the token rate of ";
    append_shortest(msg, r);
    msg +=
        "/s: the bucket then never empties and bursts are not limited by it; enter the peak "
        "(line) rate, above the token rate";
    return ToolError{"peak_rate_per_s", std::move(msg)};
  }
  // Output from a full bucket at time t is min(M·t, b + r·t) (Cruz's arrival curve under a
  // peak rate), so N tokens take max(N/M, (N − b)/r) and the peak lasts until M·t = b + r·t.
  const double refill_s = b / r;
  const double burst_duration_s = b / (m - r);
  const double burst_time_s = std::max(n / m, (n - b) / r);
  Outputs out;
  out.set("refill_time_s", refill_s)
      .set("max_requests_in_window", std::min(m * window, b + r * window))
      .set("max_burst_duration_s", burst_duration_s)
      .set("max_burst_requests", m * burst_duration_s)
      .set("burst_time_s", burst_time_s)
      .set("refill_time_us", refill_s * kUsPerS)
      .set("max_burst_duration_us", burst_duration_s * kUsPerS)
      .set("burst_time_us", burst_time_s * kUsPerS);
  return out;
}

}  // namespace

Tool make_token_bucket() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
