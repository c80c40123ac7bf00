// Series/parallel battery pack: voltage, capacity, energy, continuous current and power from
// the cell's ratings and the S and P counts. Formula, bounds, references and worked examples:
// docs/tools/battery-pack.md.
#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "battery-pack";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Battery Pack (Series/Parallel)";
  t.description =
      "A pack of identical cells wired S in series and P in parallel (an SxP pack): nominal "
      "voltage, capacity, stored energy, maximum continuous discharge current and power from "
      "the cell's nominal voltage, capacity and C-rate, and the number of cells.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "cell_voltage_v",
                    .label = "Cell nominal voltage",
                    .unit = "V",
                    .help = "Nominal voltage of one cell: 3.6–3.7 V Li-ion/LiPo, 3.2 V LiFePO4, "
                            "2.4 V LTO, 2.0 V lead-acid, 1.2 V NiMH.",
                    .min = 1,
                    .max = 5,
                    .step = 0.01,
                    .default_value = 3.6}),
      number_input({.key = "cell_capacity_mah",
                    .label = "Cell capacity",
                    .unit = "mAh",
                    .help = "Rated capacity of one cell (e.g. 3000 mAh for an 18650, 5000 mAh for "
                            "a 21700).",
                    .min = 10,
                    .max = 500000,
                    .step = 1,
                    .default_value = 3000}),
      number_input({.key = "max_c_rate",
                    .label = "Cell maximum continuous discharge",
                    .unit = "C",
                    .help = "Maximum continuous discharge current of one cell as a multiple of its "
                            "capacity (C-rate): e.g. 15 A from a 3 Ah cell is 5 C.",
                    .min = 0.1,
                    .max = 200,
                    .step = 0.1,
                    .default_value = 1}),
      integer_input({.key = "series_count",
                     .label = "Cells in series S",
                     .unit = "cells",
                     .help = "Number of cells (or parallel groups) in series; sets the voltage.",
                     .min = 1,
                     .max = 1000,
                     .step = 1,
                     .default_value = 4}),
      integer_input({.key = "parallel_count",
                     .label = "Cells in parallel P",
                     .unit = "cells",
                     .help = "Number of cells in parallel in each group; sets the capacity and the "
                             "current.",
                     .min = 1,
                     .max = 1000,
                     .step = 1,
                     .default_value = 1}),
  };
  t.outputs = {
      number_output({.key = "pack_voltage_v",
                     .label = "Pack nominal voltage S·V_cell",
                     .unit = "V",
                     .precision = 2}),
      number_output({.key = "pack_capacity_ah",
                     .label = "Pack capacity P·C_cell",
                     .unit = "Ah",
                     .precision = 3,
                     .small_values_in = "pack_capacity_mah"}),
      number_output({.key = "pack_energy_wh",
                     .label = "Pack energy V_pack·C_pack",
                     .unit = "Wh",
                     .precision = 2,
                     .small_values_in = "pack_energy_mwh"}),
      number_output({.key = "max_continuous_current_a",
                     .label = "Maximum continuous discharge current P·C_cell·C-rate",
                     .unit = "A",
                     .precision = 3,
                     .small_values_in = "max_continuous_current_ma"}),
      number_output({.key = "max_continuous_power_w",
                     .label = "Maximum continuous power at nominal voltage",
                     .unit = "W",
                     .precision = 2,
                     .small_values_in = "max_continuous_power_mw"}),
      number_output(
          {.key = "cell_count", .label = "Number of cells S·P", .unit = "cells", .precision = 0}),
      number_output({.key = "pack_capacity_mah",
                     .label = "Pack capacity in mAh (small packs)",
                     .unit = "mAh",
                     .precision = 1}),
      number_output({.key = "pack_energy_mwh",
                     .label = "Pack energy in mWh (small packs)",
                     .unit = "mWh",
                     .precision = 1}),
      number_output({.key = "max_continuous_current_ma",
                     .label = "Maximum continuous current in mA (small packs)",
                     .unit = "mA",
                     .precision = 2}),
      number_output({.key = "max_continuous_power_mw",
                     .label = "Maximum continuous power in mW (small packs)",
                     .unit = "mW",
                     .precision = 2}),
  };
  t.references = {
      "Battery University (Cadex Electronics), BU-302 \"Series and Parallel Battery "
      "Configurations\": series cells add voltage at the cell's capacity, parallel cells add "
      "capacity and current at the cell's voltage",
      "IEC 61960-3:2017, \"Secondary cells and batteries containing alkaline or other "
      "non-acid electrolytes – Secondary lithium cells and batteries for portable applications "
      "– Part 3: Prismatic and cylindrical lithium secondary cells and batteries made from "
      "them\", §3 (rated capacity C5 and the discharge rate I_t = C5/1 h that C-rates multiply)",
  };
  t.examples = {
      {.title = "10S4P of 3.7 V, 3000 mAh cells",
       .request_json = R"({"cell_voltage_v":3.7,"cell_capacity_mah":3000,"max_c_rate":1,)"
                       R"("series_count":10,"parallel_count":4})",
       .expected_json = R"({"pack_voltage_v":37,"pack_capacity_ah":12,"pack_energy_wh":444,)"
                        R"("cell_count":40})",
       .tolerance_pct = 0,
       .source = "CalculatorLib, \"18650 Battery Pack Calculator\" "
                 "(calculatorlib.com/18650-battery-pack-calculator), \"Worked Example\": a 10S4P "
                 "pack of 3.7 V, 3000 mAh cells is 37 V, 12 Ah, 444 Wh with 10 × 4 = 40 cells"},
      {.title = "3S 2200 mAh 40C LiPo",
       .request_json = R"({"cell_voltage_v":3.7,"cell_capacity_mah":2200,"max_c_rate":40,)"
                       R"("series_count":3,"parallel_count":1})",
       .expected_json = R"({"pack_voltage_v":11.1,"max_continuous_current_a":88})",
       .tolerance_pct = 0,
       .source = "Drones4.life, \"LiPo 'C' rates explained\" (drones4.life/?p=4243): each cell "
                 "delivers about 3.7 V so a 3S LiPo supplies 11.1 V; \"A 3S 2200mAh 40C LiPo "
                 "pack ... 88 Ampere constant discharge rate\""},
      {.title = "Two 1500 mAh 20C LiPo cells in parallel",
       .request_json = R"({"cell_voltage_v":3.7,"cell_capacity_mah":1500,"max_c_rate":20,)"
                       R"("series_count":1,"parallel_count":2})",
       .expected_json = R"({"pack_capacity_ah":3,"max_continuous_current_a":60})",
       .tolerance_pct = 0,
       .source = "Drones4.life, \"LiPo 'C' rates explained\" (drones4.life/?p=4243): \"There is "
                 "no difference between 2 x 1500mAh 20c batteries in parallel and 1 x 3000mAh 20c "
                 "battery. Either can supply a total of 60 amps constant.\""},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double cell_v = in.number("cell_voltage_v");
  const double cell_ah = in.number("cell_capacity_mah") / 1e3;
  const double c_rate = in.number("max_c_rate");
  const double series = in.number("series_count");
  const double parallel = in.number("parallel_count");

  // Cells in series share one current and add their voltages; parallel cells share one
  // voltage and add their capacities and currents (BU-302).
  const double voltage = series * cell_v;
  const double capacity_ah = parallel * cell_ah;
  const double energy_wh = voltage * capacity_ah;
  const double current_a = capacity_ah * c_rate;
  const double power_w = voltage * current_a;
  Outputs out;
  out.set("pack_voltage_v", voltage)
      .set("pack_capacity_ah", capacity_ah)
      .set("pack_energy_wh", energy_wh)
      .set("max_continuous_current_a", current_a)
      .set("max_continuous_power_w", power_w)
      .set("cell_count", series * parallel)
      .set("pack_capacity_mah", capacity_ah * 1e3)
      .set("pack_energy_mwh", energy_wh * 1e3)
      .set("max_continuous_current_ma", current_a * 1e3)
      .set("max_continuous_power_mw", power_w * 1e3);
  return out;
}

}  // namespace

Tool make_battery_pack() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
