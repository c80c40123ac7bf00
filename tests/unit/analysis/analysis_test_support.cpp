// The closed-form test tool, compiled once (GCC 12 reports a false maybe-uninitialized in
// the variant of Outputs::set when this lambda is inlined into a test's body).
#include "analysis_test_support.hpp"

namespace toolcalc::analysis_test {

Tool linear_tool() {
  Tool t;
  t.descriptor.slug = "linear";
  t.descriptor.domain = "test";
  t.descriptor.version = "1.0.0";
  t.descriptor.name = "Linear";
  t.descriptor.inputs = {
      number_input({.key = "x",
                    .label = "x",
                    .unit = "",
                    .help = "",
                    .min = -100,
                    .max = 100,
                    .step = 1,
                    .default_value = 10,
                    .required = false}),
      number_input({.key = "y",
                    .label = "y",
                    .unit = "",
                    .help = "",
                    .min = 0,
                    .max = 1000,
                    .step = 1,
                    .default_value = 100,
                    .required = false}),
      integer_input({.key = "n",
                     .label = "n",
                     .unit = "",
                     .help = "",
                     .min = 0,
                     .max = 100,
                     .step = 1,
                     .default_value = 5,
                     .required = false}),
      choice_input({.key = "mode",
                    .label = "mode",
                    .help = "",
                    .options = {"a", "b"},
                    .default_value = "a",
                    .required = false}),
  };
  t.descriptor.outputs = {
      number_output({.key = "f", .label = "f", .unit = "", .precision = 3}),
      number_output({.key = "g", .label = "g", .unit = "", .precision = 4}),
      text_output({.key = "status", .label = "status", .options = {"ok", "high"}}),
  };
  t.compute = [](const Inputs& in) -> ComputeResult {
    const double x = in.number("x"), y = in.number("y"), n = in.number("n");
    if (y > 900) return ToolError{"y", "y must be at most 900 for this tool"};
    const char* status = x > 50 ? "high" : "ok";
    Outputs out;
    out.set("f", 2 * x - 0.5 * y + 3 * n + 7).set("g", (x - 1) * (x - 1)).set("status", status);
    return out;
  };
  return t;
}

}  // namespace toolcalc::analysis_test
