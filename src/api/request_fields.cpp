#include "api/request_fields.hpp"

namespace toolcalc::api::fields {
namespace {

using catalog::BodyMember;

// "a, b, c": the keys of the items `fits` accepts.
template <class Item, class Fits>
std::string keys_of(const std::vector<Item>& items, Fits fits) {
  std::string s;
  for (const auto& item : items) {
    if (!fits(item)) continue;
    if (!s.empty()) s += ", ";
    s += item.key;
  }
  return s;
}

const auto is_numeric_input = [](const catalog::InputDescriptor& in) { return in.is_numeric(); };
const auto is_number_output = [](const catalog::OutputDescriptor& out) {
  return out.type == catalog::OutputType::Number;
};

// The index of the item of `items` that `m` names and `fits` accepts; else the refusal
// naming `field`, the items being called `noun`s ("numeric input") of `slug`.
template <class Item, class Fits>
bool named_item(const std::vector<Item>& items, Fits fits, std::string_view noun,
                std::string_view slug, const BodyMember* m, const std::string& field,
                std::string_view verb, size_t& index, ApiError& error) {
  if (m == nullptr) {
    error = missing(field, "the " + std::string(noun) + " to " + std::string(verb) + " (" +
                               keys_of(items, fits) + ")");
    return false;
  }
  if (m->kind == BodyMember::Kind::String)
    for (size_t i = 0; i < items.size(); ++i)
      if (items[i].key == m->text && fits(items[i])) {
        index = i;
        return true;
      }
  const std::string msg =
      m->kind == BodyMember::Kind::String
          ? field + " '" + m->text + "' is not a " + std::string(noun) + " of " + std::string(slug)
          : field + " must be a string, got " + catalog::kind_name(m->kind);
  error =
      validation_error(field, msg + "; " + std::string(verb) + " one of: " + keys_of(items, fits));
  return false;
}

}  // namespace

std::string numeric_input_keys(const catalog::ToolDescriptor& tool) {
  return keys_of(tool.inputs, is_numeric_input);
}

std::string numeric_output_keys(const catalog::ToolDescriptor& tool) {
  return keys_of(tool.outputs, is_number_output);
}

const BodyMember* first_unknown(const std::vector<BodyMember>& members,
                                std::initializer_list<std::string_view> allowed) {
  for (const auto& m : members) {
    bool known = false;
    for (const auto a : allowed) known = known || m.key == a;
    if (!known) return &m;
  }
  return nullptr;
}

bool only_members(const BodyMember& object, const std::string& prefix,
                  std::initializer_list<std::string_view> allowed, std::string_view list,
                  ApiError& error) {
  const BodyMember* f = first_unknown(object.fields, allowed);
  if (f == nullptr) return true;
  error = validation_error(prefix + "." + f->key, "unknown member '" + prefix + "." + f->key +
                                                      "'; " + prefix + " has " + std::string(list));
  return false;
}

const catalog::ParsedBody* parse_body_of(std::string_view body,
                                         std::initializer_list<std::string_view> allowed,
                                         std::string_view has, ApiError& error) {
  thread_local catalog::ParsedBody parsed;  // reused: keeps its capacity across requests
  if (!catalog::parse_body(body, parsed, error)) return nullptr;
  if (const BodyMember* m = first_unknown(parsed.members, allowed)) {
    error = validation_error(m->key, "unknown member '" + m->key + "'; " + std::string(has));
    return nullptr;
  }
  return &parsed;
}

bool read_inputs(const std::vector<BodyMember>& members, catalog::ParsedBody& out,
                 ApiError& error) {
  const BodyMember* inputs = find(members, "inputs");
  if (inputs != nullptr && inputs->kind != BodyMember::Kind::Object) {
    error = not_an_object("inputs", *inputs, " of the tool's inputs");
    return false;
  }
  out.members.clear();
  if (inputs != nullptr) out.members = inputs->fields;
  return true;
}

bool validate_body_inputs(const catalog::ParsedBody& inputs, const catalog::ToolDescriptor& tool,
                          catalog::Inputs& out, ApiError& error) {
  if (catalog::validate_inputs(inputs, tool, out, error)) return true;
  error.field = "inputs." + error.field;
  return false;
}

bool numeric_input_named(const catalog::ToolDescriptor& tool, const BodyMember* m,
                         const std::string& field, std::string_view verb, size_t& index,
                         ApiError& error) {
  return named_item(tool.inputs, is_numeric_input, "numeric input", tool.slug, m, field, verb,
                    index, error);
}

bool number_output_named(const catalog::ToolDescriptor& tool, const BodyMember* m,
                         const std::string& field, std::string_view verb, size_t& index,
                         ApiError& error) {
  return named_item(tool.outputs, is_number_output, "number output", tool.slug, m, field, verb,
                    index, error);
}

}  // namespace toolcalc::api::fields
