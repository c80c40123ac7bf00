// CAN (classical / nominal) bit timing from the controller clock, the baud-rate prescaler and
// the segment lengths: time quantum, quanta per bit, bit time and rate, sample point, and the
// error against a target bit rate. Formula, references and worked examples:
// docs/tools/can-bit-timing.md.
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "can-bit-timing";
  t.domain = "iot-mcu";
  t.version = "1.0.0";
  t.name = "CAN Bit Timing";
  t.description =
      "CAN nominal bit timing from the CAN clock, baud-rate prescaler and segment lengths "
      "(TSEG1 = propagation + phase 1, TSEG2 = phase 2, SJW): time quantum, quanta per bit, "
      "bit rate, sample point and the error against a target bit rate.";
  t.standard = "ISO 11898-1";
  t.inputs = {
      number_input({.key = "clock_hz",
                    .label = "CAN clock",
                    .unit = "Hz",
                    .help = "Clock feeding the CAN controller's prescaler (APB or kernel clock), "
                            "in hertz: 16000000 for 16 MHz.",
                    .min = 1000000,
                    .max = 200000000,
                    .step = 1,
                    .default_value = 16000000}),
      integer_input({.key = "prescaler",
                     .label = "Baud-rate prescaler",
                     .unit = "",
                     .help = "Clock cycles per time quantum, 1 to 1024: the register value + 1 "
                             "on most MCUs (STM32 BRP + 1, MCAN NBRP + 1).",
                     .min = 1,
                     .max = 1024,
                     .step = 1,
                     .default_value = 2}),
      integer_input({.key = "tseg1_tq",
                     .label = "TSEG1 (propagation + phase segment 1)",
                     .unit = "tq",
                     .help = "Time quanta between the sync segment and the sample point, 1 to "
                             "256 (STM32 TS1 + 1, MCAN NTSEG1 + 1).",
                     .min = 1,
                     .max = 256,
                     .step = 1,
                     .default_value = 13}),
      integer_input({.key = "tseg2_tq",
                     .label = "TSEG2 (phase segment 2)",
                     .unit = "tq",
                     .help = "Time quanta after the sample point, 1 to 128 (STM32 TS2 + 1, MCAN "
                             "NTSEG2 + 1).",
                     .min = 1,
                     .max = 128,
                     .step = 1,
                     .default_value = 2}),
      integer_input({.key = "sjw_tq",
                     .label = "Synchronisation jump width (SJW)",
                     .unit = "tq",
                     .help = "Largest resynchronisation step, 1 to 128; must not exceed TSEG1 or "
                             "TSEG2.",
                     .min = 1,
                     .max = 128,
                     .step = 1,
                     .default_value = 1,
                     .required = false}),
      number_input({.key = "target_bitrate_kbps",
                    .label = "Target bit rate",
                    .unit = "kbit/s",
                    .help = "Bit rate the bus runs at, e.g. 125, 250, 500 or 1000 kbit/s.",
                    .min = 1,
                    .max = 1000,
                    .step = 1,
                    .default_value = 500,
                    .required = false}),
  };
  t.outputs = {
      number_output({.key = "time_quantum_ns",
                     .label = "Time quantum tq = prescaler / clock",
                     .unit = "ns",
                     .precision = 3}),
      number_output(
          {.key = "tq_per_bit", .label = "Time quanta per bit", .unit = "tq", .precision = 0}),
      number_output(
          {.key = "bit_time_us", .label = "Nominal bit time", .unit = "µs", .precision = 4}),
      number_output({.key = "bit_rate_kbps",
                     .label = "Nominal bit rate",
                     .unit = "kbit/s",
                     .precision = 3,
                     .small_values_in = "bit_rate_bps"}),
      number_output({.key = "bit_rate_bps",
                     .label = "Nominal bit rate in bit/s",
                     .unit = "bit/s",
                     .precision = 2}),
      number_output({.key = "sample_point_pct",
                     .label = "Sample point (1 + TSEG1) / bit",
                     .unit = "%",
                     .precision = 2}),
      number_output({.key = "bitrate_error_pct",
                     .label = "Bit-rate error against the target",
                     .unit = "%",
                     .precision = 3,
                     .small_values_in = "bitrate_error_ppm"}),
      number_output({.key = "bitrate_error_ppm",
                     .label = "Bit-rate error against the target, in ppm",
                     .unit = "ppm",
                     .precision = 3}),
  };
  t.references = {
      "ISO 11898-1:2015, \"Road vehicles — Controller area network (CAN) — Part 1: Data link "
      "layer and physical signalling\", bit timing (bit time of Sync_Seg = 1 tq, Prop_Seg, "
      "Phase_Seg1 and Phase_Seg2; sample point at the end of Phase_Seg1; SJW ≤ "
      "min(Phase_Seg1, Phase_Seg2))",
      "Robert Bosch GmbH, \"CAN Specification Version 2.0\", 1991, Part B, \"Bit Timing "
      "Requirements\" (nominal bit time = SYNC_SEG + PROP_SEG + PHASE_SEG1 + PHASE_SEG2, "
      "time quantum = prescaler × minimum time quantum)",
      "F. Hartwich, A. Bassemir (Robert Bosch GmbH), \"The Configuration of the CAN Bit "
      "Timing\", 6th International CAN Conference, Turin, 1999",
      "CAN in Automation, CiA 301 bit-timing table as reproduced in the CANpie API "
      "documentation (canpie.sourceforge.net/page.api_bitiming.html): recommended sample point "
      "87.5 %, valid range 75–90 % at 1 Mbit/s and 800 kbit/s, 85–90 % at 500 kbit/s and below",
  };
  t.examples = {
      {.title = "MCAN reset value: 8 MHz clock, NBTP = 0x06000A03",
       .request_json = R"({"clock_hz":8000000,"prescaler":1,"tseg1_tq":11,"tseg2_tq":4,)"
                       R"("sjw_tq":4,"target_bitrate_kbps":500})",
       .expected_json = R"({"bit_rate_kbps":500})",
       .tolerance_pct = 0,
       .source = "Microchip online documentation of the MCAN peripheral (SAM devices), §38.7.7 "
                 "\"Nominal Bit Timing and Prescaler\" (NBTP), onlinedocs.microchip.com/oxy/"
                 "GUID-A52628F4-6F6F-4C77-80CB-113A0C62DB75-en-US-10/GUID-1E684B18-D9E0-4952-"
                 "B533-08EAF576C669.html: \"With a CAN clock of 8MHz, the reset value 0x06000A03 "
                 "configures the CAN for a bit rate of 500 kBits/s\" (NBRP 0, NTSEG1 10, NTSEG2 "
                 "3, NSJW 3; each field + 1)"},
      {.title = "MSP432E4 CAN, 50 MHz clock, 100 kbit/s",
       .request_json = R"({"clock_hz":50000000,"prescaler":50,"tseg1_tq":5,"tseg2_tq":4,)"
                       R"("sjw_tq":4,"target_bitrate_kbps":100})",
       .expected_json = R"({"time_quantum_ns":1000,"tq_per_bit":10,"bit_time_us":10,)"
                        R"("bit_rate_kbps":100})",
       .tolerance_pct = 0,
       .source = "Texas Instruments, SLAU723A \"MSP432E4 SimpleLink Microcontrollers Technical "
                 "Reference Manual\", §11.3.16.2 \"Example for Bit Timing at Low Baud Rate\": "
                 "CAN clock 50 MHz, bit rate 100 kbps, bit time 10 µs = 10 tq, tq = 1 µs, baud "
                 "rate prescaler 50, TSeg1 5 tq, TSeg2 4 tq, SJW 4 tq"},
      {.title = "AM335x DCAN, 1 Mbit/s from a 10 MHz CAN clock",
       .request_json = R"({"clock_hz":10000000,"prescaler":1,"tseg1_tq":8,"tseg2_tq":1,)"
                       R"("sjw_tq":1,"target_bitrate_kbps":1000})",
       .expected_json = R"({"time_quantum_ns":100,"tq_per_bit":10,"bit_time_us":1})",
       .tolerance_pct = 0,
       .source = "Texas Instruments, SPRUH73H \"AM335x Sitara Processors Technical Reference "
                 "Manual\", §23.3.16.2.2 \"Example for Bit Timing at High Baud Rate\", p. 3914: "
                 "tq = 100 ns = t_CAN_CLK (BRP 1), tTSeg1 = 800 ns (8 tq), tTSeg2 = 100 ns "
                 "(1 tq), tSJW = 1 tq, bit time 1000 ns"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double clock = in.number("clock_hz");
  const double prescaler = in.number("prescaler");
  const double tseg1 = in.number("tseg1_tq");
  const double tseg2 = in.number("tseg2_tq");
  const double sjw = in.number("sjw_tq");
  const double target_bps = in.number("target_bitrate_kbps") * 1000;

  // ISO 11898-1: SJW ≤ min(Phase_Seg1, Phase_Seg2). Phase_Seg2 is TSEG2; Phase_Seg1 is part
  // of TSEG1, so TSEG1 is the bound the registers let us check.
  if (sjw > tseg2) {
    return ToolError{"sjw_tq",
                     "sjw_tq (" + format_fixed(sjw, 0) +
                         " tq) exceeds phase segment 2 (tseg2_tq = " + format_fixed(tseg2, 0) +
                         " tq); ISO 11898-1 requires SJW ≤ Phase_Seg2: set sjw_tq to "
                         "at most " +
                         format_fixed(tseg2, 0) + "."};
  }
  if (sjw > tseg1) {
    return ToolError{"sjw_tq", "sjw_tq (" + format_fixed(sjw, 0) + " tq) exceeds tseg1_tq (" +
                                   format_fixed(tseg1, 0) +
                                   " tq), which holds phase segment 1; ISO 11898-1 requires SJW "
                                   "≤ Phase_Seg1: set sjw_tq to at most " +
                                   format_fixed(tseg1, 0) + "."};
  }

  const double tq_s = prescaler / clock;
  const double tq_per_bit = 1 + tseg1 + tseg2;  // Sync_Seg is always 1 tq
  const double bit_rate = clock / (prescaler * tq_per_bit);
  const double error = (bit_rate - target_bps) / target_bps;
  Outputs out;
  out.set("time_quantum_ns", tq_s * 1e9)
      .set("tq_per_bit", tq_per_bit)
      .set("bit_time_us", tq_s * tq_per_bit * 1e6)
      .set("bit_rate_kbps", bit_rate / 1000)
      .set("bit_rate_bps", bit_rate)
      .set("sample_point_pct", (1 + tseg1) / tq_per_bit * 100)
      .set("bitrate_error_pct", error * 100)
      .set("bitrate_error_ppm", error * 1e6);
  return out;
}

}  // namespace

Tool make_can_bit_timing() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
