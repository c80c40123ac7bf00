// LLM API cost calculator (spec §2.4, issue 3 point 4). Formula, rates, references and
// worked examples: docs/tools/llm-api-cost-calculator.md. Rates come from
// <catalog_dir>/llm-pricing.toml, loaded once here at start-up.
#include <memory>

#include "tools/programming-dev/llm_pricing.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Batch APIs of both providers bill input and output at half the synchronous rate, and
// the discount stacks with prompt caching.
constexpr double kBatchFactor = 0.5;
constexpr double kTokensPerMtok = 1e6;

ToolDescriptor descriptor(const LlmPricing& pricing) {
  ToolDescriptor t;
  t.slug = "llm-api-cost-calculator";
  t.domain = "programming-dev";
  t.version = "1.0.0";
  t.name = "LLM API Cost Calculator";
  t.description =
      "Estimate the monthly cost of a language-model API workload across two providers, "
      "including prompt-cache and batch-API effects. Per-million-token rates are built in; "
      "pricing_as_of reports their freshness.";
  t.standard = std::nullopt;

  InputDescriptor model;
  model.key = "model";
  model.label = "Model";
  model.type = InputType::Enum;
  model.required = false;
  model.help =
      "Provider and model whose list prices apply. Rates are US dollars per million tokens "
      "as of " +
      pricing.pricing_as_of + " (see pricing_as_of in the result).";
  for (const auto& m : pricing.models) model.options.push_back(m.id);
  model.default_value = std::string(kLlmDefaultModel);

  auto integer = [](std::string key, std::string label, std::string unit, std::string help,
                    double min, double max, double step, double def) {
    InputDescriptor in;
    in.key = std::move(key);
    in.label = std::move(label);
    in.type = InputType::Integer;
    in.unit = std::move(unit);
    in.help = std::move(help);
    in.min = min;
    in.max = max;
    in.step = step;
    in.default_value = def;
    return in;
  };

  InputDescriptor cached;
  cached.key = "cached_input_fraction";
  cached.label = "Cached share of input tokens";
  cached.type = InputType::Number;
  cached.required = false;
  cached.unit = "fraction 0..1";
  cached.help =
      "Share of each call's input tokens read from the provider's prompt cache (0 = none, "
      "1 = all), e.g. a long system prompt or document reused across calls. Cache reads are "
      "billed at the cached input rate: 90 % off for provider-a and the provider-b 5.x models, "
      "75 % off for the 4.1 class, 50 % off for the 4o class. Cache writes are not modelled.";
  cached.min = 0;
  cached.max = 1;
  cached.step = 0.05;
  cached.default_value = 0.0;

  InputDescriptor batch;
  batch.key = "use_batch_api";
  batch.label = "Use the batch API";
  batch.type = InputType::Boolean;
  batch.required = false;
  batch.help =
      "Submit the calls through the provider's asynchronous batch API (results within about "
      "24 h): 50 % off both input and output rates, on top of any cache discount.";
  batch.default_value = false;

  t.inputs = {
      model,
      integer("input_tokens_per_call", "Input tokens per call", "tok",
              "Prompt tokens sent per call: system prompt, context and user message, counted "
              "by the model's tokenizer (roughly 4 characters of English text per token).",
              1, 1000000, 100, 2000),
      integer("output_tokens_per_call", "Output tokens per call", "tok",
              "Tokens generated per call, including any reasoning tokens the provider bills as "
              "output.",
              1, 1000000, 50, 500),
      integer("calls_per_month", "Calls per month", "",
              "API requests per month (about 30 × daily calls).", 1, 1000000000, 1000, 100000),
      cached,
      batch,
  };

  auto text = [](std::string key, std::string label) {
    OutputDescriptor o;
    o.key = std::move(key);
    o.label = std::move(label);
    o.type = OutputType::String;
    return o;
  };
  auto number = [](std::string key, std::string label, std::string unit, int precision) {
    OutputDescriptor o;
    o.key = std::move(key);
    o.label = std::move(label);
    o.type = OutputType::Number;
    o.unit = std::move(unit);
    o.precision = precision;
    return o;
  };
  OutputDescriptor provider = text("provider", "Provider");
  provider.options.assign(kLlmProviders.begin(), kLlmProviders.end());
  t.outputs = {
      text("model_name", "Model"),
      provider,
      number("monthly_cost_usd", "Monthly cost", "$", 2),
      number("cost_per_call_usd", "Cost per call", "$", 5),
      number("input_cost_monthly_usd", "Monthly input-token cost", "$", 2),
      number("output_cost_monthly_usd", "Monthly output-token cost", "$", 2),
      // Units as the spec writes them, notes included (docs: "Units").
      number("monthly_cost_no_optim_usd", "Monthly cost without cache or batch",
             "$ (cost without cache or batch)", 2),
      number("cache_savings_usd", "Monthly savings from prompt caching", "$ per month", 2),
      number("batch_savings_usd", "Monthly savings from the batch API", "$ per month", 2),
      number("effective_input_rate_per_mtok", "Effective input rate", "$/Mtok", 3),
      number("effective_output_rate_per_mtok", "Effective output rate", "$/Mtok", 3),
      text("pricing_as_of", "Rates as of"),
  };
  t.references = {
      "provider-a public API pricing page: per-model input, output and prompt-cache read rates "
      "in $ per million tokens",
      "provider-a prompt-caching documentation: cache reads billed at 10 % of the base input "
      "rate",
      "provider-a Message Batches API documentation: 50 % discount on input and output tokens",
      "provider-b public API pricing page: per-model input, cached input and output rates in $ "
      "per million tokens",
      "provider-b prompt-caching guide: cached input discount by model family (90 % 5.x, 75 % "
      "4.1, 50 % 4o)",
      "provider-b Batch API guide: 50 % lower cost on input and output, results within 24 h",
  };
  t.examples = {
      {.title = "Defaults: Model B 4.6, 2000 input and 500 output tokens, 100000 calls a month",
       .request_json = R"({"model":"provider-a/model-b-4.6","input_tokens_per_call":2000,)"
                       R"("output_tokens_per_call":500,"calls_per_month":100000})"},
      {.title = "Half the prompt cached, through the batch API",
       .request_json = R"({"model":"provider-a/model-b-4.6","input_tokens_per_call":2000,)"
                       R"("output_tokens_per_call":500,"calls_per_month":100000,)"
                       R"("cached_input_fraction":0.5,"use_batch_api":true})"},
      {.title = "Small model for a high-volume classifier",
       .request_json =
           R"({"model":"provider-b/model-4o-mini","input_tokens_per_call":1500,)"
           R"("output_tokens_per_call":300,"calls_per_month":250000,"cached_input_fraction":0.4})"},
  };
  return t;
}

ComputeResult compute(const LlmPricing& pricing, const Inputs& in) {
  const LlmModelPricing* rates = pricing.find(in.enumeration("model"));
  // Validation only lets the descriptor's options through, and they come from `pricing`.
  if (rates == nullptr) throw std::logic_error("llm-api-cost-calculator: unknown model");
  const double calls = in.number("calls_per_month");
  const double in_tokens = in.number("input_tokens_per_call");
  const double out_tokens = in.number("output_tokens_per_call");
  const double h = in.number("cached_input_fraction");
  const double b = in.boolean("use_batch_api") ? kBatchFactor : 1.0;
  const double p_in = rates->input_per_mtok;
  const double p_cached = rates->cached_input_per_mtok;
  const double p_out = rates->output_per_mtok;

  const double input_mtok = calls * in_tokens / kTokensPerMtok;  // per month
  const double output_mtok = calls * out_tokens / kTokensPerMtok;
  // The cache discount applies to input tokens only; the batch factor to both.
  const double input_cost = input_mtok * ((1 - h) * p_in + h * p_cached) * b;
  const double output_cost = output_mtok * p_out * b;
  const double monthly = input_cost + output_cost;
  const double no_optim = input_mtok * p_in + output_mtok * p_out;
  const double cache_savings = input_mtok * h * (p_in - p_cached);
  // = no_optim − cache_savings − monthly (issue 3), written as (1 − b)·(cost after caching)
  // so it is exactly 0 without batch instead of ±1e-13 of cancellation noise.
  const double batch_savings = (1 - b) * (no_optim - cache_savings);

  Outputs out;
  out.set("model_name", rates->model_name)
      .set("provider", rates->provider)
      .set("monthly_cost_usd", monthly)
      .set("cost_per_call_usd", monthly / calls)
      .set("input_cost_monthly_usd", input_cost)
      .set("output_cost_monthly_usd", output_cost)
      .set("monthly_cost_no_optim_usd", no_optim)
      .set("cache_savings_usd", cache_savings)
      .set("batch_savings_usd", batch_savings)
      .set("effective_input_rate_per_mtok", input_cost / input_mtok)
      .set("effective_output_rate_per_mtok", output_cost / output_mtok)
      .set("pricing_as_of", pricing.pricing_as_of);
  return out;
}

}  // namespace

Tool make_llm_api_cost_calculator(const ToolContext& context) {
  auto pricing = std::make_shared<const LlmPricing>(
      load_llm_pricing(context.catalog_dir / "llm-pricing.toml"));
  return Tool{descriptor(*pricing), [pricing](const Inputs& in) { return compute(*pricing, in); }};
}

}  // namespace toolcalc::tools
