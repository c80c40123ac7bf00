#pragma once
// Per-model token rates of the llm-api-cost-calculator tool, read from
// catalog/llm-pricing.toml at start-up so an operator can change prices without a
// rebuild. File format and rules: the comment at the top of that file
// and docs/tools/llm-api-cost-calculator.md.
#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace toolcalc::tools {

// The spec's default model (§2.4); a pricing file without it is rejected.
inline constexpr std::string_view kLlmDefaultModel = "provider-a/model-b-4.6";
inline constexpr std::array<std::string_view, 2> kLlmProviders = {"provider-a", "provider-b"};

struct LlmModelPricing {
  std::string id;          // e.g. provider-a/model-b-4.6: the `model` input's option
  std::string model_name;  // display name, e.g. Model B 4.6
  std::string provider;    // one of kLlmProviders; `id` starts with "<provider>/"
  // US dollars per million tokens; finite, >= 0, cached_input <= input.
  double input_per_mtok = 0;
  double cached_input_per_mtok = 0;
  double output_per_mtok = 0;
};

struct LlmPricing {
  std::string pricing_as_of;            // YYYY-MM-DD
  std::vector<LlmModelPricing> models;  // file order = order of the enum options

  // nullptr when `id` is not a model of the file.
  const LlmModelPricing* find(std::string_view id) const;
};

// Parses and checks pricing TOML. Throws std::runtime_error whose message starts with
// `source_name` and names the model and field at fault: TOML syntax errors (with line and
// column), missing, unknown or non-numeric fields, negative or non-finite rates, cached >
// input, unknown provider, duplicate model ids, a pricing_as_of that is not a real
// YYYY-MM-DD date, or a missing default model.
LlmPricing parse_llm_pricing(std::string_view toml_text, std::string_view source_name);

// Reads `file` and parses it; also throws std::runtime_error when it cannot be read.
LlmPricing load_llm_pricing(const std::filesystem::path& file);

}  // namespace toolcalc::tools
