// Hold-up time of a supercapacitor discharged from V_start until the load's terminal voltage
// reaches V_min, at constant power or constant current, with the drop across the ESR.
// Formula, references and worked examples: docs/tools/supercap-holdup-time.md.
#include <cmath>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// The shortest hold-up the tool reports: 1 µs (see compute()).
constexpr double kMinHoldupS = 1e-6;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "supercap-holdup-time";
  t.domain = "iot-mcu";
  t.version = "1.0.0";
  t.name = "Supercapacitor Hold-up Time";
  t.description =
      "How long a supercapacitor charged to V_start keeps a constant-power or constant-current "
      "load running until the terminal voltage falls to V_min, including the drop across its "
      "ESR: t = C(V1² − V2²)/(2P) without ESR.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "capacitance_f",
                    .label = "Capacitance C",
                    .unit = "F",
                    .help = "Capacitance of the cell or bank in farads (series cells: C/n). Use "
                            "the end-of-life value, typically 80 % of rated, for a design.",
                    .min = 0.1,
                    .max = 10000,
                    .step = 0.01,
                    .default_value = 1}),
      number_input({.key = "esr_ohm",
                    .label = "ESR",
                    .unit = "Ω",
                    .help = "Equivalent series resistance at DC from the datasheet (series "
                            "cells: n·ESR); 0 to ignore it. Coin-type cells have 10–100 Ω.",
                    .min = 0,
                    .max = 100,
                    .step = 0.001,
                    .default_value = 0,
                    .required = false}),
      number_input({.key = "v_start_v",
                    .label = "Start voltage V_start",
                    .unit = "V",
                    .help = "Capacitor voltage when the hold-up begins (its charge voltage).",
                    .min = 0.1,
                    .max = 1000,
                    .step = 0.01,
                    .default_value = 5}),
      number_input({.key = "v_min_v",
                    .label = "Minimum load voltage V_min",
                    .unit = "V",
                    .help = "Lowest terminal voltage the load or its converter runs at (e.g. "
                            "the converter's undervoltage lockout). Must be below V_start.",
                    .min = 0.1,
                    .max = 1000,
                    .step = 0.01,
                    .default_value = 3}),
      choice_input({.key = "load_type",
                    .label = "Load type",
                    .help = "constant-power: a DC/DC converter or regulator that draws more "
                            "current as the voltage falls. constant-current: a linear regulator "
                            "or a fixed current sink.",
                    .options = {"constant-power", "constant-current"},
                    .default_value = "constant-power"}),
      number_input({.key = "load_power_w",
                    .label = "Load power P",
                    .unit = "W",
                    .help = "Power drawn from the capacitor (the load's power divided by the "
                            "converter efficiency); used when load_type is constant-power.",
                    .min = 0.0001,
                    .max = 1000000,
                    .step = 0.001,
                    .default_value = 1,
                    .required = false}),
      number_input({.key = "load_current_a",
                    .label = "Load current I",
                    .unit = "A",
                    .help = "Current drawn from the capacitor; used when load_type is "
                            "constant-current.",
                    .min = 0.000001,
                    .max = 10000,
                    .step = 0.001,
                    .default_value = 0.1,
                    .required = false}),
  };
  t.outputs = {
      number_output({.key = "holdup_time_s",
                     .label = "Hold-up time",
                     .unit = "s",
                     .precision = 3,
                     .small_values_in = "holdup_time_us"}),
      number_output({.key = "holdup_time_us",
                     .label = "Hold-up time in microseconds",
                     .unit = "µs",
                     .precision = 3}),
      number_output({.key = "capacitor_end_v",
                     .label = "Capacitor voltage when the hold-up ends",
                     .unit = "V",
                     .precision = 3}),
      number_output({.key = "terminal_end_v",
                     .label = "Load voltage when the hold-up ends",
                     .unit = "V",
                     .precision = 3}),
  };
  t.references = {
      "Maxwell Technologies, application note \"How to Determine the Appropriate Size "
      "Ultracapacitor for Your Application\", doc. 1007236 rev. 2, 2004: capacitive drop "
      "dV = i·dt/C and resistive drop dV = i·R (ESR)",
      "SPS Cap, \"How to appropriately calculate the capacitance of "
      "ultracapacitor\" (www.spscap.com): constant current C = I·t/(V_work − V_min), constant "
      "power C·ΔU²/2 = P·t",
      "Electrical Engineering Stack Exchange, \"Constant power discharge of a non-ideal "
      "capacitor\" (read at itecnotes.com/electrical/electronic-constant-power-discharge-of-a-"
      "non-ideal-capacitor/): t(V) = C/(4P)·(V0² − V² + V0√(V0² − 4PR) − V√(V² − 4PR)) + "
      "C·R·ln((V + √(V² − 4PR))/(V0 + √(V0² − 4PR)))",
  };
  t.examples = {
      {.title = "Constant current: 1.25 F, 5 V to 4.2 V at 100 mA",
       .request_json = R"({"capacitance_f":1.25,"esr_ohm":0,"v_start_v":5,"v_min_v":4.2,)"
                       R"("load_type":"constant-current","load_current_a":0.1})",
       .expected_json = R"({"holdup_time_s":10})",
       .tolerance_pct = 0,
       .source = "SPS Cap, \"How to appropriately calculate the capacitance of ultracapacitor\" "
                 "(www.spscap.com/how-to-appropriately-calculate-the-capacitance-of-"
                 "ultracapacitor.html), constant-current example: Vwork 5 V, Vmin 4.2 V, t = "
                 "10 s, I = 0.1 A → C = 0.1·10/(5 − 4.2) = 1.25 F"},
      {.title = "Constant power: 11 F bank, 750 V to 450 V at 200 kW",
       .request_json = R"({"capacitance_f":11,"v_start_v":750,"v_min_v":450,)"
                       R"("load_type":"constant-power","load_power_w":200000})",
       .expected_json = R"({"holdup_time_s":10})",
       .tolerance_pct = 1.1,
       .source = "SPS Cap, same page, constant-power example: P = 200 kW, t = 10 s, Vwork 750 V, "
                 "Vmin 450 V → C = 2·200 kW·10 s/(750² − 450²) = 11 F (the page rounds 11.1 F to "
                 "11 F, hence 1 % on the time)"},
      {.title = "Constant current: 1 F from 5 V to 3 V at 10 mA",
       .request_json = R"({"capacitance_f":1,"v_start_v":5,"v_min_v":3,)"
                       R"("load_type":"constant-current","load_current_a":0.01})",
       .expected_json = R"({"holdup_time_s":200})",
       .tolerance_pct = 0,
       .source = "Electrical Engineering Stack Exchange, question 4951 \"How do I calculate how "
                 "fast a capacitor will discharge?\", accepted answer (read at qastack.co.in/"
                 "electronics/4951/how-do-i-calculate-how-fast-a-capacitor-will-discharge): 1 F "
                 "from 5 V to 3 V gives up 2 C, enough for 0.01 A during 200 s"},
  };
  return t;
}

std::string volts(double v) {
  return format_fixed(v, 3) + " V";
}

ComputeResult compute(const Inputs& in) {
  const double c = in.number("capacitance_f");
  const double r = in.number("esr_ohm");
  const double v0 = in.number("v_start_v");
  const double vmin = in.number("v_min_v");
  if (vmin >= v0) {
    return ToolError{"v_min_v", "v_min_v (" + volts(vmin) + ") must be below v_start_v (" +
                                    volts(v0) + "): there is nothing to discharge."};
  }

  double t_s = 0, v_end = 0, terminal_end = vmin;
  if (in.enumeration("load_type") == "constant-current") {
    const double i = in.number("load_current_a");
    // The terminal sits I·R below the capacitor: the hold-up ends when the capacitor reaches
    // V_min + I·R, after C·ΔV/I.
    v_end = vmin + i * r;
    if (v_end >= v0) {
      return ToolError{"v_start_v", "At " + format_fixed(i * 1000, 3) + " mA the ESR drops " +
                                        volts(i * r) + ", so the load sees less than v_min_v (" +
                                        volts(vmin) + ") from the start; v_start_v must exceed " +
                                        volts(v_end) + ", or lower esr_ohm or the current."};
    }
    t_s = c * (v0 - v_end) / i;
  } else {
    const double p = in.number("load_power_w");
    // The load draws I with (V − I·R)·I = P from capacitor voltage V, so
    // I = (V − √(V² − 4PR))/(2R) on the stable branch, which exists while V² ≥ 4PR. The
    // hold-up ends when the terminal reaches V_min (capacitor at V_min + PR/V_min), or, when
    // V_min² < PR, at the maximum-power point V = 2√(PR), where the terminal is √(PR) and
    // the load collapses.
    const double pr = p * r;
    if (vmin * vmin >= pr) {
      v_end = vmin + pr / vmin;
      terminal_end = vmin;
    } else {
      v_end = 2 * std::sqrt(pr);
      terminal_end = std::sqrt(pr);
    }
    if (v_end >= v0) {
      if (v0 * v0 < 4 * pr) {
        return ToolError{
            "load_power_w",
            "Through " + format_fixed(r, 3) + " Ω of ESR a capacitor at " + volts(v0) +
                " can deliver at most V²/(4·ESR) = " + format_fixed(v0 * v0 / (4 * r), 3) +
                " W; lower load_power_w or esr_ohm, or raise v_start_v."};
      }
      return ToolError{"v_start_v", "At " + format_fixed(p, 3) +
                                        " W the ESR drop already takes the load below v_min_v (" +
                                        volts(vmin) + ") at the start; v_start_v must exceed " +
                                        volts(v_end) + ", or lower esr_ohm or the power."};
    }
    // t = C/(2P)·∫(V + √(V² − 4PR)) dV from V_end to V_start
    //   = C/(4P)·[V² + V·s − 4PR·ln(V + s)] between the limits, s = √(V² − 4PR).
    const double a2 = 4 * pr;
    const double s0 = std::sqrt(v0 * v0 - a2);
    const double se = std::sqrt(std::fmax(v_end * v_end - a2, 0.0));
    t_s = c / (4 * p) * ((v0 - v_end) * (v0 + v_end) + v0 * s0 - v_end * se) -
          c * r * std::log((v0 + s0) / (v_end + se));
  }
  // Below a microsecond the capacitor is, for this load, already empty: the hold-up is
  // shorter than the capacitor's own current rise and the model says nothing useful.
  if (t_s < kMinHoldupS) {
    const bool power = in.enumeration("load_type") == "constant-power";
    return ToolError{power ? "load_power_w" : "load_current_a",
                     "The capacitor holds this load for only " + format_fixed(t_s * 1e9, 3) +
                         " ns, less than 1 µs: between these voltages it is as good as empty; "
                         "raise capacitance_f or v_start_v, or lower " +
                         (power ? "load_power_w." : "load_current_a.")};
  }
  Outputs out;
  out.set("holdup_time_s", t_s)
      .set("holdup_time_us", t_s * 1e6)
      .set("capacitor_end_v", v_end)
      .set("terminal_end_v", terminal_end);
  return out;
}

}  // namespace

Tool make_supercap_holdup_time() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
