// MOSFET junction temperature from conduction loss (spec §2.3). Formula, references and
// worked examples: docs/tools/mosfet-thermal-junction.md.
#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Common derating rule: run the junction at no more than 80 % of its rated maximum
// (in °C) for margin against θJA spread, hot spots and ambient excursions.
constexpr double kDeratingFraction = 0.8;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "mosfet-thermal-junction";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "MOSFET Junction Temperature";
  t.description =
      "Compute transistor junction temperature from drain current, on-resistance, thermal "
      "resistance, ambient temperature and duty cycle, and flag marginal and danger conditions "
      "against the configured maximum junction temperature.";
  t.standard = std::nullopt;
  // Keys, units, bounds, steps, defaults and precisions are the API contract's (spec §2.3).
  t.inputs = {
      number_input({.key = "drain_current_a",
                    .label = "Drain current",
                    .unit = "A",
                    .help = "RMS drain current while the MOSFET is on (for PWM, the current during "
                            "the on-time).",
                    .min = 0.001,
                    .max = 1000,
                    .step = 0.1,
                    .default_value = 5}),
      number_input({.key = "rds_on_mohm",
                    .label = "On-resistance R_DS(on)",
                    .unit = "mΩ",
                    .help = "Use the hot value: R_DS(on) at your gate drive and expected junction "
                            "temperature (typically 1.5–2× the 25 °C figure at 125 °C; see the "
                            "datasheet's normalised R_DS(on) vs T_j curve).",
                    .min = 0.1,
                    .max = 10000,
                    .step = 0.1,
                    .default_value = 20}),
      number_input({.key = "theta_ja_c_per_w",
                    .label = "Thermal resistance θJA",
                    .unit = "°C/W (junction-to-ambient)",
                    .help = "Junction-to-ambient thermal resistance for your mounting (copper "
                            "area, airflow, heatsink). Datasheet θJA is measured on a JEDEC "
                            "JESD51 test board and is only a starting point.",
                    .min = 0.1,
                    .max = 500,
                    .step = 0.5,
                    .default_value = 62}),
      number_input({.key = "ambient_temp_c",
                    .label = "Ambient temperature",
                    .unit = "°C",
                    .help = "Worst-case air temperature around the device, inside the enclosure.",
                    .min = -40,
                    .max = 125,
                    .step = 1,
                    .default_value = 25}),
      number_input({.key = "duty_cycle",
                    .label = "Duty cycle",
                    .unit = "(fraction; 1 = continuously on)",
                    .help = "Fraction of time the MOSFET conducts. Switching losses are not "
                            "included; add them separately for fast PWM. Averaging holds for PWM "
                            "much faster than the package's thermal time constant (kHz); for "
                            "on/off cycles of seconds the junction peaks higher (use the "
                            "datasheet's transient thermal impedance).",
                    .min = 0.01,
                    .max = 1,
                    .step = 0.01,
                    .default_value = 1}),
      number_input({.key = "max_junction_temp_c",
                    .label = "Maximum junction temperature",
                    .unit = "°C",
                    .help = "Rated maximum T_j from the datasheet's absolute maximum ratings "
                            "(often 150 °C or 175 °C). The status is marginal above 80 % of it "
                            "(in °C) and danger at or above it.",
                    .min = 100,
                    .max = 200,
                    .step = 5,
                    .default_value = 150}),
  };
  t.outputs = {
      number_output(
          {.key = "power_dissipation_w", .label = "Conduction loss", .unit = "W", .precision = 3}),
      number_output({.key = "temp_rise_c",
                     .label = "Temperature rise above ambient",
                     .unit = "°C",
                     .precision = 1}),
      number_output({.key = "junction_temp_c",
                     .label = "Junction temperature",
                     .unit = "°C",
                     .precision = 1}),
      number_output({.key = "headroom_c",
                     .label = "Headroom to maximum junction temperature",
                     .unit = "°C",
                     .precision = 1}),
      text_output(
          {.key = "status", .label = "Thermal status", .options = {"ok", "marginal", "danger"}}),
  };
  t.references = {
      "Infineon Technologies, D. Graovac, M. Pürschel, A. Kiep, \"MOSFET Power Losses "
      "Calculation Using the Data-Sheet Parameters\", application note, 2006 (conduction loss "
      "I²·R_DS(on)(T_j))",
      "Nexperia, AN11158 \"Understanding power MOSFET data sheet parameters\" (R_DS(on) "
      "temperature dependence, thermal resistance, T_j(max))",
      "JEDEC JESD51-2A, \"Integrated Circuits Thermal Test Method Environmental Conditions – "
      "Natural Convection (Still Air)\" (how θJA is measured)",
      "JEDEC JESD51-12, \"Guidelines for Reporting and Using Electronic Package Thermal "
      "Information\" (θJA is a comparison figure, not an application prediction)",
      "Texas Instruments, SPRA953 \"Semiconductor and IC Package Thermal Metrics\" "
      "(T_j = T_a + θJA·P)",
  };
  t.examples = {
      {.title = "OR-ing MOSFET: 10 A through 10 mΩ, θJA 65 °C/W, 35 °C ambient",
       .request_json =
           R"({"drain_current_a":10,"rds_on_mohm":10,"theta_ja_c_per_w":65,"ambient_temp_c":35,)"
           R"("duty_cycle":1,"max_junction_temp_c":150})",
       .expected_json = R"({"power_dissipation_w":1,"temp_rise_c":65,"junction_temp_c":100})",
       .tolerance_pct = 0,
       .source = "Texas Instruments, LM5050-1 datasheet (SNVS629), Application Information, "
                 "MOSFET Selection: with TA(MAX) = 35 °C, 10 A and RDS(ON) = 10 mΩ, keeping TJ "
                 "under 100 °C needs θJA ≤ (100 °C − 35 °C)/(10 A × 10 A × 0.01 Ω) = 65 °C/W "
                 "(read at pdf.ic37.com/TI/LM5050-1_datasheet_13026849/LM5050-1_12.html, p. 12)"},
      {.title = "High-side switch: 4.4 A through 70 mΩ (hot R_ON)",
       .request_json =
           R"({"drain_current_a":4.4,"rds_on_mohm":70,"theta_ja_c_per_w":62,"ambient_temp_c":25,)"
           R"("duty_cycle":1,"max_junction_temp_c":150})",
       .expected_json = R"({"power_dissipation_w":1.35})",
       .tolerance_pct = 0.5,
       .source = "Texas Instruments, TPS1HB35-Q1 datasheet (JAJSHN5B), application "
                 "example with a 60 W heater load: 4.4 A with RON assumed 70 mΩ (the maximum at "
                 "high temperature) gives a maximum FET power dissipation of 1.35 W "
                 "(ti.com/document-viewer/ja-jp/TPS1HB35-Q1/datasheet/"
                 "GUID-8706CB7E-768D-4D77-AC73-C5384C2F0754); θJA and ambient are not part of "
                 "that example"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double current = in.number("drain_current_a");
  const double rds_on_ohm = in.number("rds_on_mohm") / 1000.0;
  // Conduction loss only, averaged over the PWM period: I²·R while on, zero while off.
  const double power = current * current * rds_on_ohm * in.number("duty_cycle");
  // Steady state: the junction sits θJA·P above ambient (JESD51 definition of θJA).
  const double rise = power * in.number("theta_ja_c_per_w");
  const double junction = in.number("ambient_temp_c") + rise;
  const double max_junction = in.number("max_junction_temp_c");
  // Compared unrounded: a displayed 150.0 °C may be 149.96 °C, which is not yet danger.
  const char* status = junction >= max_junction                      ? "danger"
                       : junction > kDeratingFraction * max_junction ? "marginal"
                                                                     : "ok";
  Outputs out;
  out.set("power_dissipation_w", power)
      .set("temp_rise_c", rise)
      .set("junction_temp_c", junction)
      .set("headroom_c", max_junction - junction)
      .set("status", status);
  return out;
}

}  // namespace

Tool make_mosfet_thermal_junction() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
