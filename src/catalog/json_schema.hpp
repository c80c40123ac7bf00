#pragma once
// JSON Schema (2020-12) of a tool's request body and of its `result` object, written from
// the descriptor. One generator feeds both fronts that describe tools to third parties:
// the OpenAPI document (request bodies, 200 responses) and MCP (`inputSchema`,
// `outputSchema`), so the two can never disagree with each other or with validation.
#include <string>

#include "catalog/descriptor.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::catalog {

// {"type":"object","properties":{…},"required":[…],"additionalProperties":false}: one
// property per input with its JSON type (number | integer | string + enum | boolean),
// inclusive `minimum`/`maximum`, `default`, `title` (the label) and a `description`
// carrying the unit and the help text. Optional inputs are left out of `required`.
// `step` is a UI hint that validation does not enforce, so it is not a constraint here.
void write_input_schema(JsonWriter& w, const ToolDescriptor& tool);

// The `result` object: every output, all required, no others. Number outputs are
// `number` (rounded to `precision` decimals, stated in the description); string outputs
// with a fixed set of values carry it as `enum`.
void write_output_schema(JsonWriter& w, const ToolDescriptor& tool);

std::string input_schema_json(const ToolDescriptor& tool);
std::string output_schema_json(const ToolDescriptor& tool);

// `"key": {…}`: one input's property of the schema above (the sweep body reuses it).
void write_input_property(JsonWriter& w, const InputDescriptor& in);

// "Unit: mAh. <help>" — the description of one input ("" when it has neither).
std::string input_description(const InputDescriptor& in);

}  // namespace toolcalc::catalog
