// LoRa packet time on air from the Semtech SX1276/77/78/79 datasheet formula: symbol time,
// preamble time, payload symbols, total time on air and the messages that fit a 1 % duty
// cycle. Formula, references and worked examples: docs/tools/lora-time-on-air.md.
//
// The input and output keys are fixed: other systems call this tool by them.
#include <algorithm>
#include <cstdint>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// SX1276 datasheet §4.1.1.6: LowDataRateOptimize "is mandated when the symbol duration
// exceeds 16 ms"; "auto" switches it on from 16 ms (no LoRa symbol time lies in between).
constexpr std::int64_t kLdroThresholdUs = 16000;
// 1 % of an hour: the duty-cycle budget the output is defined against (36 s).
constexpr std::int64_t kOnePercentOfHourUs = 36'000'000;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "lora-time-on-air";
  t.domain = "iot-mcu";
  t.version = "1.0.0";
  t.name = "LoRa Time on Air";
  t.description =
      "Time on air of a LoRa packet (Semtech SX127x formula): symbol time, preamble time, "
      "payload symbols and total airtime for a spreading factor, bandwidth, coding rate and "
      "payload, and how many such packets fit in a 1 % duty cycle per hour.";
  t.standard = std::nullopt;
  t.inputs = {
      integer_input({.key = "spreading_factor",
                     .label = "Spreading factor (SF)",
                     .unit = "",
                     .help = "SF7 to SF12. Each step up doubles the symbol time: more range, more "
                             "airtime. SF6 (implicit header only) is not covered.",
                     .min = 7,
                     .max = 12,
                     .step = 1,
                     .default_value = 7}),
      choice_input({.key = "bandwidth_khz",
                    .label = "Bandwidth",
                    .help = "LoRa signal bandwidth: 125 kHz for most LoRaWAN channels, 250 or "
                            "500 kHz for the faster data rates.",
                    .options = {"125", "250", "500"},
                    .default_value = "125",
                    .unit = "kHz",
                    .required = false}),
      choice_input({.key = "coding_rate",
                    .label = "Coding rate",
                    .help = "Forward error correction of the payload: 4/5 (LoRaWAN) adds the "
                            "least overhead, 4/8 the most.",
                    .options = {"4/5", "4/6", "4/7", "4/8"},
                    .default_value = "4/5",
                    .required = false}),
      integer_input({.key = "payload_bytes",
                     .label = "Payload length",
                     .unit = "bytes",
                     .help = "Bytes in the LoRa payload, 1 to 255. For LoRaWAN add the 13-byte "
                             "MAC header and MIC to the application payload.",
                     .min = 1,
                     .max = 255,
                     .step = 1,
                     .default_value = 20}),
      integer_input({.key = "preamble_symbols",
                     .label = "Preamble length",
                     .unit = "symbols",
                     .help = "Programmed preamble length (RegPreamble), 6 to 65535; 8 in "
                             "LoRaWAN. The radio adds 4.25 symbols of sync word and start frame.",
                     .min = 6,
                     .max = 65535,
                     .step = 1,
                     .default_value = 8,
                     .required = false}),
      flag_input({.key = "explicit_header",
                  .label = "Explicit header",
                  .help = "true: the packet carries the header with length, coding rate and CRC "
                          "flag (LoRaWAN). false: implicit header, both ends fixed in advance.",
                  .default_value = true,
                  .required = false}),
      flag_input({.key = "crc",
                  .label = "Payload CRC",
                  .help = "true: a 16-bit payload CRC is sent (LoRaWAN uplinks). false: no "
                          "CRC.",
                  .default_value = true,
                  .required = false}),
      choice_input({.key = "low_data_rate_optimize",
                    .label = "Low data rate optimisation",
                    .help = "auto: on when the symbol time is 16 ms or more (SF11 and SF12 at "
                            "125 kHz, SF12 at 250 kHz), as the SX1276 datasheet mandates. on or "
                            "off: forced, as configured in the radio.",
                    .options = {"auto", "on", "off"},
                    .default_value = "auto",
                    .required = false}),
  };
  t.outputs = {
      number_output({.key = "symbol_time_ms",
                     .label = "Symbol time T_sym = 2^SF / BW",
                     .unit = "ms",
                     .precision = 3}),
      number_output({.key = "preamble_time_ms",
                     .label = "Preamble time (n_preamble + 4.25)·T_sym",
                     .unit = "ms",
                     .precision = 3}),
      number_output({.key = "payload_symbols",
                     .label = "Header and payload symbols",
                     .unit = "symbols",
                     .precision = 0}),
      number_output({.key = "time_on_air_ms",
                     .label = "Time on air of the packet",
                     .unit = "ms",
                     .precision = 3}),
      number_output({.key = "max_messages_per_hour_1pct",
                     .label = "Packets per hour within a 1 % duty cycle (36 s)",
                     .unit = "packets/h",
                     .precision = 0}),
  };
  t.references = {
      "Semtech, \"SX1276/77/78/79 – 137 MHz to 1020 MHz Low Power Long Range Transceiver\", "
      "datasheet rev. 7, May 2020, §4.1.1.6 (LoRa packet structure, LowDataRateOptimize mandated "
      "above 16 ms symbols) and §4.1.1.7 (time on air: T_sym = 2^SF/BW, T_preamble = "
      "(n_preamble + 4.25)·T_sym, payloadSymbNb = 8 + max(ceil((8PL − 4SF + 28 + 16CRC − "
      "20IH)/(4(SF − 2DE)))·(CR + 4), 0))",
      "Semtech, AN1200.13 \"SX1272/3/6/7/8: LoRa Modem Designer's Guide\", rev. 1, July 2013 "
      "(time on air of a LoRa packet: the same equations, with the symbol-rate definition)",
  };
  t.examples = {
      {.title = "LoRaWAN uplink, 24 + 13 bytes at SF7/125 kHz",
       .request_json = R"({"spreading_factor":7,"bandwidth_khz":"125","coding_rate":"4/5",)"
                       R"("payload_bytes":37,"preamble_symbols":8,"explicit_header":true,)"
                       R"("crc":true,"low_data_rate_optimize":"auto"})",
       .expected_json = R"({"symbol_time_ms":1.024,"preamble_time_ms":12.544,)"
                        R"("payload_symbols":68,"time_on_air_ms":82.176})",
       .tolerance_pct = 0,
       .source = "M. Kooijman, \"LoRa airtime calculations\" spreadsheet (formulas from Semtech "
                 "AN1200.13), linked from The Things Network forum thread \"Spreadsheet for LoRa "
                 "airtime calculation\" (thethingsnetwork.org/forum/t/1190), docs.google.com/"
                 "spreadsheets/d/1eL1nHxMidIcIdDE_l-DoY3kmE2e8b0YpOBW64WnYxj8, column SF7: Tsym "
                 "1.024 ms, Tpreamble 12.544 ms, payloadSymbNb 68, Tpacket 82.176 ms"},
      {.title = "LoRaWAN uplink, 24 + 13 bytes at SF12/125 kHz (low data rate optimisation on)",
       .request_json = R"({"spreading_factor":12,"bandwidth_khz":"125","coding_rate":"4/5",)"
                       R"("payload_bytes":37,"preamble_symbols":8,"explicit_header":true,)"
                       R"("crc":true,"low_data_rate_optimize":"auto"})",
       .expected_json = R"({"symbol_time_ms":32.768,"preamble_time_ms":401.408,)"
                        R"("payload_symbols":48,"time_on_air_ms":1974.272})",
       .tolerance_pct = 0,
       .source = "M. Kooijman, \"LoRa airtime calculations\" spreadsheet, docs.google.com/"
                 "spreadsheets/d/1eL1nHxMidIcIdDE_l-DoY3kmE2e8b0YpOBW64WnYxj8, column SF12 (low "
                 "DR optimize \"auto\" = on for SF11–12 at 125 kHz): Tsym 32.768 ms, Tpreamble "
                 "401.408 ms, payloadSymbNb 48, Tpacket 1974.272 ms"},
      {.title = "13 bytes at SF9/125 kHz, low data rate optimisation off",
       .request_json = R"({"spreading_factor":9,"bandwidth_khz":"125","coding_rate":"4/5",)"
                       R"("payload_bytes":13,"low_data_rate_optimize":"off"})",
       .expected_json = R"({"symbol_time_ms":4.096,"preamble_time_ms":50.176,)"
                        R"("payload_symbols":28,"time_on_air_ms":164.864})",
       .tolerance_pct = 0,
       .source = "LoRa airtime spreadsheet (\"Formulas taken from AN1200.13\"), docs.google.com/"
                 "spreadsheets/d/1voGAtQAjC1qBmaVuP1ApNKs1ekgUjavHuVQIXyYSvNc, inputs 13 bytes, "
                 "SF9, explicit header, low DR optimize no, 4/5, 8 preamble symbols, 125 kHz: "
                 "Tsym 4.096 ms, Tpreamble 50.176 ms, payloadSymbNb 28, Tpacket 164.864 ms"},
      {.title = "25 bytes at SF7/250 kHz, coding rate 4/8",
       .request_json = R"({"spreading_factor":7,"bandwidth_khz":"250","coding_rate":"4/8",)"
                       R"("payload_bytes":25})",
       .expected_json = R"({"time_on_air_ms":43.136})",
       .tolerance_pct = 0,
       .source = "A. van Bentem, The Things Network airtime calculator (avbentem.github.io/"
                 "airtime-calculator), unit test src/lora/Airtime.test.ts in github.com/avbentem/"
                 "airtime-calculator, \"SF7BW250 with CR4/8\": calculate(25, 7, 250, '4/8') = "
                 "43.136 ms"},
      {.title = "25 bytes at SF11/125 kHz (low data rate optimisation on)",
       .request_json = R"({"spreading_factor":11,"bandwidth_khz":"125","payload_bytes":25})",
       .expected_json = R"({"time_on_air_ms":823.296})",
       .tolerance_pct = 0,
       .source = "A. van Bentem, The Things Network airtime calculator, unit test "
                 "src/lora/Airtime.test.ts in github.com/avbentem/airtime-calculator, "
                 "\"SF11BW125\" (low data rate optimisation on): calculate(25, 11, 125) = "
                 "823.296 ms"},
  };
  return t;
}

int coding_rate_index(const std::string& cr) {
  // "4/5" → 1 … "4/8" → 4, the CR of the datasheet's formula.
  return cr.back() - '4';
}

ComputeResult compute(const Inputs& in) {
  const int sf = static_cast<int>(in.number("spreading_factor"));
  const std::int64_t bw_khz = std::stoi(in.enumeration("bandwidth_khz"));
  const int cr = coding_rate_index(in.enumeration("coding_rate"));
  const std::int64_t payload = static_cast<std::int64_t>(in.number("payload_bytes"));
  const std::int64_t preamble = static_cast<std::int64_t>(in.number("preamble_symbols"));
  const int ih = in.boolean("explicit_header") ? 0 : 1;
  const int crc = in.boolean("crc") ? 1 : 0;

  // T_sym = 2^SF / BW. In microseconds it is a whole number, a multiple of 256 µs for every
  // SF 7–12 and bandwidth, so the whole packet time is exact in integer µs (4.25·T_sym too).
  const std::int64_t tsym_us = (std::int64_t{1} << sf) * 1000 / bw_khz;
  const std::string& ldro = in.enumeration("low_data_rate_optimize");
  const int de = ldro == "on" ? 1 : ldro == "off" ? 0 : (tsym_us >= kLdroThresholdUs ? 1 : 0);

  // payloadSymbNb = 8 + max(ceil((8PL − 4SF + 28 + 16CRC − 20IH) / (4(SF − 2DE)))·(CR + 4), 0)
  const std::int64_t numerator = 8 * payload - 4 * sf + 28 + 16 * crc - 20 * ih;
  const std::int64_t denominator = 4 * (sf - 2 * de);
  // Ceiling of a possibly negative quotient (the max(…, 0) then clips it).
  std::int64_t blocks = numerator / denominator;
  if (numerator % denominator != 0 && numerator > 0) ++blocks;
  const std::int64_t payload_symbols = 8 + std::max<std::int64_t>(blocks * (cr + 4), 0);

  const std::int64_t preamble_us = preamble * tsym_us + tsym_us * 17 / 4;  // + 4.25·T_sym
  const std::int64_t toa_us = preamble_us + payload_symbols * tsym_us;
  const std::int64_t per_hour = kOnePercentOfHourUs / toa_us;

  Outputs out;
  out.set("symbol_time_ms", static_cast<double>(tsym_us) / 1000)
      .set("preamble_time_ms", static_cast<double>(preamble_us) / 1000)
      .set("payload_symbols", static_cast<double>(payload_symbols))
      .set("time_on_air_ms", static_cast<double>(toa_us) / 1000)
      .set("max_messages_per_hour_1pct", static_cast<double>(per_hour));
  return out;
}

}  // namespace

Tool make_lora_time_on_air() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
