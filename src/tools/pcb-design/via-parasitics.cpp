// Via inductance and capacitance by Howard Johnson's rules of thumb, with the via's
// impedance and the 10–90 % rise-time degradation each causes on a matched line.
// Formula, bounds and sources: docs/tools/via-parasitics.md.
#include <cmath>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/pcb-design/pcb_units.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;
using pcb::kMmPerInch;

// Johnson & Graham §7.2: L = 5.08·h·[ln(4h/d) + 1] nH and C = 1.41·εr·T·D1/(D2 − D1) pF,
// lengths in inches. 5.08 nH/in is µ0/2π.
constexpr double kInductanceNhPerInch = 5.08;
constexpr double kCapacitancePfPerInch = 1.41;
// A single-pole response has a 10–90 % rise time of 2.2 time constants.
constexpr double kRiseTimePerTau = 2.2;
constexpr double kMinAntipadGapMm = 0.05;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "via-parasitics";
  t.domain = "pcb-design";
  t.version = "1.0.0";
  t.name = "Via Inductance and Capacitance";
  t.description =
      "Parasitic inductance and capacitance of a plated via by Howard Johnson's rules of "
      "thumb (L = 5.08·h·[ln(4h/d) + 1] nH, C = 1.41·εr·T·D1/(D2 − D1) pF, inches), the via's "
      "impedance √(L/C), and the 10–90 % rise-time degradation each causes on a matched line "
      "(2.2·C·Z0/2 and 2.2·L/(2·Z0)). Estimates for deciding whether a via matters.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "via_length_mm",
                    .label = "Via length (h, T)",
                    .unit = "mm",
                    .help = "Length of the via barrel, usually the board thickness (1.6 mm for a "
                            "standard board). At least the barrel diameter.",
                    .min = 0.1,
                    .max = 10,
                    .step = 0.01,
                    .default_value = 1.6}),
      number_input({.key = "barrel_diameter_mm",
                    .label = "Barrel diameter (d)",
                    .unit = "mm",
                    .help = "Outside diameter of the plated barrel (about the drill diameter).",
                    .min = 0.05,
                    .max = 2,
                    .step = 0.01,
                    .default_value = 0.3}),
      number_input({.key = "pad_diameter_mm",
                    .label = "Pad diameter (D1)",
                    .unit = "mm",
                    .help = "Diameter of the via's pads; at least the barrel diameter.",
                    .min = 0.1,
                    .max = 3,
                    .step = 0.01,
                    .default_value = 0.6}),
      number_input({.key = "antipad_diameter_mm",
                    .label = "Antipad diameter (D2)",
                    .unit = "mm",
                    .help = "Diameter of the clearance hole in the planes the via passes; at "
                            "least 0.05 mm more than the pad diameter.",
                    .min = 0.2,
                    .max = 5,
                    .step = 0.01,
                    .default_value = 1.0}),
      number_input({.key = "dielectric_constant",
                    .label = "Relative permittivity εr",
                    .unit = "",
                    .help = "Dk of the board material, e.g. about 4.2–4.7 for FR-4.",
                    .min = 1,
                    .max = 15,
                    .step = 0.01,
                    .default_value = 4.4}),
      number_input({.key = "line_impedance_ohm",
                    .label = "Line impedance Z0",
                    .unit = "Ω",
                    .help = "Characteristic impedance of the line the via sits in (50 Ω for most "
                            "single-ended nets).",
                    .min = 10,
                    .max = 200,
                    .step = 1,
                    .default_value = 50}),
  };
  t.outputs = {
      number_output(
          {.key = "inductance_nh", .label = "Via inductance L", .unit = "nH", .precision = 4}),
      number_output({.key = "capacitance_pf",
                     .label = "Via capacitance C",
                     .unit = "pF",
                     .precision = 4,
                     .small_values_in = "capacitance_ff"}),
      number_output(
          {.key = "capacitance_ff", .label = "Via capacitance C", .unit = "fF", .precision = 4}),
      number_output({.key = "via_impedance_ohm",
                     .label = "Via impedance √(L/C)",
                     .unit = "Ω",
                     .precision = 3}),
      number_output({.key = "rise_time_capacitive_ps",
                     .label = "Rise-time degradation by C (2.2·C·Z0/2)",
                     .unit = "ps",
                     .precision = 3,
                     .small_values_in = "rise_time_capacitive_fs"}),
      number_output({.key = "rise_time_capacitive_fs",
                     .label = "Rise-time degradation by C (2.2·C·Z0/2)",
                     .unit = "fs",
                     .precision = 3}),
      number_output({.key = "rise_time_inductive_ps",
                     .label = "Rise-time degradation by L (2.2·L/(2·Z0))",
                     .unit = "ps",
                     .precision = 3}),
  };
  t.references = {
      "H. W. Johnson, M. Graham, \"High-Speed Digital Design: A Handbook of Black Magic\", "
      "Prentice Hall, 1993, §7.2 (via capacitance C = 1.41·εr·T·D1/(D2 − D1) pF and its "
      "10–90 % rise time 2.2·C·(Z0/2); via inductance L = 5.08·h·[ln(4h/d) + 1] nH and its "
      "rise time 2.2·L/(2·Z0); lengths in inches)",
      "Altair, \"Pollex — Via Inductance\" verification item (help.altair.com/Pollex/topics/"
      "pollex/verification/dfe_item_via_inductance_r.htm): L ≈ 2h[ln(4h/d) + 1] nH with h, d in "
      "cm and a worked example",
      "SI-LIST, P.-L. Cantin, \"parasitic value for via\", 16 Sept. 2000 (qsl.net/wb6tpu/"
      "si-list6/0232.html): Johnson's via capacitance worked for εr 4.7, T 63 mil, D1 28 mil, "
      "D2 50 mil",
  };
  t.examples = {
      {.title = "Power via through a 1.57 mm board, 0.41 mm diameter",
       .request_json = R"({"via_length_mm":1.57,"barrel_diameter_mm":0.41,"pad_diameter_mm":0.71,)"
                       R"("antipad_diameter_mm":1.27,"dielectric_constant":4.7,)"
                       R"("line_impedance_ohm":50})",
       .expected_json = R"({"inductance_nh":1.2})",
       .tolerance_pct = 4.5,
       .source = "Altair Pollex, \"Via Inductance\" (help.altair.com/Pollex/topics/pollex/"
                 "verification/dfe_item_via_inductance_r.htm): a 0.157 cm board and a 0.041 cm "
                 "via give L = 2(0.157){ln(4(0.157)/0.041) + 1} = 1.2 nH (2 significant digits)"},
      {.title = "Johnson's via capacitance: εr 4.7, T 63 mil, pad 28 mil, antipad 50 mil",
       .request_json = R"({"via_length_mm":1.6002,"barrel_diameter_mm":0.4,)"
                       R"("pad_diameter_mm":0.7112,"antipad_diameter_mm":1.27,)"
                       R"("dielectric_constant":4.7,"line_impedance_ohm":50})",
       .expected_json = R"({"capacitance_pf":0.53})",
       .tolerance_pct = 1,
       .source = "SI-LIST post by P.-L. Cantin, 16 Sept. 2000 (qsl.net/wb6tpu/si-list6/0232.html), "
                 "working Johnson's formula: Cvia = 1.41·4.7·0.063·0.028/(0.050 − 0.028) = "
                 "0.53 pF"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double h_mm = in.number("via_length_mm");
  const double d_mm = in.number("barrel_diameter_mm");
  const double pad_mm = in.number("pad_diameter_mm");
  const double antipad_mm = in.number("antipad_diameter_mm");
  const double er = in.number("dielectric_constant");
  const double z0 = in.number("line_impedance_ohm");
  if (d_mm > h_mm) {
    std::string msg = "barrel_diameter_mm of ";
    append_shortest(msg, d_mm);
    msg +=
        " mm exceeds via_length_mm; the inductance formula is for a via longer than it is "
        "wide (h ≥ d)";
    return ToolError{"barrel_diameter_mm", std::move(msg)};
  }
  if (pad_mm < d_mm) {
    std::string msg = "pad_diameter_mm of ";
    append_shortest(msg, pad_mm);
    msg += " mm is smaller than barrel_diameter_mm; a pad is at least as wide as its barrel";
    return ToolError{"pad_diameter_mm", std::move(msg)};
  }
  if (antipad_mm < pad_mm + kMinAntipadGapMm) {
    std::string msg = "antipad_diameter_mm of ";
    append_shortest(msg, antipad_mm);
    msg += " mm must exceed pad_diameter_mm by at least 0.05 mm; enlarge the antipad";
    return ToolError{"antipad_diameter_mm", std::move(msg)};
  }
  const double h_in = h_mm / kMmPerInch;
  const double l_nh = kInductanceNhPerInch * h_in * (std::log(4 * h_mm / d_mm) + 1);
  const double c_pf = kCapacitancePfPerInch * er * h_in * pad_mm / (antipad_mm - pad_mm);
  const double rise_c_ps = kRiseTimePerTau * c_pf * z0 / 2;           // pF·Ω = ps
  const double rise_l_ps = kRiseTimePerTau * l_nh * 1000 / (2 * z0);  // nH/Ω = ns
  Outputs out;
  out.set("inductance_nh", l_nh)
      .set("capacitance_pf", c_pf)
      .set("capacitance_ff", c_pf * 1000)
      .set("via_impedance_ohm", std::sqrt(l_nh * 1e-9 / (c_pf * 1e-12)))
      .set("rise_time_capacitive_ps", rise_c_ps)
      .set("rise_time_capacitive_fs", rise_c_ps * 1000)
      .set("rise_time_inductive_ps", rise_l_ps);
  return out;
}

}  // namespace

Tool make_via_parasitics() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
