// Minimum sampling (acquisition) time of a SAR ADC: the sample-and-hold capacitor charges
// through the source and switch resistances and must settle within a fraction of an LSB,
// t ≥ (Rs + Rsw)·Csh·ln(2^N / error). Formula, references and worked examples:
// docs/tools/adc-sampling-time.md.
#include <cmath>
#include <numbers>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "adc-sampling-time";
  t.domain = "iot-mcu";
  t.version = "1.0.0";
  t.name = "ADC Sampling Time";
  t.description =
      "Minimum sampling (acquisition) time of a SAR ADC for the hold capacitor to settle within "
      "½ (or ¼, ⅛) LSB through the source and switch resistance, t = (Rs + Rsw)·Csh·"
      "ln(2^(N+1)), in nanoseconds and in ADC clock cycles.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "source_resistance_ohm",
                    .label = "Source resistance Rs",
                    .unit = "Ω",
                    .help = "Output resistance of what drives the pin (divider Thevenin "
                            "resistance, filter resistor, sensor), 0 to 1 MΩ.",
                    .min = 0,
                    .max = 1000000,
                    .step = 1,
                    .default_value = 10000}),
      number_input({.key = "switch_resistance_ohm",
                    .label = "Sampling switch resistance Rsw",
                    .unit = "Ω",
                    .help = "ADC's internal sampling switch (and interconnect) resistance from "
                            "the datasheet: R_ADC = 1 kΩ on STM32F1, RIC + RSS = 8 kΩ on PIC16.",
                    .min = 100,
                    .max = 100000,
                    .step = 1,
                    .default_value = 1000}),
      number_input({.key = "sample_capacitance_pf",
                    .label = "Sample-and-hold capacitance Csh",
                    .unit = "pF",
                    .help = "Internal hold capacitor from the datasheet: C_ADC = 8 pF on STM32F1, "
                            "CHOLD = 10–120 pF on PIC.",
                    .min = 1,
                    .max = 1000,
                    .step = 0.1,
                    .default_value = 8}),
      integer_input({.key = "resolution_bits",
                     .label = "Resolution N",
                     .unit = "bits",
                     .help = "ADC resolution in bits, 4 to 24.",
                     .min = 4,
                     .max = 24,
                     .step = 1,
                     .default_value = 12}),
      choice_input({.key = "settling_error_lsb",
                    .label = "Allowed settling error",
                    .help = "How close to the input the capacitor must charge: 1/2 LSB (the "
                            "usual criterion, Microchip), 1/4 LSB (STM32 datasheets) or 1/8 LSB.",
                    .options = {"1/2", "1/4", "1/8"},
                    .default_value = "1/2",
                    .unit = "LSB",
                    .required = false}),
      number_input({.key = "adc_clock_mhz",
                    .label = "ADC clock",
                    .unit = "MHz",
                    .help = "ADC clock that counts the sampling time, to express it in cycles "
                            "(14 MHz on an STM32F1).",
                    .min = 0.01,
                    .max = 1000,
                    .step = 0.01,
                    .default_value = 14,
                    .required = false}),
  };
  t.outputs = {
      number_output({.key = "time_constant_ns",
                     .label = "Time constant τ = (Rs + Rsw)·Csh",
                     .unit = "ns",
                     .precision = 3}),
      number_output({.key = "time_constants",
                     .label = "Time constants needed ln(2^N / error)",
                     .unit = "τ",
                     .precision = 3}),
      number_output({.key = "min_sampling_time_ns",
                     .label = "Minimum sampling time",
                     .unit = "ns",
                     .precision = 3}),
      number_output({.key = "min_sampling_cycles",
                     .label = "Minimum sampling time in ADC clock cycles",
                     .unit = "cycles",
                     .precision = 2,
                     .small_values_in = "min_sampling_time_ns"}),
  };
  t.references = {
      "Microchip, PIC16F87XA data sheet (DS39582), §11.1 \"A/D Acquisition Requirements\", "
      "Equation 11-1: TC = −CHOLD·(RIC + RSS + RS)·ln(1/2047), the charge to within ½ LSB of a "
      "10-bit converter",
      "STMicroelectronics, STM32F103x4/x6 datasheet (DocID 15060), ADC characteristics, "
      "Equation 1: RAIN < TS/(fADC·CADC·ln(2^(N+2))) − RADC for an error below ¼ LSB, with "
      "Table \"RAIN max for fADC = 14 MHz\"; RADC = 1 kΩ, CADC = 8 pF",
      "Texas Instruments, microcontroller data sheet JAJSRS6A, ADC sampling-time equations: "
      "T = K·Tau with K = ln(2^n / settling error) − ln((Cpar + CI)/CS/H) and Tau = (Rpar + "
      "Rin)·CS/H + Rpar·(Cpar + CI) (ti.com/document-viewer/ja-jp/lit/html/JAJSRS6A)",
  };
  t.examples = {
      {.title = "PIC16F87XA: 10 kΩ source, 120 pF hold capacitor, 10 bits",
       .request_json = R"({"source_resistance_ohm":10000,"switch_resistance_ohm":8000,)"
                       R"("sample_capacitance_pf":120,"resolution_bits":10,)"
                       R"("settling_error_lsb":"1/2"})",
       .expected_json = R"({"min_sampling_time_ns":16470})",
       .tolerance_pct = 0.1,
       .source = "Microchip PIC16F87XA data sheet, Equation 11-1 \"Acquisition time\" (read at "
                 "datasheetandpdf.com/EN/MICROCHIP/130/PIC16LF876A-I.htm, p. 130): TC = −120 pF "
                 "(1 kΩ + 7 kΩ + 10 kΩ) ln(0.0004885) = 16.47 µs"},
      {.title = "PIC18CXX2: 2.5 kΩ source, 120 pF hold capacitor, 10 bits",
       .request_json = R"({"source_resistance_ohm":2500,"switch_resistance_ohm":8000,)"
                       R"("sample_capacitance_pf":120,"resolution_bits":10})",
       .expected_json = R"({"min_sampling_time_ns":9610})",
       .tolerance_pct = 0.1,
       .source = "Microchip PIC18CXX2 data sheet (DS39026D), Example 16-1 \"Calculating the "
                 "minimum required acquisition time\" (read at datasheetandpdf.com/EN/MICROCHIP/"
                 "169/PIC18CXX2_13.htm, p. 169): TC = −120 pF (1 kΩ + 7 kΩ + 2.5 kΩ) "
                 "ln(0.0004885) = 9.61 µs"},
      {.title = "PIC16F690: 10 kΩ source, 10 pF hold capacitor, 10 bits",
       .request_json = R"({"source_resistance_ohm":10000,"switch_resistance_ohm":8000,)"
                       R"("sample_capacitance_pf":10,"resolution_bits":10})",
       .expected_json = R"({"min_sampling_time_ns":1370})",
       .tolerance_pct = 0.2,
       .source = "Microchip PIC16F631/677/685/687/689/690 data sheet (DS40001262F), Equation 9-1 "
                 "\"Acquisition time example\" (read at 38.142.81.21:8001/manual/microchip/"
                 "pic16f690-i-ss/datasheet-english/page-114.html, p. 114): TC = −10 pF (1 kΩ + "
                 "7 kΩ + 10 kΩ) ln(0.0004885) = 1.37 µs"},
      {.title = "STM32F103: 5.9 kΩ source at 14 MHz, ¼ LSB, 12 bits",
       .request_json = R"({"source_resistance_ohm":5900,"switch_resistance_ohm":1000,)"
                       R"("sample_capacitance_pf":8,"resolution_bits":12,)"
                       R"("settling_error_lsb":"1/4","adc_clock_mhz":14})",
       .expected_json = R"({"min_sampling_cycles":7.5})",
       .tolerance_pct = 0.5,
       .source = "STMicroelectronics STM32F103x4/x6 datasheet (DocID 15060 Rev 6), Table 47 "
                 "\"RAIN max for fADC = 14 MHz\" (read at 38.142.81.21:8001/manual/"
                 "stmicroelectronics/stm32f103r6t6a/datasheet-english/page-71.html): Ts = 7.5 "
                 "cycles ↔ RAIN max 5.9 kΩ; RADC 1 kΩ and CADC 8 pF from the STM32F1 ADC "
                 "characteristics (read in the STM32F102x8/xB datasheet, DocID15056, Table 45)"},
      {.title = "STM32F103: 50 kΩ source at 14 MHz, ¼ LSB, 12 bits",
       .request_json = R"({"source_resistance_ohm":50000,"switch_resistance_ohm":1000,)"
                       R"("sample_capacitance_pf":8,"resolution_bits":12,)"
                       R"("settling_error_lsb":"1/4","adc_clock_mhz":14})",
       .expected_json = R"({"min_sampling_cycles":55.5})",
       .tolerance_pct = 0.5,
       .source = "STMicroelectronics STM32F103x4/x6 datasheet (DocID 15060 Rev 6), Table 47 "
                 "(same page): Ts = 55.5 cycles ↔ RAIN max 50 kΩ"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double r = in.number("source_resistance_ohm") + in.number("switch_resistance_ohm");
  const double c_f = in.number("sample_capacitance_pf") * 1e-12;
  const double bits = in.number("resolution_bits");
  const std::string& error = in.enumeration("settling_error_lsb");
  const double error_lsb = error == "1/4" ? 0.25 : error == "1/8" ? 0.125 : 0.5;
  // A step of full scale V decays as V·e^(−t/τ); within error·V/2^N needs
  // t ≥ τ·ln(2^N / error) = τ·(N·ln 2 − ln error): ln(2^(N+1)) at ½ LSB.
  const double n_tau = bits * std::numbers::ln2 - std::log(error_lsb);
  const double tau_s = r * c_f;
  const double t_s = tau_s * n_tau;
  Outputs out;
  out.set("time_constant_ns", tau_s * 1e9)
      .set("time_constants", n_tau)
      .set("min_sampling_time_ns", t_s * 1e9)
      .set("min_sampling_cycles", t_s * in.number("adc_clock_mhz") * 1e6);
  return out;
}

}  // namespace

Tool make_adc_sampling_time() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
