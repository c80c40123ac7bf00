// I²C pull-up resistor range from VDD, bus capacitance and bus mode, per the I²C-bus
// specification UM10204. Formula, constants, references and worked examples:
// docs/tools/i2c-pullup-resistor.md.
#include <algorithm>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// UM10204 §7.1: the rise from 0.3·VDD to 0.7·VDD of an RC charge lasts ln(0.7/0.3)·RC.
constexpr double kRiseFactor = 0.8473;
// UM10204 I/O-stage characteristics: VOL1 = 0.4 V for VDD > 2 V; VOL2 = 0.2·VDD at 2 mA for
// VDD ≤ 2 V.
constexpr double kLowSupplyLimitV = 2.0;
constexpr double kVolHighSupplyV = 0.4;
constexpr double kVolLowSupplyFraction = 0.2;
constexpr double kIolLowSupplyMa = 2.0;

struct BusMode {
  const char* key;
  const char* name;
  double rise_time_ns;        // tr(max), 0.3·VDD → 0.7·VDD
  double max_capacitance_pf;  // Cb(max) per bus line
  double iol_ma;              // guaranteed sink current at VOL = 0.4 V (VDD > 2 V)
};
constexpr BusMode kModes[] = {
    {"standard", "Standard-mode (100 kHz)", 1000, 400, 3},
    {"fast", "Fast-mode (400 kHz)", 300, 400, 3},
    {"fast-plus", "Fast-mode Plus (1 MHz)", 120, 550, 20},
};

const BusMode& find_mode(const std::string& key) {
  for (const auto& m : kModes)
    if (key == m.key) return m;
  return kModes[0];  // unreachable: validation admits only the options
}

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "i2c-pullup-resistor";
  t.domain = "iot-mcu";
  t.version = "1.1.0";
  t.name = "I²C Pull-Up Resistor (UM10204)";
  t.description =
      "Minimum and maximum pull-up resistance for an I²C bus from the supply voltage, the bus "
      "capacitance and the bus mode, per the I²C-bus specification UM10204: the minimum keeps "
      "the low level within VOL at the drivers' guaranteed sink current, the maximum keeps "
      "the rise time within the mode's limit.";
  t.standard = "UM10204";
  t.inputs = {
      number_input({.key = "vdd_v",
                    .label = "Pull-up supply voltage VDD",
                    .unit = "V",
                    .help = "Voltage the pull-up resistors connect to. At 2 V and below UM10204 "
                            "allows VOL = 0.2·VDD at 2 mA instead of 0.4 V at the mode's full "
                            "sink current, so Rp(min) jumps where VDD crosses 2 V.",
                    .min = 1.2,
                    .max = 5.5,
                    .step = 0.1,
                    .default_value = 3.3}),
      number_input({.key = "bus_capacitance_pf",
                    .label = "Bus capacitance Cb",
                    .unit = "pF",
                    .help = "Total capacitance of one bus line: every device pin (up to 10 pF "
                            "each), traces, connectors and cable (roughly 50–100 pF per metre of "
                            "cable). At most 400 pF in Standard-mode and Fast-mode, 550 pF in "
                            "Fast-mode Plus.",
                    .min = 10,
                    .max = 550,
                    .step = 10,
                    .default_value = 200}),
      choice_input({.key = "mode",
                    .label = "Bus mode",
                    .help = "standard: Standard-mode, up to 100 kHz (rise time ≤ 1000 ns, "
                            "≤ 400 pF). fast: Fast-mode, up to 400 kHz (≤ 300 ns, ≤ 400 pF). "
                            "fast-plus: Fast-mode Plus, up to 1 MHz (≤ 120 ns, ≤ 550 pF, 20 mA "
                            "drivers). Use the fastest mode any transfer on the bus uses. "
                            "Hs-mode (3.4 MHz) uses current-source pull-ups and is not covered.",
                    .options = {"standard", "fast", "fast-plus"},
                    .default_value = "fast"}),
  };
  t.outputs = {
      number_output(
          {.key = "rp_min_ohm", .label = "Minimum pull-up Rp(min)", .unit = "Ω", .precision = 1}),
      number_output(
          {.key = "rp_max_ohm", .label = "Maximum pull-up Rp(max)", .unit = "Ω", .precision = 1}),
      // 3 decimals: 0.2·VDD below 2 V (0.240 … 0.400 V) keeps 3 significant digits.
      number_output({.key = "vol_max_v",
                     .label = "Low-level output voltage VOL(max) used",
                     .unit = "V",
                     .precision = 3}),
      number_output(
          {.key = "iol_ma", .label = "Sink current IOL used", .unit = "mA", .precision = 0}),
      number_output({.key = "rise_time_max_ns",
                     .label = "Maximum rise time tr",
                     .unit = "ns",
                     .precision = 0}),
      number_output({.key = "max_bus_capacitance_pf",
                     .label = "Largest bus capacitance at this VDD and mode",
                     .unit = "pF",
                     .precision = 1}),
  };
  t.references = {
      "NXP Semiconductors, UM10204 \"I²C-bus specification and user manual\", Rev. 7 (2021), "
      "§7.1 Pull-up resistor sizing: Rp(min) = (VDD − VOL(max))/IOL, "
      "Rp(max) = tr/(0.8473·Cb)",
      "NXP UM10204 Rev. 7, characteristics of the SDA and SCL I/O stages: VOL 0.4 V at 3 mA "
      "(20 mA for Fast-mode Plus) for VDD > 2 V, 0.2·VDD at 2 mA for VDD ≤ 2 V; tr(max) 1000 / "
      "300 / 120 ns; Cb(max) 400 / 400 / 550 pF",
      "Texas Instruments, SLVA689 \"I2C Bus Pullup Resistor Calculation\" (2015): worked "
      "example, Fast-mode at 3.3 V and 200 pF gives 966.7 Ω to 1.77 kΩ",
  };
  t.examples = {
      {.title = "Fast-mode at 3.3 V, 200 pF",
       .request_json = R"({"vdd_v":3.3,"bus_capacitance_pf":200,"mode":"fast"})",
       .expected_json = R"({"rp_min_ohm":966.667,"rp_max_ohm":1770})",
       .tolerance_pct = 0.3,
       .source = "Texas Instruments, SLVA689 \"I2C Bus Pullup Resistor Calculation\" (February "
                 "2015), section 4 \"Example\": Fast-mode, Cb = 200 pF, VCC = 3.3 V: any "
                 "resistor between 966.667 Ω and 1.77 kΩ (ti.com/document-viewer/lit/html/"
                 "SLVA689)"},
      {.title = "Rp(min) at 3.3 V with a 3 mA sink",
       .request_json = R"({"vdd_v":3.3,"bus_capacitance_pf":400,"mode":"standard"})",
       .expected_json = R"({"rp_min_ohm":967})",
       .tolerance_pct = 0.05,
       .source = "Texas Instruments, SBAA565 (November 2022), section on I2C pullup resistors "
                 "(Equation 4): 3.3 V less the 0.4 V output low voltage, divided by the 3-mA "
                 "sink current, \"results in 967 Ω as the minimum resistance\" "
                 "(ti.com/document-viewer/lit/html/SBAA565)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double vdd = in.number("vdd_v");
  const double cb_pf = in.number("bus_capacitance_pf");
  const BusMode& mode = find_mode(in.enumeration("mode"));
  if (cb_pf > mode.max_capacitance_pf) {
    std::string msg = "bus_capacitance_pf of ";
    append_shortest(msg, cb_pf);
    msg += " pF is above the ";
    append_shortest(msg, mode.max_capacitance_pf);
    msg += " pF UM10204 allows per line in ";
    msg += mode.name;
    msg +=
        "; shorten the wiring or move devices to a second bus behind a buffer (e.g. PCA9515 "
        "or P82B96)";
    if (mode.max_capacitance_pf < kModes[2].max_capacitance_pf)
      msg += ", or use Fast-mode Plus parts (550 pF)";
    return ToolError{"bus_capacitance_pf", std::move(msg)};
  }
  const bool low_supply = vdd <= kLowSupplyLimitV;
  const double vol = low_supply ? kVolLowSupplyFraction * vdd : kVolHighSupplyV;
  const double iol_ma = low_supply ? kIolLowSupplyMa : mode.iol_ma;
  const double rp_min = (vdd - vol) / (iol_ma / 1000.0);
  const double rise_s = mode.rise_time_ns * 1e-9;
  const double rp_max = rise_s / (kRiseFactor * (cb_pf * 1e-12));
  // The bus capacitance at which Rp(max) falls to Rp(min): beyond it no resistor works.
  const double cb_at_rp_min_pf = rise_s / (kRiseFactor * rp_min) * 1e12;
  if (rp_min > rp_max) {
    std::string msg = "at ";
    append_shortest(msg, vdd);
    msg += " V a ";
    msg += mode.name;
    msg += " bus needs a pull-up of at least ";
    append_fixed(msg, rp_min, 1);
    msg += " Ω (VOL ";
    append_fixed(msg, vol, 2);
    msg += " V at ";
    append_shortest(msg, iol_ma);
    msg += " mA), but ";
    append_shortest(msg, cb_pf);
    msg += " pF allows at most ";
    append_fixed(msg, rp_max, 1);
    msg += " Ω for its ";
    append_shortest(msg, mode.rise_time_ns);
    msg += " ns rise time: no resistor meets both; keep the bus at or below ";
    append_fixed(msg, cb_at_rp_min_pf, 1);
    msg += " pF, use a slower mode or an active pull-up / bus buffer";
    return ToolError{"bus_capacitance_pf", std::move(msg)};
  }
  Outputs out;
  out.set("rp_min_ohm", rp_min)
      .set("rp_max_ohm", rp_max)
      .set("vol_max_v", vol)
      .set("iol_ma", iol_ma)
      .set("rise_time_max_ns", mode.rise_time_ns)
      .set("max_bus_capacitance_pf", std::min(mode.max_capacitance_pf, cb_at_rp_min_pf));
  return out;
}

}  // namespace

Tool make_i2c_pullup_resistor() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
