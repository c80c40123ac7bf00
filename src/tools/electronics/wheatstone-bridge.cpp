// Wheatstone bridge: the output voltage from the excitation and four arm resistances, the R4
// that balances the bridge, and the load the bridge puts on its excitation; or, for a strain
// gauge, the same from the gauge resistance, gauge factor and strain in a quarter, half or
// full bridge. Formula, references and verification vectors: docs/tools/wheatstone-bridge.md.
#include <cmath>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// The largest relative change GF·ε a gauge is taken to have: metal foil gauges stay below a
// few percent (their strain limit is about 3–5 %), and beyond half the nominal resistance the
// linear gauge law ΔR/R = GF·ε no longer describes any gauge.
constexpr double kMaxRelativeChange = 0.5;

// Outputs under 10 nV are reported as a balanced bridge (0): the Johnson noise of a 1 kΩ arm
// at room temperature is about 4 nV/√Hz (Horowitz & Hill, The Art of Electronics, 3rd ed.,
// §8.1.1), so no instrument tells such a difference from balance, and 10 nV is the smallest
// output that output_uv still shows with three significant digits.
constexpr double kBalanceResolutionV = 10e-9;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "wheatstone-bridge";
  t.domain = "electronics";
  t.version = "1.1.0";
  t.name = "Wheatstone Bridge";
  t.description =
      "Output voltage of a Wheatstone bridge from its excitation and four arm resistances (or "
      "from a strain gauge's resistance, gauge factor and strain in a quarter, half or full "
      "bridge), the R4 that balances it, and the load the bridge puts on the excitation.";
  t.standard = std::nullopt;
  t.inputs = {
      choice_input({.key = "mode",
                    .label = "Mode",
                    .help = "resistors: the four arms R1–R4 as entered. strain-gauge: every arm "
                            "is the gauge resistance, and the active arms change by GF·ε "
                            "(R1–R4 are then not used).",
                    .options = {"resistors", "strain-gauge"},
                    .default_value = "resistors"}),
      number_input({.key = "excitation_v",
                    .label = "Excitation voltage",
                    .unit = "V",
                    .help = "Voltage across the bridge, from the top of R1/R3 to the bottom of "
                            "R2/R4; strain-gauge bridges typically use 1–10 V.",
                    .min = 0.1,
                    .max = 100,
                    .step = 0.1,
                    .default_value = 10}),
      number_input({.key = "r1_ohm",
                    .label = "R1 (left, top)",
                    .unit = "Ω",
                    .help = "Arm from the excitation's + to the left output node.",
                    .min = 1,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 1000,
                    .required = false}),
      number_input({.key = "r2_ohm",
                    .label = "R2 (left, bottom)",
                    .unit = "Ω",
                    .help = "Arm from the left output node to the excitation's −.",
                    .min = 1,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 1000,
                    .required = false}),
      number_input({.key = "r3_ohm",
                    .label = "R3 (right, top)",
                    .unit = "Ω",
                    .help = "Arm from the excitation's + to the right output node.",
                    .min = 1,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 1000,
                    .required = false}),
      number_input({.key = "r4_ohm",
                    .label = "R4 (right, bottom)",
                    .unit = "Ω",
                    .help = "Arm from the right output node to the excitation's − (the unknown "
                            "of a measuring bridge).",
                    .min = 1,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 1010,
                    .required = false}),
      number_input({.key = "gauge_resistance_ohm",
                    .label = "Gauge resistance (strain-gauge)",
                    .unit = "Ω",
                    .help = "Nominal gauge resistance, also used for the completion resistors: "
                            "commonly 120, 350 or 1000 Ω.",
                    .min = 10,
                    .max = 10000,
                    .step = 1,
                    .default_value = 350,
                    .required = false}),
      number_input({.key = "gauge_factor",
                    .label = "Gauge factor GF (strain-gauge)",
                    .unit = "",
                    .help = "ΔR/R per unit strain, from the gauge's package: about 2 for metal "
                            "foil gauges, 50–200 for semiconductor gauges.",
                    .min = 1,
                    .max = 200,
                    .step = 0.01,
                    .default_value = 2,
                    .required = false}),
      number_input({.key = "strain_ue",
                    .label = "Strain magnitude (strain-gauge)",
                    .unit = "µε",
                    .help = "Strain in microstrain (µm/m): 1000 µε = 0.1 %. Its sign is set by "
                            "strain_direction. GF·ε must stay below 0.5.",
                    .min = 1,
                    .max = 50000,
                    .step = 1,
                    .default_value = 1000,
                    .required = false}),
      choice_input({.key = "strain_direction",
                    .label = "Strain direction (strain-gauge)",
                    .help = "tension lengthens the active gauge (R2 rises), compression "
                            "shortens it (R2 falls).",
                    .options = {"tension", "compression"},
                    .default_value = "tension",
                    .required = false}),
      choice_input({.key = "bridge_type",
                    .label = "Bridge type (strain-gauge)",
                    .help = "quarter: one active gauge (R2). half: two active gauges with "
                            "opposite strain in adjacent arms (R1, R2), as in bending. full: four "
                            "active gauges, R2 and R3 with the strain, R1 and R4 against it.",
                    .options = {"quarter", "half", "full"},
                    .default_value = "quarter",
                    .required = false}),
  };
  t.outputs = {
      number_output({.key = "output_mv",
                     .label = "Output voltage V(left) − V(right)",
                     .unit = "mV",
                     .precision = 4,
                     .small_values_in = "output_uv"}),
      number_output({.key = "output_uv",
                     .label = "Output voltage, in µV (0 when under 0.01 µV: balanced)",
                     .unit = "µV",
                     .precision = 4}),
      number_output({.key = "output_mv_per_v",
                     .label = "Output per volt of excitation",
                     .unit = "mV/V",
                     .precision = 6,
                     .small_values_in = "output_uv"}),
      number_output({.key = "r4_balance_ohm",
                     .label = "R4 that balances the bridge (R2·R3/R1)",
                     .unit = "Ω",
                     .precision = 3,
                     .small_values_in = "r4_balance_uohm"}),
      number_output({.key = "r4_balance_uohm",
                     .label = "R4 that balances the bridge, in µΩ",
                     .unit = "µΩ",
                     .precision = 3}),
      number_output({.key = "bridge_resistance_ohm",
                     .label = "Resistance the bridge presents to the excitation",
                     .unit = "Ω",
                     .precision = 3}),
      number_output({.key = "excitation_current_ma",
                     .label = "Excitation current",
                     .unit = "mA",
                     .precision = 4,
                     .small_values_in = "excitation_current_ua"}),
      number_output({.key = "excitation_current_ua",
                     .label = "Excitation current, in µA",
                     .unit = "µA",
                     .precision = 4}),
  };
  t.references = {
      "D. Eberlein, \"Applying the Wheatstone Bridge Circuit\", Hottinger Baldwin Messtechnik "
      "(HBM), 2008 (studylib.net/doc/18398035): the gauge law ΔR/R = k·ε, the bridge as two "
      "potential dividers U1 = U0·R1/(R1 + R2), and Ua = 0 at balance",
      "National Instruments, NI-DAQmx help, \"Quarter-Bridge Type I\" strain configuration "
      "(ni.com/documentation/en/ni-daqmx/19.1/measfunds/quarter1/): one active gauge, "
      "sensitivity about 0.5 mV/V at 1000 µε",
      "Everything Science / FHSST, \"Physical Science Grade 11\", ch. 19 Electric circuits, "
      "§19.5 Wheatstone bridge: at balance the voltmeter reads 0 V and Rx : R3 = R2 : R1",
  };
  t.examples = {
      {.title = "Balancing a bridge: R1 = 4 Ω, R2 = 8 Ω, R3 = 6 Ω",
       .request_json = R"({"mode":"resistors","excitation_v":10,"r1_ohm":4,"r2_ohm":8,)"
                       R"("r3_ohm":6,"r4_ohm":12})",
       .expected_json = R"({"r4_balance_ohm":12,"output_mv":0})",
       .tolerance_pct = 0,
       .source = "Everything Science (FHSST), \"Physical Science Grade 11\", ch. 19, Example 8 "
                 "\"Wheatstone bridge\" (fliphtml5.com/otndx/otpv/"
                 "Everything_Physical_Science_Grade_11/470/): R1 = 4 Ω, R2 = 8 Ω, R3 = 6 Ω "
                 "give Rx = 12 Ω at balance"},
      {.title = "Quarter bridge, GF 2, 1000 µε",
       .request_json = R"({"mode":"strain-gauge","excitation_v":1,"gauge_resistance_ohm":350,)"
                       R"("gauge_factor":2,"strain_ue":1000,"bridge_type":"quarter"})",
       .expected_json = R"({"output_mv_per_v":0.5})",
       .tolerance_pct = 0.2,
       .source = "National Instruments, NI-DAQmx help, \"Quarter-Bridge Type I\" "
                 "(ni.com/documentation/en/ni-daqmx/19.1/measfunds/quarter1/): sensitivity at "
                 "1000 µε is ~0.5 mV/V (our 0.4995 includes the quarter bridge's 0.1 % "
                 "nonlinearity)"},
      {.title = "Full bridge on a pressure diaphragm: GF 2.1, 10 µε, 10 V",
       .request_json = R"({"mode":"strain-gauge","excitation_v":10,"gauge_resistance_ohm":120,)"
                       R"("gauge_factor":2.1,"strain_ue":10,"bridge_type":"full"})",
       .expected_json = R"({"output_mv":0.21})",
       .tolerance_pct = 0.1,
       .source = "Textbook exercise (diaphragm pressure gauge, \"Fig. 3.23 b\"), as "
                 "posted at tutorbin.com/questions-and-answers/"
                 "3-a-diaphragm-pressure-gauge-employs-four-strain-gauges-to-monitor-the: four "
                 "active 120 Ω gauges, GF 2.1, ±1.0e-5 strain, 10 V supply; \"answer is "
                 "0.21 mV\""},
  };
  return t;
}

std::string strain_message(double relative) {
  std::string msg = "gauge_factor × strain = ";
  append_fixed(msg, relative, 3);
  msg +=
      " is a resistance change of half the gauge's resistance or more, beyond the linear gauge "
      "law ΔR/R = GF·ε; lower strain_ue or gauge_factor";
  return msg;
}

ComputeResult compute(const Inputs& in) {
  const double v = in.number("excitation_v");
  double r1 = in.number("r1_ohm"), r2 = in.number("r2_ohm");
  double r3 = in.number("r3_ohm"), r4 = in.number("r4_ohm");
  if (in.enumeration("mode") == "strain-gauge") {
    const double rg = in.number("gauge_resistance_ohm");
    const double sign = in.enumeration("strain_direction") == "tension" ? 1 : -1;
    const double x = in.number("gauge_factor") * in.number("strain_ue") * 1e-6;
    if (x >= kMaxRelativeChange) return ToolError{"strain_ue", strain_message(x)};
    const double dx = sign * x;
    const std::string& type = in.enumeration("bridge_type");
    r1 = r2 = r3 = r4 = rg;
    r2 = rg * (1 + dx);
    if (type == "half" || type == "full") r1 = rg * (1 - dx);
    if (type == "full") {
      r3 = rg * (1 + dx);
      r4 = rg * (1 - dx);
    }
  }
  // V(left) − V(right) = V·(R2/(R1+R2) − R4/(R3+R4)), written over a common denominator so
  // that a balanced bridge (R1·R4 = R2·R3) gives exactly 0.
  double ratio = (r2 * r3 - r1 * r4) / ((r1 + r2) * (r3 + r4));
  if (std::abs(v * ratio) < kBalanceResolutionV) ratio = 0;
  const double out_v = v * ratio;
  const double r4_balance = r2 * r3 / r1;
  const double load = (r1 + r2) * (r3 + r4) / (r1 + r2 + r3 + r4);
  const double current_a = v / load;
  Outputs out;
  out.set("output_mv", out_v * 1e3)
      .set("output_uv", out_v * 1e6)
      .set("output_mv_per_v", ratio * 1e3)
      .set("r4_balance_ohm", r4_balance)
      .set("r4_balance_uohm", r4_balance * 1e6)
      .set("bridge_resistance_ohm", load)
      .set("excitation_current_ma", current_a * 1e3)
      .set("excitation_current_ua", current_a * 1e6);
  return out;
}

}  // namespace

Tool make_wheatstone_bridge() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
