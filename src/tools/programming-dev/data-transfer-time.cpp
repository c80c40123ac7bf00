// Data transfer time for a size, a link bandwidth and a protocol overhead. Formula, unit
// definitions, references and worked examples: docs/tools/data-transfer-time.md.
#include <array>
#include <stdexcept>
#include <string_view>

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
  t.version = "1.0.0";
  t.name = "Data Transfer Time";
  t.description =
      "Time to move a given amount of data over a link of a given bandwidth, after protocol "
      "overhead, with the effective throughput. Sizes take decimal (kB, MB, GB, TB) or binary "
      "(KiB, MiB, GiB, TiB) prefixes as defined by IEC 80000-13; bit rates are decimal.";
  t.standard = std::nullopt;
  auto number = [](std::string key, std::string label, std::string unit, std::string help,
                   double min, double max, double step, double def) {
    InputDescriptor in;
    in.key = std::move(key);
    in.label = std::move(label);
    in.type = InputType::Number;
    in.unit = std::move(unit);
    in.help = std::move(help);
    in.min = min;
    in.max = max;
    in.step = step;
    in.default_value = def;
    return in;
  };
  auto choice = [](std::string key, std::string label, std::string help,
                   std::vector<std::string> options, std::string def) {
    InputDescriptor in;
    in.key = std::move(key);
    in.label = std::move(label);
    in.type = InputType::Enum;
    in.help = std::move(help);
    in.options = std::move(options);
    in.default_value = std::move(def);
    return in;
  };
  t.inputs = {
      number("data_size", "Data size", "(in size_unit)",
             "Amount of payload data to move, in the unit chosen by size_unit.", 0.001, 1e12, 1,
             10),
      choice("size_unit", "Size unit",
             "Decimal prefixes are powers of 1000 (1 GB = 1 000 000 000 bytes; what disk "
             "vendors and network tools use); binary prefixes are powers of 1024 (1 GiB = "
             "1 073 741 824 bytes; what most operating systems show, often labelled \"GB\").",
             names_of(kSizeUnits), "GB"),
      number("bandwidth", "Link bandwidth", "(in bandwidth_unit)",
             "Raw bit rate of the link or the bottleneck on the path (line rate, plan speed), "
             "in the unit chosen by bandwidth_unit.",
             0.001, 1e12, 1, 100),
      choice("bandwidth_unit", "Bandwidth unit",
             "Bit-rate prefixes are always decimal: 1 Mbit/s = 1 000 000 bit/s.",
             names_of(kRateUnits), "Mbit/s"),
      number("protocol_overhead_pct", "Protocol overhead", "%",
             "Share of the raw bit rate not available to payload: headers, framing, "
             "acknowledgements and retransmissions. TCP/IPv4 over Ethernet with a 1500-byte MTU "
             "carries 1460 payload bytes per 1538 bytes on the wire, about 5 %.",
             0, 90, 0.5, 5),
  };
  auto out = [](std::string key, std::string label, std::string unit, int precision) {
    OutputDescriptor o;
    o.key = std::move(key);
    o.label = std::move(label);
    o.type = OutputType::Number;
    o.unit = std::move(unit);
    o.precision = precision;
    return o;
  };
  t.outputs = {
      out("size_bytes", "Data size", "B", 0),
      out("effective_throughput_mbit_s", "Effective throughput", "Mbit/s", 6),
      out("effective_throughput_mbyte_s", "Effective throughput", "MB/s", 6),
      out("time_s", "Transfer time", "s", 3),
      out("time_min", "Transfer time", "min", 3),
      out("time_h", "Transfer time", "h", 3),
      out("time_days", "Transfer time", "days", 3),
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
      {.title = "Defaults: 10 GB over 100 Mbit/s with 5 % overhead",
       .request_json =
           R"({"data_size":10,"size_unit":"GB","bandwidth":100,"bandwidth_unit":"Mbit/s",)"
           R"("protocol_overhead_pct":5})"},
      {.title = "A 50 GiB backup over gigabit Ethernet (TCP/IPv4, 1500-byte MTU)",
       .request_json =
           R"({"data_size":50,"size_unit":"GiB","bandwidth":1,"bandwidth_unit":"Gbit/s",)"
           R"("protocol_overhead_pct":5.07})"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double bytes = in.number("data_size") * factor_of(kSizeUnits, in.enumeration("size_unit"));
  const double raw_bit_s =
      in.number("bandwidth") * factor_of(kRateUnits, in.enumeration("bandwidth_unit"));
  // (100 − o)/100 rather than 1 − o/100: exact for whole percentages (e.g. 90 % → 0.1).
  const double payload_bit_s = raw_bit_s * (100 - in.number("protocol_overhead_pct")) / 100;
  const double seconds = bytes * kBitsPerByte / payload_bit_s;
  Outputs out;
  out.set("size_bytes", bytes)
      .set("effective_throughput_mbit_s", payload_bit_s / 1e6)
      .set("effective_throughput_mbyte_s", payload_bit_s / kBitsPerByte / 1e6)
      .set("time_s", seconds)
      .set("time_min", seconds / 60)
      .set("time_h", seconds / 3600)
      .set("time_days", seconds / 86400);
  return out;
}

}  // namespace

Tool make_data_transfer_time() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
