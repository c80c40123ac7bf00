// The two load capacitors of a Pierce crystal oscillator (C1 = C2) for a crystal's rated load
// capacitance, the board's stray capacitance and the MCU pin capacitance, and the nearest
// standard value with the load it gives. Formula, references and worked examples:
// docs/tools/crystal-load-capacitors.md.
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/common/e_series.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Below 1 pF a discrete capacitor is smaller than the uncertainty of the stray capacitance it
// is meant to top up (NXP: estimate Cstray at 3–5 pF), so the result is no longer a part to
// fit: the tool asks for a crystal with a higher CL instead.
constexpr double kMinCapacitorPf = 1.0;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "crystal-load-capacitors";
  t.domain = "iot-mcu";
  t.version = "1.0.0";
  t.name = "Crystal Load Capacitors";
  t.description =
      "The two equal load capacitors C1 = C2 of a Pierce crystal oscillator that make the "
      "crystal see its rated load capacitance CL, given the stray and pin capacitance, with the "
      "nearest E12/E24 value and the load it actually gives.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "load_capacitance_pf",
                    .label = "Crystal load capacitance CL",
                    .unit = "pF",
                    .help = "The CL of the crystal's datasheet (e.g. 6, 9 or 12.5 pF for a "
                            "32.768 kHz crystal, 8–20 pF for MHz crystals).",
                    .min = 3,
                    .max = 50,
                    .step = 0.1,
                    .default_value = 12}),
      number_input({.key = "stray_capacitance_pf",
                    .label = "Stray capacitance Cstray",
                    .unit = "pF",
                    .help = "Board capacitance seen across the crystal (traces, pads, and the "
                            "MCU pins unless entered separately below); typically 2–5 pF.",
                    .min = 0,
                    .max = 20,
                    .step = 0.1,
                    .default_value = 3}),
      number_input({.key = "pin_capacitance_pf",
                    .label = "MCU pin capacitance Cpin",
                    .unit = "pF",
                    .help = "Capacitance of each oscillator pin to ground when the MCU datasheet "
                            "gives it and Cstray excludes it; 0 when Cstray already includes it.",
                    .min = 0,
                    .max = 20,
                    .step = 0.1,
                    .default_value = 0,
                    .required = false}),
      choice_input({.key = "capacitor_series",
                    .label = "Standard-value series",
                    .help = "IEC 60063 series of the capacitors you can buy: E12 (the usual C0G "
                            "values 10, 12, 15, 18, 22, 27 pF …) or E24. The value taken is the "
                            "closest in picofarads (not on a log scale), which keeps the load "
                            "error smallest.",
                    .options = {"E12", "E24"},
                    .default_value = "E12",
                    .required = false}),
  };
  t.outputs = {
      number_output(
          {.key = "capacitor_pf", .label = "Load capacitor C1 = C2", .unit = "pF", .precision = 2}),
      number_output({.key = "standard_capacitor_pf",
                     .label = "Nearest standard value (closest in pF)",
                     .unit = "pF",
                     .precision = 1}),
      number_output({.key = "load_with_standard_pf",
                     .label = "Load the crystal sees with the standard value",
                     .unit = "pF",
                     .precision = 2}),
  };
  t.references = {
      "NXP Semiconductors, IMXRT500HDG \"i.MX RT500 Hardware Design Guide\", section on "
      "crystal load capacitance: Cx = Cy ≈ 2(CL − CStray) − CPin, with worked examples for "
      "32.768 kHz crystals of CL = 12.5 pF and 9 pF",
      "NXP LPC FAQs (lpcware-support), \"How to calculate the value of crystal load "
      "capacitors?\", 2016: CL = CX1·CX2/(CX1 + CX2) + Cstray, hence CX1 = CX2 = 2(CL − "
      "Cstray), Cstray normally 2–5 pF",
      "STMicroelectronics, AN2867 \"Oscillator design guide for STM8AF/AL/S, STM32 MCUs and "
      "MPUs\", Pierce-oscillator load capacitance CL = CL1·CL2/(CL1 + CL2) + Cs, Cs the stray "
      "capacitance of pins and board",
      "IEC 60063:2015, \"Preferred number series for resistors and capacitors\" (E12, E24)",
  };
  t.examples = {
      {.title = "32.768 kHz crystal, CL = 12.5 pF, 3 pF pins, stray ignored",
       .request_json = R"({"load_capacitance_pf":12.5,"stray_capacitance_pf":0,)"
                       R"("pin_capacitance_pf":3})",
       .expected_json = R"({"capacitor_pf":22})",
       .tolerance_pct = 0,
       .source = "NXP IMXRT500HDG, i.MX RT500 Hardware Design Guide, load capacitance, Example "
                 "1 (read at manualshive.com/en/manual/nxp-semiconductors/i-mx-rt500/1721612"
                 "?page=19): CL = 12.5 pF, CPin = 3 pF, CStray = 0 → Cx = Cy ≈ 22 pF"},
      {.title = "Small 32.768 kHz crystal, CL = 9 pF, 3 pF pins, stray ignored",
       .request_json = R"({"load_capacitance_pf":9,"stray_capacitance_pf":0,)"
                       R"("pin_capacitance_pf":3})",
       .expected_json = R"({"capacitor_pf":15})",
       .tolerance_pct = 0,
       .source = "NXP IMXRT500HDG, i.MX RT500 Hardware Design Guide, load capacitance, Example "
                 "2 (same page): CL = 9 pF, CPin = 3 pF, CStray = 0 → Cx = Cy ≈ 15 pF"},
      {.title = "CL = 15 pF crystal with 2 pF stray",
       .request_json = R"({"load_capacitance_pf":15,"stray_capacitance_pf":2})",
       .expected_json = R"({"capacitor_pf":26})",
       .tolerance_pct = 0,
       .source = "NXP community, LPC FAQs, \"How to calculate the value of crystal load "
                 "capacitors?\" (community.nxp.com/t5/LPC-FAQs/How-to-calculate-the-value-of-"
                 "crystal-load-capacitors/m-p/464590): CL = 15 pF, Cstray = 2 pF → CX1 = CX2 = "
                 "2(15 pF − 2 pF) = 26 pF"},
      {.title = "CL = 12 pF crystal with 5 pF stray, rounded to a standard part",
       .request_json = R"({"load_capacitance_pf":12,"stray_capacitance_pf":5,)"
                       R"("capacitor_series":"E12"})",
       .expected_json = R"({"capacitor_pf":14,"standard_capacitor_pf":15})",
       .tolerance_pct = 0,
       .source = "vbatpower.com, \"Crystal Load Capacitance\" formula page "
                 "(www.vbatpower.com/formulas/crystal-load-cap), Practical Notes: CL = 12 pF, "
                 "Cstray = 5 pF → C1 = C2 = 2 × (12 − 5) = 14 pF, \"Round to standard 15pF "
                 "values\""},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double cl = in.number("load_capacitance_pf");
  const double stray = in.number("stray_capacitance_pf");
  const double pin = in.number("pin_capacitance_pf");
  // Each leg to ground is C + Cpin; the crystal sees the two legs in series plus Cstray:
  // CL = (C + Cpin)/2 + Cstray for equal legs, so C = 2(CL − Cstray) − Cpin.
  const double c = 2 * (cl - stray) - pin;
  if (c < kMinCapacitorPf) {
    const double load_without = stray + pin / 2;
    return ToolError{
        "load_capacitance_pf",
        "The stray and pin capacitance alone already load the crystal with " +
            format_fixed(load_without, 2) +
            " pF, so the capacitors would be under 1 pF; choose a crystal whose "
            "load_capacitance_pf is at least 0.5 pF above that, or check stray_capacitance_pf "
            "and pin_capacitance_pf."};
  }
  // The preferred value nearest to c by absolute difference, which minimises the load error
  // since CL is linear in C.
  const double standard =
      e_series::nearest_by_difference(c, e_series::series(in.enumeration("capacitor_series")));
  Outputs out;
  out.set("capacitor_pf", c)
      .set("standard_capacitor_pf", standard)
      .set("load_with_standard_pf", (standard + pin) / 2 + stray);
  return out;
}

}  // namespace

Tool make_crystal_load_capacitors() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
