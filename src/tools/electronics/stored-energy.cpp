// Energy stored in a capacitor (½CV², and its charge Q = CV) or an inductor (½LI²). Formula,
// bounds, references and worked examples: docs/tools/stored-energy.md.
#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "stored-energy";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Capacitor and Inductor Stored Energy";
  t.description =
      "Energy stored in a charged capacitor, E = ½·C·V², with its charge Q = C·V, or in an "
      "inductor carrying a current, E = ½·L·I².";
  t.standard = std::nullopt;
  t.inputs = {
      choice_input({.key = "component",
                    .label = "Component",
                    .help = "capacitor: uses capacitance_uf and voltage_v. inductor: uses "
                            "inductance_mh and current_a. The other pair is ignored.",
                    .options = {"capacitor", "inductor"},
                    .default_value = "capacitor"}),
      number_input({.key = "capacitance_uf",
                    .label = "Capacitance C",
                    .unit = "µF",
                    .help = "Capacitor only. In microfarads: 0.001 µF = 1 nF, 1000000 µF = 1 F "
                            "(supercapacitors up to 10 F).",
                    .min = 0.001,
                    .max = 10000000,
                    .step = 0.001,
                    .default_value = 100,
                    .required = false}),
      number_input({.key = "voltage_v",
                    .label = "Capacitor voltage V",
                    .unit = "V",
                    .help = "Capacitor only: the voltage across it (its magnitude; the energy "
                            "does not depend on polarity).",
                    .min = 0.1,
                    .max = 100000,
                    .step = 0.1,
                    .default_value = 12,
                    .required = false}),
      number_input({.key = "inductance_mh",
                    .label = "Inductance L",
                    .unit = "mH",
                    .help = "Inductor only. In millihenries: 0.001 mH = 1 µH, 1000 mH = 1 H.",
                    .min = 0.001,
                    .max = 100000,
                    .step = 0.001,
                    .default_value = 1,
                    .required = false}),
      number_input({.key = "current_a",
                    .label = "Inductor current I",
                    .unit = "A",
                    .help = "Inductor only: the current through it (its magnitude). Keep it below "
                            "the inductor's saturation current, where L falls.",
                    .min = 0.01,
                    .max = 10000,
                    .step = 0.01,
                    .default_value = 1,
                    .required = false}),
  };
  t.outputs = {
      number_output({.key = "energy_j",
                     .label = "Stored energy E",
                     .unit = "J",
                     .precision = 6,
                     .small_values_in = "energy_pj"}),
      number_output(
          {.key = "energy_pj", .label = "Stored energy E, in pJ", .unit = "pJ", .precision = 3}),
      number_output({.key = "charge_c",
                     .label = "Capacitor charge Q = C·V (0 for an inductor)",
                     .unit = "C",
                     .precision = 6,
                     .small_values_in = "charge_nc"}),
      number_output({.key = "charge_nc",
                     .label = "Capacitor charge Q, in nC (0 for an inductor)",
                     .unit = "nC",
                     .precision = 3}),
  };
  t.references = {
      "S. J. Ling, J. Sanny, W. Moebs, \"University Physics Volume 2\", OpenStax, 2016, §8.3 "
      "Energy Stored in a Capacitor (U_C = Q²/(2C) = QV/2 = CV²/2, Q = CV) and §14.3 Energy "
      "in a Magnetic Field (U = LI²/2)",
      "P. P. Urone, R. Hinrichs, \"College Physics 2e\", OpenStax, 2022, §19.7 Energy Stored "
      "in Capacitors (E_cap = QV/2 = CV²/2 = Q²/(2C)) and §23.9 Inductance (E_ind = LI²/2)",
  };
  t.examples = {
      {.title = "Defibrillator: 8.00 µF at 10.0 kV holds 400 J",
       .request_json = R"({"component":"capacitor","capacitance_uf":8,"voltage_v":10000})",
       .expected_json = R"({"energy_j":400})",
       .tolerance_pct = 0,
       .source = "OpenStax College Physics 2e, §19.7, Example 19.11 \"Capacitance in a Heart "
                 "Defibrillator\" (also University Physics Volume 2, Example 8.9): a capacitor "
                 "at 1.00 × 10⁴ V delivering 4.00 × 10² J has C = 8.00 µF"},
      {.title = "12.0 µF at 4.0 V holds 96 µJ",
       .request_json = R"({"component":"capacitor","capacitance_uf":12,"voltage_v":4})",
       .expected_json = R"({"energy_pj":96000000})",
       .tolerance_pct = 0,
       .source = "OpenStax University Physics Volume 2, §8.3, Example 8.8 \"Energy Stored in a "
                 "Capacitor\": U1 = ½(12.0 µF)(4.0 V)² = 96 µJ (and U2 = ½(2.0 µF)(8.0 V)² = "
                 "64 µJ)"},
      {.title = "0.632 mH solenoid at 30.0 A holds 0.284 J",
       .request_json = R"({"component":"inductor","inductance_mh":0.632,"current_a":30})",
       .expected_json = R"({"energy_j":0.284})",
       .tolerance_pct = 0.2,
       .source = "OpenStax College Physics 2e, §23.9, Example 23.8 \"Calculating the Energy "
                 "Stored in the Field of a Solenoid\": E = 0.5(0.632 × 10⁻³ H)(30.0 A)² = "
                 "0.284 J"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  double energy_j = 0;
  double charge_c = 0;
  if (in.enumeration("component") == "capacitor") {
    const double c_f = in.number("capacitance_uf") * 1e-6;
    const double v = in.number("voltage_v");
    energy_j = 0.5 * c_f * v * v;
    charge_c = c_f * v;
  } else {
    const double l_h = in.number("inductance_mh") * 1e-3;
    const double i = in.number("current_a");
    energy_j = 0.5 * l_h * i * i;
  }
  Outputs out;
  out.set("energy_j", energy_j)
      .set("energy_pj", energy_j * 1e12)
      .set("charge_c", charge_c)
      .set("charge_nc", charge_c * 1e9);
  return out;
}

}  // namespace

Tool make_stored_energy() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
