// MOSFET junction temperature from conduction loss (spec §2.3). Formula, references and
// worked examples: docs/tools/mosfet-thermal-junction.md.
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
  t.inputs = {
      number("drain_current_a", "Drain current", "A",
             "RMS drain current while the MOSFET is on (for PWM, the current during the "
             "on-time).",
             0.001, 1000, 0.1, 5),
      number("rds_on_mohm", "On-resistance R_DS(on)", "mΩ",
             "Use the hot value: R_DS(on) at your gate drive and expected junction temperature "
             "(typically 1.5–2× the 25 °C figure at 125 °C; see the datasheet's normalised "
             "R_DS(on) vs T_j curve).",
             0.1, 10000, 0.1, 20),
      number("theta_ja_c_per_w", "Thermal resistance θJA", "°C/W (junction-to-ambient)",
             "Junction-to-ambient thermal resistance for your mounting (copper area, airflow, "
             "heatsink). Datasheet θJA is measured on a JEDEC JESD51 test board and is only a "
             "starting point.",
             0.1, 500, 0.5, 62),
      number("ambient_temp_c", "Ambient temperature", "°C",
             "Worst-case air temperature around the device, inside the enclosure.", -40, 125, 1,
             25),
      number("duty_cycle", "Duty cycle", "(fraction; 1 = continuously on)",
             "Fraction of time the MOSFET conducts. Switching losses are not included; add them "
             "separately for fast PWM.",
             0.01, 1, 0.01, 1),
      number("max_junction_temp_c", "Maximum junction temperature", "°C",
             "Rated maximum T_j from the datasheet's absolute maximum ratings (often 150 °C or "
             "175 °C).",
             100, 200, 5, 150),
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
  OutputDescriptor status;
  status.key = "status";
  status.label = "Thermal status";
  status.type = OutputType::String;
  status.options = {"ok", "marginal", "danger"};
  t.outputs = {
      out("power_dissipation_w", "Conduction loss", "W", 3),
      out("temp_rise_c", "Temperature rise above ambient", "°C", 1),
      out("junction_temp_c", "Junction temperature", "°C", 1),
      out("headroom_c", "Headroom to maximum junction temperature", "°C", 1),
      status,
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
      {.title = "Defaults: 5 A through 20 mΩ, θJA 62 °C/W, 25 °C ambient, always on",
       .request_json =
           R"({"drain_current_a":5,"rds_on_mohm":20,"theta_ja_c_per_w":62,"ambient_temp_c":25,)"
           R"("duty_cycle":1,"max_junction_temp_c":150})"},
      {.title = "PWM at 50 %: 10 A, 8 mΩ hot, θJA 40 °C/W, 50 °C ambient, 175 °C part",
       .request_json =
           R"({"drain_current_a":10,"rds_on_mohm":8,"theta_ja_c_per_w":40,"ambient_temp_c":50,)"
           R"("duty_cycle":0.5,"max_junction_temp_c":175})"},
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
