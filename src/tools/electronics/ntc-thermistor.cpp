// NTC thermistor: resistance at a temperature and temperature at a resistance, with the
// B-parameter equation or the (extended) Steinhart–Hart equation, and the temperature
// coefficient. Formula, references and verification vectors: docs/tools/ntc-thermistor.md.
#include <cmath>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

constexpr double kZeroCelsiusK = 273.15;
// The temperatures the tool answers for: below −80 °C and above 300 °C no catalogue NTC
// (epoxy −55…155 °C, glass-encapsulated up to about 300 °C) is specified, and the fitted
// equations are not valid there.
constexpr double kMinTempC = -80;
constexpr double kMaxTempC = 300;
// The resistances the tool answers for: 1 mΩ to 1 TΩ, well beyond any thermistor in its
// specified range; results outside are of coefficients that do not describe an NTC there.
constexpr double kMinOhm = 1e-3;
constexpr double kMaxOhm = 1e12;

struct Model {
  bool beta;
  double r0, t0_k, b;    // B-parameter: R0 at T0, B
  double a, b1, c2, d3;  // Steinhart–Hart: 1/T = a + b1·x + c2·x² + d3·x³, x = ln(R/R0)
  double inverse_t(double x) const {  // 1/T at x = ln(R/R0)
    return beta ? 1 / t0_k + x / b : a + x * (b1 + x * (c2 + x * d3));
  }
  double slope(double x) const {  // d(1/T)/dx
    return beta ? 1 / b : b1 + x * (2 * c2 + 3 * d3 * x);
  }
};

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "ntc-thermistor";
  t.domain = "electronics";
  t.version = "1.0.1";
  t.name = "NTC Thermistor";
  t.description =
      "NTC thermistor resistance at a temperature and temperature at a resistance, from the "
      "B-parameter equation (R25 and B) or the Steinhart–Hart equation (coefficients from a "
      "datasheet), with the temperature coefficient at the temperature.";
  t.standard = std::nullopt;
  t.inputs = {
      choice_input({.key = "model",
                    .label = "Equation",
                    .help = "beta: R = R0·exp(B·(1/T − 1/T0)), accurate near the B value's "
                            "temperature pair. steinhart-hart: 1/T = A + B·ln(R/R0) + "
                            "C·ln²(R/R0) + D·ln³(R/R0) with the datasheet's coefficients.",
                    .options = {"beta", "steinhart-hart"},
                    .default_value = "beta"}),
      number_input({.key = "r0_ohm",
                    .label = "Reference resistance R0",
                    .unit = "Ω",
                    .help = "Beta: the nominal resistance at T0 (R25). Steinhart–Hart: the "
                            "resistance the logarithm is taken against — R25 for coefficients "
                            "in ln(R/R25), 1 for the classic form in ln(R/1 Ω).",
                    .min = 1,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 10000}),
      number_input({.key = "t0_c",
                    .label = "Reference temperature T0 (beta)",
                    .unit = "°C",
                    .help = "Temperature at which R0 is specified, normally 25 °C.",
                    .min = -80,
                    .max = 300,
                    .step = 0.1,
                    .default_value = 25,
                    .required = false}),
      number_input({.key = "beta_k",
                    .label = "B value (beta)",
                    .unit = "K",
                    .help = "B constant from the datasheet, e.g. B25/85 = 3977 K; use the one "
                            "whose temperature pair brackets the range of interest.",
                    .min = 500,
                    .max = 10000,
                    .step = 1,
                    .default_value = 3977,
                    .required = false}),
      number_input({.key = "sh_a",
                    .label = "Steinhart–Hart A",
                    .unit = "1/K",
                    .help = "Constant term; about 3.354e-3 for coefficients in ln(R/R25), "
                            "about 1.1e-3 for the classic form in ln(R/1 Ω).",
                    .min = 1e-4,
                    .max = 1e-2,
                    .step = 1e-9,
                    .default_value = 3.3539438e-3,
                    .required = false}),
      number_input({.key = "sh_b",
                    .label = "Steinhart–Hart B (ln term)",
                    .unit = "1/K",
                    .help = "Coefficient of ln(R/R0), about 1/B: 2.3e-4 to 2.6e-4 for common "
                            "10 kΩ parts.",
                    .min = 1e-5,
                    .max = 2e-3,
                    .step = 1e-10,
                    .default_value = 2.5646095e-4,
                    .required = false}),
      number_input({.key = "sh_c",
                    .label = "Steinhart–Hart C (ln² term)",
                    .unit = "1/K",
                    .help = "Coefficient of ln²(R/R0); 0 for the classic three-term equation.",
                    .min = -1e-5,
                    .max = 1e-5,
                    .step = 1e-11,
                    .default_value = 2.5158166e-6,
                    .required = false}),
      number_input({.key = "sh_d",
                    .label = "Steinhart–Hart D (ln³ term)",
                    .unit = "1/K",
                    .help = "Coefficient of ln³(R/R0): the classic equation's C, about 1e-7.",
                    .min = -1e-6,
                    .max = 1e-6,
                    .step = 1e-12,
                    .default_value = 1.0503069e-7,
                    .required = false}),
      number_input({.key = "temperature_c",
                    .label = "Temperature (for the resistance)",
                    .unit = "°C",
                    .help = "Temperature at which to report the resistance and the temperature "
                            "coefficient, −80 to 300 °C.",
                    .min = -80,
                    .max = 300,
                    .step = 0.1,
                    .default_value = 25}),
      number_input({.key = "resistance_ohm",
                    .label = "Resistance (for the temperature)",
                    .unit = "Ω",
                    .help = "Measured resistance at which to report the temperature.",
                    .min = 0.001,
                    .max = 1e12,
                    .step = 1,
                    .default_value = 10000}),
  };
  t.outputs = {
      number_output({.key = "r_at_t_ohm",
                     .label = "Resistance at the temperature",
                     .unit = "Ω",
                     .precision = 2,
                     .small_values_in = "r_at_t_mohm"}),
      number_output({.key = "r_at_t_mohm",
                     .label = "Resistance at the temperature, in mΩ",
                     .unit = "mΩ",
                     .precision = 3}),
      number_output({.key = "alpha_pct_per_k",
                     .label = "Temperature coefficient at the temperature",
                     .unit = "%/K",
                     .precision = 4}),
      number_output({.key = "t_at_r_c",
                     .label = "Temperature at the resistance",
                     .unit = "°C",
                     .precision = 2,
                     .small_values_in = "t_at_r_k"}),
      number_output({.key = "t_at_r_k",
                     .label = "Temperature at the resistance, in kelvin",
                     .unit = "K",
                     .precision = 2}),
  };
  t.references = {
      "J. S. Steinhart, S. R. Hart, \"Calibration curves for thermistors\", Deep-Sea Research "
      "and Oceanographic Abstracts 15(4), 1968, pp. 497–503: 1/T = A + B·ln R + C·(ln R)³",
      "Amphenol Advanced Sensors (Thermometrics), \"Sensor Temperature Resistance Curves "
      "Reference Guide\", Rev. C, November 2014, Material Type 1: R_T/R25 table, B values "
      "for temperature pairs, and 1/T = a + b·ln(R_T/R25) + c·ln² + d·ln³ with a = "
      "3.3539438e-3, b = 2.5646095e-4, c = 2.5158166e-6, d = 1.0503069e-7",
      "EPCOS (TDK), \"NTC thermistors for temperature measurement, Miniature sensors with "
      "bendable wires, Series B57861S\", March 2006, R/T characteristic 8016 (B25/100 = "
      "3988 K): R_T/R25 from −55 to 155 °C",
  };
  t.examples = {
      {.title = "B25/85 = 3977 K, 10 kΩ, at 85 °C",
       .request_json = R"({"model":"beta","r0_ohm":10000,"t0_c":25,"beta_k":3977,)"
                       R"("temperature_c":85,"resistance_ohm":1070})",
       .expected_json = R"({"r_at_t_ohm":1070,"t_at_r_c":85})",
       .tolerance_pct = 0.05,
       .source = "Amphenol Thermometrics, \"Sensor Temperature Resistance Curves Reference "
                 "Guide\", Rev. C, Nov. 2014 (dtsheet.com/doc/1784717), Material Type 1: beta "
                 "25 to 85 °C = 3977, R_T/R25 at 85 °C = 0.1070"},
      {.title = "B25/100 = 3992 K, 10 kΩ, at 100 °C",
       .request_json = R"({"model":"beta","r0_ohm":10000,"t0_c":25,"beta_k":3992,)"
                       R"("temperature_c":100,"resistance_ohm":678.1})",
       .expected_json = R"({"r_at_t_ohm":678.1,"t_at_r_c":100})",
       .tolerance_pct = 0.05,
       .source = "Amphenol Thermometrics, Reference Guide (as above), Material Type 1: beta "
                 "25 to 100 °C = 3992, R_T/R25 at 100 °C = 0.06781"},
      {.title = "EPCOS R/T 8016 (B25/100 = 3988 K), 10 kΩ, at 100 °C",
       .request_json = R"({"model":"beta","r0_ohm":10000,"t0_c":25,"beta_k":3988,)"
                       R"("temperature_c":100,"resistance_ohm":680})",
       .expected_json = R"({"r_at_t_ohm":680})",
       .tolerance_pct = 0.1,
       .source = "EPCOS, B57861S datasheet, March 2006, page 6 (ru.elcodis.com/parts/2277241/"
                 "B57861S_104F_40_p6.html): R/T characteristic 8016, B25/100 = 3988 K, "
                 "R_T/R25 at 100 °C = 0.068"},
      {.title = "Steinhart–Hart, Amphenol Material Type 1, at 0 °C and 100 °C",
       .request_json = R"({"model":"steinhart-hart","r0_ohm":10000,"sh_a":0.0033539438,)"
                       R"("sh_b":0.00025646095,"sh_c":0.0000025158166,"sh_d":0.00000010503069,)"
                       R"("temperature_c":0,"resistance_ohm":678.1})",
       .expected_json = R"({"r_at_t_ohm":32640,"t_at_r_c":100})",
       .tolerance_pct = 0.05,
       .source = "Amphenol Thermometrics, Reference Guide (as above), Material Type 1: "
                 "coefficients a, b, c, d of 1/T = a + b·ln(R_T/R25) + c·ln² + d·ln³ and the "
                 "table's R_T/R25 = 3.264 at 0 °C and 0.06781 at 100 °C"},
      {.title = "Steinhart–Hart temperature coefficient at 25 °C",
       .request_json = R"({"model":"steinhart-hart","r0_ohm":10000,"sh_a":0.0033539438,)"
                       R"("sh_b":0.00025646095,"sh_c":0.0000025158166,"sh_d":0.00000010503069,)"
                       R"("temperature_c":25,"resistance_ohm":10000})",
       .expected_json = R"({"alpha_pct_per_k":-4.39,"t_at_r_c":25})",
       .tolerance_pct = 0.1,
       .source = "Amphenol Thermometrics, Reference Guide (as above), Material Type 1: "
                 "temperature coefficient −4.39 %/°C at 25 °C, R_T/R25 = 1.0000 at 25 °C"},
  };
  return t;
}

std::string temperature_message(double t_c) {
  std::string msg = "that resistance gives ";
  append_fixed(msg, t_c, 1);
  msg +=
      " °C, outside −80…300 °C, where no NTC is specified; check resistance_ohm, r0_ohm and "
      "the coefficients";
  return msg;
}

std::string resistance_message(double r) {
  std::string msg = "the equation gives ";
  append_shortest(msg, r);
  msg +=
      " Ω at that temperature, outside 1 mΩ…1 TΩ, so these parameters do not describe a "
      "thermistor there; check temperature_c, r0_ohm and the coefficients";
  return msg;
}

// Whether 1/T rises with ln R over the whole window [lo, hi]: the slope b1 + 2c2·x + 3d3·x²
// is a parabola, least at an end of the window or at its vertex −c2/(3d3) when d3 > 0.
bool rises_throughout(const Model& m, double lo, double hi) {
  double least = std::min(m.slope(lo), m.slope(hi));
  if (m.d3 > 0) {
    const double vertex = -m.c2 / (3 * m.d3);
    if (vertex > lo && vertex < hi) least = std::min(least, m.slope(vertex));
  }
  return least > 0;
}

constexpr const char* kFallingCurve =
    "the Steinhart–Hart coefficients make 1/T fall as R rises between 1 mΩ and 1 TΩ, which "
    "no NTC does; check the signs and sizes of sh_b, sh_c and sh_d";

// x = ln(R/R0) at which the Steinhart–Hart polynomial equals 1/T, by bisection over the
// resistance window; NaN when 1/T is not reached inside it.
double solve_x(const Model& m, double inverse_t) {
  double lo = std::log(kMinOhm / m.r0), hi = std::log(kMaxOhm / m.r0);
  const double f_lo = m.inverse_t(lo) - inverse_t, f_hi = m.inverse_t(hi) - inverse_t;
  // An NTC's 1/T rises with ln R: below the window's bottom 1/T is too small, above it too large.
  if (!(f_lo <= 0 && f_hi >= 0)) return NAN;
  for (int i = 0; i < 200 && hi - lo > 1e-13; ++i) {
    const double mid = (lo + hi) / 2;
    (m.inverse_t(mid) - inverse_t < 0 ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

ComputeResult compute(const Inputs& in) {
  Model m{};
  m.beta = in.enumeration("model") == "beta";
  m.r0 = in.number("r0_ohm");
  m.t0_k = in.number("t0_c") + kZeroCelsiusK;
  m.b = in.number("beta_k");
  m.a = in.number("sh_a");
  m.b1 = in.number("sh_b");
  m.c2 = in.number("sh_c");
  m.d3 = in.number("sh_d");

  // Resistance and temperature coefficient at temperature_c.
  const double t_k = in.number("temperature_c") + kZeroCelsiusK;
  double x = 0;
  if (m.beta) {
    x = m.b * (1 / t_k - 1 / m.t0_k);
  } else {
    x = solve_x(m, 1 / t_k);
    if (std::isnan(x)) {
      const double lo = std::log(kMinOhm / m.r0), hi = std::log(kMaxOhm / m.r0);
      // The curve turns back somewhere in the window: the coefficients, not the
      // temperature, are what no NTC has.
      if (!rises_throughout(m, lo, hi)) return ToolError{"sh_b", kFallingCurve};
      const double edge = m.inverse_t(lo) > 1 / t_k ? kMinOhm : kMaxOhm;
      return ToolError{"temperature_c", resistance_message(edge)};
    }
  }
  const double r = m.r0 * std::exp(x);
  if (!(r >= kMinOhm && r <= kMaxOhm)) return ToolError{"temperature_c", resistance_message(r)};
  const double slope = m.slope(x);
  if (!(slope > 0)) return ToolError{"sh_b", kFallingCurve};
  // α = (1/R)·dR/dT = −1/(T²·d(1/T)/d lnR).
  const double alpha = -1 / (t_k * t_k * slope);

  // Temperature at resistance_ohm.
  const double inverse = m.inverse_t(std::log(in.number("resistance_ohm") / m.r0));
  const double t_at_r_k = inverse > 0 ? 1 / inverse : INFINITY;
  const double t_at_r_c = t_at_r_k - kZeroCelsiusK;
  if (!(t_at_r_c >= kMinTempC && t_at_r_c <= kMaxTempC))
    return ToolError{"resistance_ohm",
                     inverse > 0 ? temperature_message(t_at_r_c)
                                 : "that resistance gives no positive absolute temperature with "
                                   "these parameters; check resistance_ohm, r0_ohm and the "
                                   "coefficients"};
  Outputs out;
  out.set("r_at_t_ohm", r)
      .set("r_at_t_mohm", r * 1e3)
      .set("alpha_pct_per_k", 100 * alpha)
      .set("t_at_r_c", t_at_r_c)
      .set("t_at_r_k", t_at_r_k);
  return out;
}

}  // namespace

Tool make_ntc_thermistor() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
