// One tool's execute and schema paths, and the schemas of its request body, result and
// 200 response (the inputs and outputs themselves come from catalog/json_schema).
#include "api/openapi/paths.hpp"
#include "api/openapi/writing.hpp"
#include "catalog/json_schema.hpp"
#include "catalog/render.hpp"

namespace toolcalc::api::openapi {

using catalog::ToolDescriptor;

namespace {

void write_request_examples(JsonWriter& w, const ToolDescriptor& t) {
  w.key("examples").begin_object();
  if (t.examples.empty()) {
    w.key("defaults").begin_object().field("summary", "Every input at its default");
    w.key("value").raw(catalog::default_body(t)).end_object();
  }
  int n = 0;
  for (const auto& ex : t.examples) {
    w.key("example" + std::to_string(++n)).begin_object().field("summary", ex.title);
    w.key("value").raw(ex.request_json).end_object();
  }
  w.end_object();
}

}  // namespace

// The 200 response of one of the tool's executing paths: the success envelope naming the
// tool, with `result` as the schema `result_schema`.
void write_success_response_schema(JsonWriter& w, const ToolDescriptor& t, const std::string& path,
                                   const std::string& result_schema) {
  w.begin_object();
  w.field("description", "The 200 response of " + path + ".");
  w.key("allOf").begin_array();
  schema_ref(w, "SuccessEnvelope");
  w.begin_object().field("type", "object").key("properties").begin_object();
  w.key("tool").begin_object().field("const", t.slug).end_object();
  w.key("domain").begin_object().field("const", t.domain).end_object();
  w.key("version").begin_object().field("const", t.version).end_object();
  w.key("result");
  schema_ref(w, result_schema);
  w.end_object().end_object();
  w.end_array().end_object();
}

void write_tool_schemas(JsonWriter& w, const ToolDescriptor& t, const std::string& prefix) {
  w.key(prefix + "Input");
  catalog::write_input_schema(w, t);
  w.key(prefix + "Result");
  catalog::write_output_schema(w, t);
  w.key(prefix + "Response");
  write_success_response_schema(w, t, t.endpoint(), prefix + "Result");
}

void write_execute_path(JsonWriter& w, ErrorRefs& refs, const ToolDescriptor& t,
                        const std::string& prefix) {
  w.key(t.endpoint()).begin_object().key("post").begin_object();
  w.field("operationId", "run" + prefix);
  w.field("summary", t.name);
  std::string description = t.description;
  if (t.standard) description += "\n\nStandard: " + *t.standard + ".";
  description += "\n\nFormula, constants and worked examples: `docs/tools/" + t.slug +
                 ".md`. A 200 response uses one unit of the monthly quota; errors use none.";
  w.field("description", description);
  w.key("tags").begin_array().string(t.domain).end_array();
  security_required(w);
  w.key("requestBody").begin_object().field("required", true);
  w.key("content").begin_object().key("application/json").begin_object().key("schema");
  schema_ref(w, prefix + "Input");
  write_request_examples(w, t);
  w.end_object().end_object().end_object();
  w.key("responses").begin_object();
  ok_response(w, "The tool's outputs, each rounded to its precision.", prefix + "Response");
  error_ref(w, refs, 400);
  error_ref(w, refs, 401);
  error_ref(w, refs, 415);
  error_ref(w, refs, 422);
  error_ref(w, refs, 429);
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, true);
  w.end_object();
  w.end_object().end_object();
}

void write_schema_path(JsonWriter& w, ErrorRefs& refs, const ToolDescriptor& t,
                       const std::string& prefix) {
  w.key(t.endpoint() + "/schema").begin_object().key("get").begin_object();
  w.field("operationId", "get" + prefix + "Schema");
  w.field("summary", "Inputs and outputs of " + t.name);
  w.field("description", "The description record of " + t.slug +
                             ": every input with its type, unit, bounds and default, and every "
                             "output with its unit and precision. No key needed.");
  w.key("tags").begin_array().string(t.domain).end_array();
  w.key("responses").begin_object();
  ok_response(w, "The tool description record.", "ToolRecordResponse");
  error_ref(w, refs, 401);
  error_ref(w, refs, 429);
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, false);
  w.end_object();
  w.end_object().end_object();
}

void execute_paths(Paths& p) {
  for (const auto& r : p.registry.tools())
    write_execute_path(p.w, p.refs, r.tool.descriptor, p.prefix(r));
}

void schema_paths(Paths& p) {
  for (const auto& r : p.registry.tools())
    write_schema_path(p.w, p.refs, r.tool.descriptor, p.prefix(r));
}

}  // namespace toolcalc::api::openapi
