// I²C pull-up resistor range from VDD, bus capacitance and bus mode, per the I²C-bus
// specification UM10204 (issue 10). Formula, constants, references and worked examples:
// docs/tools/i2c-pullup-resistor.md.
#include <algorithm>

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
  t.version = "1.0.0";
  t.name = "I²C Pull-Up Resistor (UM10204)";
  t.description =
      "Minimum and maximum pull-up resistance for an I²C bus from the supply voltage, the bus "
      "capacitance and the bus mode, per the I²C-bus specification UM10204: the minimum keeps "
      "the low level within VOL at the drivers' guaranteed sink current, the maximum keeps "
      "the rise time within the mode's limit.";
  t.standard = "UM10204";
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
  InputDescriptor mode;
  mode.key = "mode";
  mode.label = "Bus mode";
  mode.type = InputType::Enum;
  mode.help =
      "standard: Standard-mode, up to 100 kHz (rise time ≤ 1000 ns, ≤ 400 pF). fast: "
      "Fast-mode, up to 400 kHz (≤ 300 ns, ≤ 400 pF). fast-plus: Fast-mode Plus, up to 1 MHz "
      "(≤ 120 ns, ≤ 550 pF, 20 mA drivers). Use the fastest mode any transfer on the bus uses.";
  mode.default_value = std::string("fast");
  mode.options = {"standard", "fast", "fast-plus"};
  t.inputs = {
      number("vdd_v", "Pull-up supply voltage VDD", "V",
             "Voltage the pull-up resistors connect to. At 2 V and below UM10204 allows "
             "VOL = 0.2·VDD at 2 mA instead of 0.4 V at the mode's full sink current.",
             1.2, 5.5, 0.1, 3.3),
      number("bus_capacitance_pf", "Bus capacitance Cb", "pF",
             "Total capacitance of one bus line: every device pin (up to 10 pF each), traces, "
             "connectors and cable (roughly 50–100 pF per metre of cable).",
             10, 550, 10, 200),
      mode,
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
      out("rp_min_ohm", "Minimum pull-up Rp(min)", "Ω", 1),
      out("rp_max_ohm", "Maximum pull-up Rp(max)", "Ω", 1),
      out("vol_max_v", "Low-level output voltage VOL(max) used", "V", 2),
      out("iol_ma", "Sink current IOL used", "mA", 0),
      out("rise_time_max_ns", "Maximum rise time tr", "ns", 0),
      out("max_bus_capacitance_pf", "Largest bus capacitance at this VDD and mode", "pF", 1),
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
      {.title = "Defaults: 3.3 V, 200 pF, Fast-mode (TI SLVA689 example)",
       .request_json = R"({"vdd_v":3.3,"bus_capacitance_pf":200,"mode":"fast"})"},
      {.title = "1.8 V sensor bus, 100 pF, Standard-mode",
       .request_json = R"({"vdd_v":1.8,"bus_capacitance_pf":100,"mode":"standard"})"},
      {.title = "5 V, 500 pF, Fast-mode Plus",
       .request_json = R"({"vdd_v":5,"bus_capacitance_pf":500,"mode":"fast-plus"})"},
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
