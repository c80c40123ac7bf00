// Symmetric resistive π and T attenuator pads matched to an impedance Z0: the series and shunt
// resistors for an attenuation, the nearest IEC 60063 values and the attenuation and input
// impedance those give. Formula, references and verification vectors:
// docs/tools/attenuator-pad.md.
#include <cmath>
#include <numbers>

#include "catalog/descriptor_builder.hpp"
#include "tools/common/e_series.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

double parallel(double a, double b) {
  return a * b / (a + b);
}

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "attenuator-pad";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Attenuator Pad (π / T)";
  t.description =
      "Symmetric resistive π or T attenuator matched to an impedance Z0: the series and shunt "
      "resistors for an attenuation in dB, the nearest IEC 60063 E12/E24/E96 values, and the "
      "attenuation and input impedance the pad has when built with them.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "attenuation_db",
                    .label = "Attenuation",
                    .unit = "dB",
                    .help = "Loss of the pad between Z0 terminations, 0.1–60 dB. Above about "
                            "20–30 dB per section, leakage around the pad limits what a single "
                            "section achieves at RF: cascade sections instead.",
                    .min = 0.1,
                    .max = 60,
                    .step = 0.1,
                    .default_value = 6}),
      number_input({.key = "impedance_ohm",
                    .label = "Impedance Z0",
                    .unit = "Ω",
                    .help = "Source and load impedance the pad is matched to: 50 Ω (RF), 75 Ω "
                            "(video, CATV), 600 Ω (audio lines).",
                    .min = 10,
                    .max = 10000,
                    .step = 1,
                    .default_value = 50}),
      choice_input({.key = "topology",
                    .label = "Topology",
                    .help = "pi: two equal shunt resistors with one series resistor between them. "
                            "tee: two equal series resistors with one shunt resistor to ground "
                            "between them.",
                    .options = {"pi", "tee"},
                    .default_value = "pi"}),
      choice_input({.key = "e_series",
                    .label = "Preferred-value series",
                    .help = "IEC 60063 series to round the resistors to: E12 (10 % parts), E24 "
                            "(5 %) or E96 (1 %); each resistor takes the value nearest on a "
                            "logarithmic scale (the smaller ratio, as the series are spaced).",
                    .options = {"E12", "E24", "E96"},
                    .default_value = "E96",
                    .required = false}),
  };
  t.outputs = {
      number_output({.key = "voltage_ratio",
                     .label = "Voltage ratio K = 10^(dB/20)",
                     .unit = "",
                     .precision = 4}),
      number_output({.key = "series_ohm",
                     .label = "Series resistor (π: the one; T: each of two)",
                     .unit = "Ω",
                     .precision = 4}),
      number_output({.key = "shunt_ohm",
                     .label = "Shunt resistor (π: each of two; T: the one)",
                     .unit = "Ω",
                     .precision = 4}),
      number_output({.key = "series_e_ohm",
                     .label = "Nearest preferred series resistor (log scale)",
                     .unit = "Ω",
                     .precision = 4}),
      number_output({.key = "shunt_e_ohm",
                     .label = "Nearest preferred shunt resistor (log scale)",
                     .unit = "Ω",
                     .precision = 4}),
      number_output({.key = "e_attenuation_db",
                     .label = "Attenuation with the preferred values",
                     .unit = "dB",
                     .precision = 4}),
      number_output({.key = "e_input_impedance_ohm",
                     .label = "Input impedance with the preferred values (Z0 load)",
                     .unit = "Ω",
                     .precision = 3}),
  };
  t.references = {
      "\"Attenuators\": T-section and Π-section attenuator, in vias.org \"Fundamentals of "
      "Electrical Engineering and Electronics\" (vias.org/feee/amplif_r2_07_03.html and "
      "amplif_r2_07_04.html, from T. R. Kuphaldt's \"Lessons In Electric Circuits\"): resistor "
      "formulas in the voltage ratio K for Z_I = Z_O, and tables for 50 Ω",
      "Microwaves101, \"Attenuator calculator\" (microwaves101.com/encyclopedia/"
      "calcattenuator.cfm): tee R1 = Z0(K−1)/(K+1), R2 = 2·Z0·K/(K²−1); pi R1 = "
      "Z0(K+1)/(K−1), R2 = (Z0/2)(K²−1)/K, K = 10^(dB/20)",
      "KiCad pcb_calculator, attenuators/pi_formula.md (π pad: L = K², R2 = "
      "(L−1)/2·√(Zin·Zout/L), R1 = 1/(A/Zin − 1/R2), A = (L+1)/(L−1)), which reduce to the "
      "above for Zin = Zout",
      "IEC 60063:2015, \"Preferred number series for resistors and capacitors\" (E12, E24 and "
      "E96 values)",
  };
  t.examples = {
      {.title = "1 dB T pad, 50 Ω",
       .request_json = R"({"attenuation_db":1,"impedance_ohm":50,"topology":"tee"})",
       .expected_json = R"({"series_ohm":2.88,"shunt_ohm":433.34})",
       .tolerance_pct = 0.2,
       .source = "Microwaves101, \"Attenuator calculator\" "
                 "(microwaves101.com/encyclopedia/calcattenuator.cfm), Tee attenuator "
                 "calculator: 1 dB, Z0 = 50 Ω gives R1 = 2.88 Ω, R2 = 433.34 Ω"},
      {.title = "1 dB π pad, 50 Ω",
       .request_json = R"({"attenuation_db":1,"impedance_ohm":50,"topology":"pi"})",
       .expected_json = R"({"shunt_ohm":869.55,"series_ohm":5.77})",
       .tolerance_pct = 0.1,
       .source = "Microwaves101, \"Attenuator calculator\" "
                 "(microwaves101.com/encyclopedia/calcattenuator.cfm), Pi attenuator "
                 "calculator: 1 dB, Z0 = 50 Ω gives R1 = 869.55 Ω, R2 = 5.77 Ω"},
      {.title = "3 dB π pad, 50 Ω",
       .request_json = R"({"attenuation_db":3,"impedance_ohm":50,"topology":"pi"})",
       .expected_json = R"({"shunt_ohm":292,"series_ohm":17.6})",
       .tolerance_pct = 0.3,
       .source = "Electronics Notes, \"RF Attenuator Resistor Values Table\" "
                 "(electronics-notes.com/articles/radio/rf-attenuators/"
                 "pi-t-bridged-resistor-values-table-calculator.php), 50 Ω table, 3 dB row: "
                 "π R3 = 292 Ω, R4 = 17.6 Ω"},
      {.title = "3 dB T pad, 50 Ω",
       .request_json = R"({"attenuation_db":3,"impedance_ohm":50,"topology":"tee"})",
       .expected_json = R"({"series_ohm":8.5,"shunt_ohm":142})",
       .tolerance_pct = 0.6,
       .source = "Electronics Notes, \"RF Attenuator Resistor Values Table\" "
                 "(electronics-notes.com/articles/radio/rf-attenuators/"
                 "pi-t-bridged-resistor-values-table-calculator.php), 50 Ω table, 3 dB row: "
                 "T R1 = 8.5 Ω, R2 = 142 Ω"},
      {.title = "10 dB T pad, 50 Ω",
       .request_json = R"({"attenuation_db":10,"impedance_ohm":50,"topology":"tee"})",
       .expected_json = R"({"series_ohm":25.97,"shunt_ohm":35.14})",
       .tolerance_pct = 0.05,
       .source = "T. R. Kuphaldt, \"Lessons In Electric Circuits\", vol. II, \"T-section "
                 "attenuator\" (mirror: vias.org/feee/amplif_r2_07_03.html): the 10 dB, 50 Ω "
                 "T pad has R1 = 25.97 Ω and R2 = 35.14 Ω, checked there as 25.97 + 35.14 ∥ "
                 "75.97 = 50 Ω"},
  };
  return t;
}

// The insertion loss (dB) and input impedance of a symmetric pad built with `series` and
// `shunt` between a source and a load of impedance z0: the load voltage with the pad against
// the load voltage without it (half the source EMF).
struct Built {
  double loss_db;
  double input_ohm;
};

Built built_pad(bool pi, double series, double shunt, double z0) {
  double zin = 0, gain = 0;  // gain: Vout / Vin at the pad's input
  if (pi) {
    const double load = parallel(shunt, z0);
    const double through = series + load;
    zin = parallel(shunt, through);
    gain = load / through;
  } else {
    const double arm = series + z0;
    const double middle = parallel(shunt, arm);
    zin = series + middle;
    gain = (middle / zin) * (z0 / arm);
  }
  const double vin_over_emf = zin / (z0 + zin);
  return {-20 * std::log10(2 * vin_over_emf * gain), zin};
}

ComputeResult compute(const Inputs& in) {
  const double db = in.number("attenuation_db");
  const double z0 = in.number("impedance_ohm");
  const bool pi = in.enumeration("topology") == "pi";
  // K − 1 through expm1 keeps small attenuations exact.
  const double k_minus_1 = std::expm1(db / 20 * std::numbers::ln10);
  const double k = 1 + k_minus_1;
  const double k2_minus_1 = k_minus_1 * (k + 1);
  double series = 0, shunt = 0;
  if (pi) {
    shunt = z0 * (k + 1) / k_minus_1;
    series = z0 * k2_minus_1 / (2 * k);
  } else {
    series = z0 * k_minus_1 / (k + 1);
    shunt = 2 * z0 * k / k2_minus_1;
  }
  const auto values = e_series::series(in.enumeration("e_series"));
  const double series_e = e_series::nearest(series, values);
  const double shunt_e = e_series::nearest(shunt, values);
  const Built b = built_pad(pi, series_e, shunt_e, z0);
  Outputs out;
  out.set("voltage_ratio", k)
      .set("series_ohm", series)
      .set("shunt_ohm", shunt)
      .set("series_e_ohm", series_e)
      .set("shunt_e_ohm", shunt_e)
      .set("e_attenuation_db", b.loss_db)
      .set("e_input_impedance_ohm", b.input_ohm);
  return out;
}

}  // namespace

Tool make_attenuator_pad() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
