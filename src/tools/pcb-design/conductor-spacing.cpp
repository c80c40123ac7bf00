// Minimum electrical clearance between conductors by voltage and location, IPC-2221B Table 6-1
// with its per-volt rule above 500 V. Table, bounds and sources: docs/tools/conductor-spacing.md.
#include <array>
#include <cmath>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "tools/pcb-design/pcb_units.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;
using pcb::kMmPerMil;

constexpr double kTableTopVolts = 500;

// IPC-2221B Table 6-1: the upper voltage of each band (DC or AC peak), then per location the
// minimum spacing in mm for each band and the mm per volt added above 500 V.
constexpr std::array<double, 9> kBandTop = {15, 30, 50, 100, 150, 170, 250, 300, 500};
constexpr std::array<const char*, 10> kBandName = {
    "0–15 V",    "16–30 V",   "31–50 V",   "51–100 V",  "101–150 V",
    "151–170 V", "171–250 V", "251–300 V", "301–500 V", "> 500 V"};

struct Location {
  const char* option;
  std::array<double, 9> spacing_mm;
  double mm_per_volt_above_500;
};

const std::array<Location, 7> kLocations = {{
    {"B1-internal", {0.05, 0.05, 0.1, 0.1, 0.2, 0.2, 0.2, 0.2, 0.25}, 0.0025},
    {"B2-external-uncoated-sea-level", {0.1, 0.1, 0.6, 0.6, 0.6, 1.25, 1.25, 1.25, 2.5}, 0.005},
    {"B3-external-uncoated-above-3050m", {0.1, 0.1, 0.6, 1.5, 3.2, 3.2, 6.4, 12.5, 12.5}, 0.025},
    {"B4-external-permanent-polymer-coating",
     {0.05, 0.05, 0.13, 0.13, 0.4, 0.4, 0.4, 0.4, 0.8},
     0.00305},
    {"A5-external-conformal-coating-assembly",
     {0.13, 0.13, 0.13, 0.13, 0.4, 0.4, 0.4, 0.4, 0.8},
     0.00305},
    {"A6-component-lead-uncoated", {0.13, 0.25, 0.4, 0.5, 0.8, 0.8, 0.8, 0.8, 1.5}, 0.00305},
    {"A7-component-lead-conformal-coating",
     {0.13, 0.13, 0.13, 0.13, 0.4, 0.4, 0.4, 0.8, 0.8},
     0.00305},
}};

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "conductor-spacing";
  t.domain = "pcb-design";
  t.version = "1.0.0";
  t.name = "Conductor Spacing (IPC-2221B)";
  t.description =
      "Minimum electrical clearance between conductors on a printed board for a voltage "
      "between them (DC or AC peak) and a location class — internal layer, external uncoated "
      "at sea level or above 3050 m, external with polymer coating, or assembly classes A5–A7 — "
      "from IPC-2221B Table 6-1, with its per-volt rule above 500 V.";
  t.standard = "IPC-2221B";
  std::vector<std::string> options;
  for (const auto& l : kLocations) options.emplace_back(l.option);
  t.inputs = {
      number_input({.key = "voltage_v",
                    .label = "Voltage between conductors",
                    .unit = "V",
                    .help = "Peak voltage between the two conductors: the DC voltage or the AC "
                            "peak (√2 × RMS for a sine), including transients the product must "
                            "withstand in service.",
                    .min = 0,
                    .max = 10000,
                    .step = 1,
                    .default_value = 50}),
      choice_input({.key = "location",
                    .label = "Location (IPC-2221B class)",
                    .help = "B1: internal layer. B2: external, uncoated, sea level to 3050 m. "
                            "B3: external, uncoated, above 3050 m. B4: external with permanent "
                            "polymer coating (e.g. solder mask over bare board). A5: external "
                            "with conformal coating over the assembly. A6: external component "
                            "lead or termination, uncoated. A7: component lead or termination "
                            "with conformal coating.",
                    .options = options,
                    .default_value = "B2-external-uncoated-sea-level"}),
  };
  t.outputs = {
      number_output(
          {.key = "min_spacing_mm", .label = "Minimum spacing", .unit = "mm", .precision = 4}),
      number_output(
          {.key = "min_spacing_mil", .label = "Minimum spacing", .unit = "mil", .precision = 2}),
      text_output({.key = "voltage_band",
                   .label = "Table 6-1 voltage band",
                   .options = std::vector<std::string>(kBandName.begin(), kBandName.end())}),
  };
  t.references = {
      "IPC-2221B, \"Generic Standard on Printed Board Design\", IPC, 2012, §6.3 Electrical "
      "Clearance, Table 6-1 \"Electrical Conductor Spacing\" (bands to 500 V, and mm per volt "
      "added above 500 V)",
      "KiCad pcb_calculator, pcb_calculator/calculator_panels/"
      "panel_electrical_spacing_ipc2221.cpp: IPC-2221 Table 6-1 as a table of the seven "
      "classes, with the worked example 600 V on B1 = 0.25 mm + 100 V × 0.0025 mm "
      "(github.com/KiCad/kicad-source-mirror)",
  };
  t.examples = {
      {.title = "External uncoated conductors at sea level, 100 V",
       .request_json = R"({"voltage_v":100,"location":"B2-external-uncoated-sea-level"})",
       .expected_json = R"({"min_spacing_mm":0.6})",
       .tolerance_pct = 0,
       .source = "IPC-2221B Table 6-1, row 51–100 V, column B2 = 0.6 mm, as tabulated in KiCad "
                 "pcb_calculator/calculator_panels/panel_electrical_spacing_ipc2221.cpp "
                 "(github.com/KiCad/kicad-source-mirror)"},
      {.title = "Internal layer, 600 V (above the table: per-volt rule)",
       .request_json = R"({"voltage_v":600,"location":"B1-internal"})",
       .expected_json = R"({"min_spacing_mm":0.5})",
       .tolerance_pct = 0,
       .source = "IPC-2221B Table 6-1 note, worked in KiCad panel_electrical_spacing_ipc2221.cpp: "
                 "\"the electrical spacing for a Type B1 board with 600V is calculated as: 600V - "
                 "500V = 100V; 0.25 mm + (100V x 0.0025\" mm/V) = 0.5 mm"},
      {.title = "Uncoated component leads, 30 V",
       .request_json = R"({"voltage_v":30,"location":"A6-component-lead-uncoated"})",
       .expected_json = R"({"min_spacing_mm":0.25})",
       .tolerance_pct = 0,
       .source = "IPC-2221B Table 6-1, row 16–30 V, column A6 = 0.25 mm, as tabulated in KiCad "
                 "panel_electrical_spacing_ipc2221.cpp (github.com/KiCad/kicad-source-mirror)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double volts = in.number("voltage_v");
  const std::string& option = in.enumeration("location");
  const Location* location = &kLocations[0];
  for (const auto& l : kLocations)
    if (option == l.option) location = &l;
  double spacing_mm;
  size_t band = kBandTop.size();  // "> 500 V"
  for (size_t i = 0; i < kBandTop.size(); ++i) {
    if (volts <= kBandTop[i]) {
      band = i;
      break;
    }
  }
  if (band < kBandTop.size())
    spacing_mm = location->spacing_mm[band];
  else
    spacing_mm =
        location->spacing_mm.back() + location->mm_per_volt_above_500 * (volts - kTableTopVolts);
  Outputs out;
  out.set("min_spacing_mm", spacing_mm)
      .set("min_spacing_mil", spacing_mm / kMmPerMil)
      .set("voltage_band", std::string(kBandName[band]));
  return out;
}

}  // namespace

Tool make_conductor_spacing() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
