#include "api/envelope.hpp"

#include "core/json_writer.hpp"
#include "core/secret_redaction.hpp"

namespace toolcalc::api {

std::string error_body(const ApiError& error, std::string_view request_id) {
  std::string s;
  s.reserve(160 + error.message.size());
  JsonWriter w(s);
  // A message or field that quotes a path or a member a client sent never echoes a key
  // whole: a proxy or a client may log the body (core/secret_redaction.hpp).
  std::string scratch;  // each value is written before the next is redacted
  w.begin_object().field("ok", false);
  w.key("error").begin_object().field("code", error.code_name());
  w.field("message", without_keys(error.message, scratch));
  if (!error.field.empty()) w.field("field", without_keys(error.field, scratch));
  w.end_object();
  w.key("meta").begin_object().field("request_id", request_id).end_object();
  w.end_object();
  return s;
}

std::string result_body(std::string_view result_json, std::string_view request_id) {
  std::string s;
  s.reserve(64 + result_json.size());
  JsonWriter w(s);
  w.begin_object().field("ok", true).key("result").raw(result_json);
  w.key("meta").begin_object().field("request_id", request_id).end_object();
  w.end_object();
  return s;
}

std::string execute_body_prefix(const catalog::ToolDescriptor& tool) {
  std::string s;
  JsonWriter w(s);
  w.begin_object().field("ok", true).field("tool", tool.slug).field("domain", tool.domain);
  w.field("version", tool.version).key("result");
  return s;
}

std::string result_body_prefix(std::string_view result_json) {
  // result_body with an empty id ends in `"request_id":""}}`: drop its suffix.
  std::string s = result_body(result_json, {});
  s.resize(s.size() - result_body_suffix.size());
  return s;
}

}  // namespace toolcalc::api
