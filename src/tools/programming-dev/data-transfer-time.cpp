// Data transfer time for a size, a link bandwidth and a protocol overhead. Formula, unit
// definitions, references and worked examples: docs/tools/data-transfer-time.md.
#include <array>
#include <cmath>
#include <stdexcept>
#include <string_view>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

struct Unit {
  std::string_view name;
  double factor;
};

// Size units in bytes: SI (decimal) prefixes as in the SI Brochure and IEC 80000-13, binary
// prefixes (powers of 1024) as defined by IEC 80000-13. "kB" is SI's lower-case kilo; "KB"
// is not offered because JEDEC uses it for 1024 bytes.
constexpr std::array<Unit, 9> kSizeUnits = {{
    {"B", 1},
    {"kB", 1e3},
    {"MB", 1e6},
    {"GB", 1e9},
    {"TB", 1e12},
    {"KiB", 1024.0},
    {"MiB", 1024.0 * 1024},
    {"GiB", 1024.0 * 1024 * 1024},
    {"TiB", 1024.0 * 1024 * 1024 * 1024},
}};
// Bit-rate units: always decimal (ITU-T and IEEE 802.3 line rates; IEC 80000-13).
constexpr std::array<Unit, 5> kRateUnits = {{
    {"bit/s", 1},
    {"kbit/s", 1e3},
    {"Mbit/s", 1e6},
    {"Gbit/s", 1e9},
    {"Tbit/s", 1e12},
}};
constexpr double kBitsPerByte = 8;
// Below a nanosecond the answer means nothing for a transfer: light in a cable covers about
// 20 cm, so propagation, not bandwidth, sets the time (see the doc page).
constexpr double kMinSeconds = 1e-9;

template <size_t N>
double factor_of(const std::array<Unit, N>& units, std::string_view name) {
  for (const auto& u : units)
    if (u.name == name) return u.factor;
  // Validation only lets the descriptor's options through, and they come from `units`.
  throw std::logic_error("data-transfer-time: unknown unit");
}

template <size_t N>
std::vector<std::string> names_of(const std::array<Unit, N>& units) {
  std::vector<std::string> names;
  for (const auto& u : units) names.emplace_back(u.name);
  return names;
}

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "data-transfer-time";
  t.domain = "programming-dev";
  t.version = "2.0.0";
  t.name = "Data Transfer Time";
  t.description =
      "Time to move a given amount of data over a link of a given bandwidth, after protocol "
      "overhead, with the effective throughput. Sizes take decimal (kB, MB, GB, TB) or binary "
      "(KiB, MiB, GiB, TiB) prefixes as defined by IEC 80000-13; bit rates are decimal.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "data_size",
                    .label = "Data size",
                    .unit = "(in size_unit)",
                    .help = "Amount of payload data to move, in the unit chosen by size_unit; at "
                            "least one byte. A fraction of a byte is rounded up to a whole byte.",
                    .min = 0.001,
                    .max = 1e12,
                    .step = 1,
                    .default_value = 10}),
      choice_input({.key = "size_unit",
                    .label = "Size unit",
                    .help = "Decimal prefixes are powers of 1000 (1 GB = 1 000 000 000 bytes; "
                            "what disk vendors and network tools use); binary prefixes are powers "
                            "of 1024 (1 GiB = 1 073 741 824 bytes; what most operating systems "
                            "show, often labelled \"GB\").",
                    .options = names_of(kSizeUnits),
                    .default_value = "GB"}),
      number_input({.key = "bandwidth",
                    .label = "Link bandwidth",
                    .unit = "(in bandwidth_unit)",
                    .help = "Raw bit rate of the link or the bottleneck on the path (line rate, "
                            "plan speed), in the unit chosen by bandwidth_unit; at least 1 bit/s.",
                    .min = 0.001,
                    .max = 1e12,
                    .step = 1,
                    .default_value = 100}),
      choice_input({.key = "bandwidth_unit",
                    .label = "Bandwidth unit",
                    .help = "Bit-rate prefixes are always decimal: 1 Mbit/s = 1 000 000 bit/s.",
                    .options = names_of(kRateUnits),
                    .default_value = "Mbit/s"}),
      number_input({.key = "protocol_overhead_pct",
                    .label = "Protocol overhead",
                    .unit = "%",
                    .help = "Share of the raw bit rate not available to payload: headers, "
                            "framing, acknowledgements and retransmissions. TCP/IPv4 over "
                            "Ethernet with a 1500-byte MTU carries 1460 payload bytes per 1538 "
                            "bytes on the wire, about 5 %. The time is a lower bound: latency, "
                            "TCP slow start and disk speed are not modelled, and a transfer "
                            "shorter than 1 ns is refused (422).",
                    .min = 0,
                    .max = 90,
                    .step = 0.5,
                    .default_value = 5}),
  };
  t.outputs = {
      number_output({.key = "size_bytes", .label = "Data size", .unit = "B", .precision = 0}),
      number_output({.key = "effective_throughput_mbit_s",
                     .label = "Effective throughput",
                     .unit = "Mbit/s",
                     .precision = 6,
                     .small_values_in = "effective_throughput_bit_s"}),
      number_output({.key = "effective_throughput_mbyte_s",
                     .label = "Effective throughput",
                     .unit = "MB/s",
                     .precision = 6,
                     .small_values_in = "effective_throughput_byte_s"}),
      number_output({.key = "time_s",
                     .label = "Transfer time",
                     .unit = "s",
                     .precision = 3,
                     .small_values_in = "time_ms"}),
      number_output({.key = "time_min",
                     .label = "Transfer time",
                     .unit = "min",
                     .precision = 3,
                     .small_values_in = "time_s"}),
      number_output({.key = "time_h",
                     .label = "Transfer time",
                     .unit = "h",
                     .precision = 3,
                     .small_values_in = "time_min"}),
      number_output({.key = "time_days",
                     .label = "Transfer time",
                     .unit = "days",
                     .precision = 3,
                     .small_values_in = "time_h"}),
      number_output({.key = "time_ms",
                     .label = "Transfer time",
                     .unit = "ms",
                     .precision = 3,
                     .small_values_in = "time_us"}),
      number_output({.key = "time_us",
                     .label = "Transfer time",
                     .unit = "µs",
                     .precision = 3,
                     .small_values_in = "time_ns"}),
      number_output({.key = "time_ns", .label = "Transfer time", .unit = "ns", .precision = 3}),
      number_output({.key = "effective_throughput_bit_s",
                     .label = "Effective throughput",
                     .unit = "bit/s",
                     .precision = 3}),
      number_output({.key = "effective_throughput_byte_s",
                     .label = "Effective throughput",
                     .unit = "B/s",
                     .precision = 4}),
  };
  t.references = {
      "IEC 80000-13:2008, \"Quantities and units — Part 13: Information science and "
      "technology\": the byte, the bit, and the binary prefixes kibi, mebi, gibi, tebi",
      "BIPM, SI Brochure, 9th ed.: the decimal prefixes k, M, G, T (powers of 1000)",
      "JEDEC JESD100B.01, \"Terms, Definitions, and Letter Symbols for Microcomputers, "
      "Microprocessors, and Memory Integrated Circuits\" (KB = 1024 bytes in memory usage; why "
      "\"KB\" is ambiguous)",
      "IEEE 802.3, Ethernet frame format: preamble, header, FCS and inter-packet gap add 38 "
      "bytes to each frame (the overhead example in the help)",
      "RFC 791 (IPv4) and RFC 9293 (TCP): 20-byte IPv4 and TCP headers",
  };
  t.examples = {
      {.title = "A 400 MB file over a 5 Mbit/s connection",
       .request_json = R"({"data_size":400,"size_unit":"MB","bandwidth":5,)"
                       R"("bandwidth_unit":"Mbit/s","protocol_overhead_pct":0})",
       .expected_json = R"({"time_s":640})",
       .tolerance_pct = 0,
       .source = "The360us, \"Download Time Calculator\" (the360us.com/download-time-calculator): "
                 "\"a 400 MB file over a 5 Mbps connection takes approximately 640 seconds "
                 "(about 10 minutes and 40 seconds)\""},
      {.title = "A 57 GB file at 2 Mbit/s",
       .request_json = R"({"data_size":57,"size_unit":"GB","bandwidth":2,)"
                       R"("bandwidth_unit":"Mbit/s","protocol_overhead_pct":0})",
       .expected_json = R"({"time_h":63.3})",
       .tolerance_pct = 0.1,
       .source = "The360us, \"Download Time Calculator\" (the360us.com/download-time-calculator): "
                 "\"A 57 GB file might take … 63.3 hours at 2 Mbps\""},
      {.title = "One gigabit (125 MB) at 1 Mbit/s",
       .request_json = R"({"data_size":125,"size_unit":"MB","bandwidth":1,)"
                       R"("bandwidth_unit":"Mbit/s","protocol_overhead_pct":0})",
       .expected_json = R"({"time_s":1000})",
       .tolerance_pct = 0,
       .source = "Mathspace, \"Data transfer\" lesson (mathspace.co, Syllabus 463, Topic 8882, "
                 "subtopic 117672): a 1 gigabit (Gb) file at 1 Mbps takes 1 Gb / 1 Mbps = "
                 "1,000 seconds = 16 minutes and 40 seconds (1 Gb = 125 MB)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double exact_bytes =
      in.number("data_size") * factor_of(kSizeUnits, in.enumeration("size_unit"));
  if (exact_bytes < 1) {
    std::string msg = "data_size of ";
    append_shortest(msg, in.number("data_size"));
    msg += " " + in.enumeration("size_unit") +
           " is less than one byte; a transfer moves whole bytes, so enter at least 1 B";
    return ToolError{"data_size", std::move(msg)};
  }
  const double raw_bit_s =
      in.number("bandwidth") * factor_of(kRateUnits, in.enumeration("bandwidth_unit"));
  if (raw_bit_s < 1) {
    std::string msg = "bandwidth of ";
    append_shortest(msg, in.number("bandwidth"));
    msg += " " + in.enumeration("bandwidth_unit") +
           " is below 1 bit/s, slower than any data link; check the value and its unit";
    return ToolError{"bandwidth", std::move(msg)};
  }
  // A link carries whole bytes: 1.3 KiB (1331.2 bytes) takes as long as 1332 bytes. A product
  // that misses a whole number only by floating-point rounding (4.35 × 100) is that number.
  const double nearest = std::round(exact_bytes);
  const double bytes =
      std::fabs(exact_bytes - nearest) <= 1e-9 * exact_bytes ? nearest : std::ceil(exact_bytes);
  // (100 − o)/100 rather than 1 − o/100: exact for whole percentages (e.g. 90 % → 0.1).
  const double payload_bit_s = raw_bit_s * (100 - in.number("protocol_overhead_pct")) / 100;
  const double seconds = bytes * kBitsPerByte / payload_bit_s;
  if (seconds < kMinSeconds) {
    std::string msg = "data_size of ";
    append_shortest(msg, in.number("data_size"));
    msg += " " + in.enumeration("size_unit") + " at this bandwidth would take ";
    append_shortest(msg, seconds * 1e12);
    msg +=
        " ps, less than 1 ns: light in a cable covers only 20 cm in that time, so latency, not "
        "bandwidth, sets such a transfer; enter a larger data_size";
    return ToolError{"data_size", std::move(msg)};
  }
  Outputs out;
  out.set("size_bytes", bytes)
      .set("effective_throughput_mbit_s", payload_bit_s / 1e6)
      .set("effective_throughput_mbyte_s", payload_bit_s / kBitsPerByte / 1e6)
      .set("time_s", seconds)
      .set("time_min", seconds / 60)
      .set("time_h", seconds / 3600)
      .set("time_days", seconds / 86400)
      .set("time_ms", seconds * 1e3)
      .set("time_us", seconds * 1e6)
      .set("time_ns", seconds * 1e9)
      .set("effective_throughput_bit_s", payload_bit_s)
      .set("effective_throughput_byte_s", payload_bit_s / kBitsPerByte);
  return out;
}

}  // namespace

Tool make_data_transfer_time() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
