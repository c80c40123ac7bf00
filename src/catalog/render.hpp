#pragma once
// JSON rendering of the catalog model: descriptor records (spec §2.1) and tool results
// rounded at each output's precision.
#include <string>

#include "catalog/descriptor.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::catalog {

std::string render_record(const ToolDescriptor& tool);
std::string render_summary(const ToolDescriptor& tool);
std::string render_details(const ToolDescriptor& tool, int analysis_cost_class);

// Writes the `result` object: every output of the descriptor, in descriptor order.
// Throws std::logic_error when the tool failed to set an output (a defect, not input).
void render_result(JsonWriter& w, const ToolDescriptor& tool, const Outputs& outputs);

const char* input_type_name(InputType t);

// An input's default as a JSON value: a plain number, a string (enum) or a boolean.
void write_default_value(JsonWriter& w, const DefaultValue& value);

// A body with every input at its default, as JSON text: the example OpenAPI shows for a tool
// without published examples, and the body the benchmarks send.
std::string default_body(const ToolDescriptor& tool);

}  // namespace toolcalc::catalog
