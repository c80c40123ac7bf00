#pragma once
// Tools with closed forms for the analysis tests, and the helpers that validate their
// inputs the way the endpoints do (parse_body → validate_inputs).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

#include "catalog/descriptor_builder.hpp"
#include "catalog/json_body.hpp"
#include "catalog/validate.hpp"

namespace toolcalc::analysis_test {

using namespace catalog;

// f = 2x − 0.5y + 3n + 7 (linear), g = (x − 1)² (not monotone), and a status: "high" when
// x > 50, else "ok"; the tool refuses y > 900 (422 on y). Input indices: x 0, y 1, n 2,
// mode 3; outputs: f 0, g 1, status 2.
Tool linear_tool();  // analysis_test_support.cpp

// The validated inputs of `body` for `tool` (the test means the body to be valid).
inline Inputs validated(const Tool& tool, std::string_view body) {
  ParsedBody parsed;
  ApiError error;
  Inputs inputs;
  if (!parse_body(body, parsed, error) || !validate_inputs(parsed, tool.descriptor, inputs, error))
    throw std::invalid_argument(error.field + ": " + error.message);
  return inputs;
}

}  // namespace toolcalc::analysis_test
