// LLM API cost calculator (spec §2.4). Formula, rates, references and
// worked examples: docs/tools/llm-api-cost-calculator.md. Rates come from
// <catalog_dir>/llm-pricing.toml, loaded once here at start-up.
#include <memory>
#include <string>
#include <vector>

#include "catalog/descriptor_builder.hpp"
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

  std::vector<std::string> models;
  for (const auto& m : pricing.models) models.push_back(m.id);
  t.inputs = {
      choice_input({.key = "model",
                    .label = "Model",
                    .help = "Provider and model whose list prices apply. Rates are US dollars per "
                            "million tokens as of " +
                            pricing.pricing_as_of +
                            " (see pricing_as_of in the result). List prices only: no long-context "
                            "surcharges, volume discounts, free tiers or taxes.",
                    .options = std::move(models),
                    .default_value = std::string(kLlmDefaultModel),
                    .required = false}),
      integer_input({.key = "input_tokens_per_call",
                     .label = "Input tokens per call",
                     .unit = "tok",
                     .help = "Prompt tokens sent per call: system prompt, context and user "
                             "message, counted by the model's tokenizer (roughly 4 characters of "
                             "English text per token).",
                     .min = 1,
                     .max = 1000000,
                     .step = 100,
                     .default_value = 2000}),
      integer_input({.key = "output_tokens_per_call",
                     .label = "Output tokens per call",
                     .unit = "tok",
                     .help = "Tokens generated per call, including any reasoning tokens the "
                             "provider bills as output.",
                     .min = 1,
                     .max = 1000000,
                     .step = 50,
                     .default_value = 500}),
      integer_input({.key = "calls_per_month",
                     .label = "Calls per month",
                     .unit = "",
                     .help = "API requests per month (about 30 × daily calls).",
                     .min = 1,
                     .max = 1000000000,
                     .step = 1000,
                     .default_value = 100000}),
      number_input({.key = "cached_input_fraction",
                    .label = "Cached share of input tokens",
                    .unit = "fraction 0..1",
                    .help = "Share of each call's input tokens read from the provider's prompt "
                            "cache (0 = none, 1 = all), e.g. a long system prompt or document "
                            "reused across calls. Cache reads are billed at the cached input "
                            "rate: 90 % off for provider-a and the provider-b 5.x models, 75 % "
                            "off for the 4.1 class, 50 % off for the 4o class. Cache writes are "
                            "not modelled.",
                    .min = 0,
                    .max = 1,
                    .step = 0.05,
                    .default_value = 0,
                    .required = false}),
      flag_input({.key = "use_batch_api",
                  .label = "Use the batch API",
                  .help = "Submit the calls through the provider's asynchronous batch API "
                          "(results within about 24 h): 50 % off both input and output rates, on "
                          "top of any cache discount.",
                  .default_value = false,
                  .required = false}),
  };
  t.outputs = {
      text_output({.key = "model_name", .label = "Model"}),
      text_output(
          {.key = "provider",
           .label = "Provider",
           .options = std::vector<std::string>(kLlmProviders.begin(), kLlmProviders.end())}),
      number_output(
          {.key = "monthly_cost_usd", .label = "Monthly cost", .unit = "$", .precision = 2}),
      number_output(
          {.key = "cost_per_call_usd", .label = "Cost per call", .unit = "$", .precision = 5}),
      number_output({.key = "input_cost_monthly_usd",
                     .label = "Monthly input-token cost",
                     .unit = "$",
                     .precision = 2}),
      number_output({.key = "output_cost_monthly_usd",
                     .label = "Monthly output-token cost",
                     .unit = "$",
                     .precision = 2}),
      // Units as the spec writes them, notes included (docs: "Units").
      number_output({.key = "monthly_cost_no_optim_usd",
                     .label = "Monthly cost without cache or batch",
                     .unit = "$ (cost without cache or batch)",
                     .precision = 2}),
      number_output({.key = "cache_savings_usd",
                     .label = "Monthly savings from prompt caching",
                     .unit = "$ per month",
                     .precision = 2}),
      number_output({.key = "batch_savings_usd",
                     .label = "Monthly savings from the batch API",
                     .unit = "$ per month",
                     .precision = 2}),
      number_output({.key = "effective_input_rate_per_mtok",
                     .label = "Effective input rate",
                     .unit = "$/Mtok",
                     .precision = 3}),
      number_output({.key = "effective_output_rate_per_mtok",
                     .label = "Effective output rate",
                     .unit = "$/Mtok",
                     .precision = 3}),
      text_output({.key = "pricing_as_of", .label = "Rates as of"}),
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
  // Each vector is one million input and one million output tokens in a single call, so the
  // two monthly amounts are the per-Mtok rates the provider's price page prints.
  t.examples = {
      {.title = "Model B 4.6 list rates: 1 Mtok in, 1 Mtok out",
       .request_json = R"({"model":"provider-a/model-b-4.6","input_tokens_per_call":1000000,)"
                       R"("output_tokens_per_call":1000000,"calls_per_month":1})",
       .expected_json = R"({"input_cost_monthly_usd":3,"output_cost_monthly_usd":15})",
       .tolerance_pct = 0,
       .source = "provider-a's API pricing page, platform.claude.com/docs/en/docs/about-claude/"
                 "pricing, model table, row \"Claude Sonnet 4.6\" (the catalog's Model B 4.6): "
                 "base input tokens $3 / MTok, output tokens $15 / MTok"},
      {.title = "Model C 4.5, all input from the prompt cache: 1 Mtok in, 1 Mtok out",
       .request_json = R"({"model":"provider-a/model-c-4.5","input_tokens_per_call":1000000,)"
                       R"("output_tokens_per_call":1000000,"calls_per_month":1,)"
                       R"("cached_input_fraction":1})",
       .expected_json = R"({"input_cost_monthly_usd":0.1,"output_cost_monthly_usd":5})",
       .tolerance_pct = 0,
       .source = "provider-a's API pricing page, platform.claude.com/docs/en/docs/about-claude/"
                 "pricing, model table, row \"Claude Haiku 4.5\" (the catalog's Model C 4.5): "
                 "cache hits & refreshes $0.10 / MTok, output tokens $5 / MTok"},
      {.title = "Model B 4.6 through the batch API: 1 Mtok in, 1 Mtok out",
       .request_json = R"({"model":"provider-a/model-b-4.6","input_tokens_per_call":1000000,)"
                       R"("output_tokens_per_call":1000000,"calls_per_month":1,)"
                       R"("use_batch_api":true})",
       .expected_json = R"({"input_cost_monthly_usd":1.5,"output_cost_monthly_usd":7.5})",
       .tolerance_pct = 0,
       .source = "NeverPayTwice, \"Claude Batch API: half price, if you can wait\" "
                 "(dev.to/neverpaytwice/claude-batch-api-half-price-if-you-can-wait-ecg), batch "
                 "price table quoted from provider-a's batch processing page: Claude Sonnet 4.6 "
                 "$3 / $15 standard, $1.50 / $7.50 batch (input / output per million tokens)"},
      {.title = "Model A 4.7 list rates: 1 Mtok in, 1 Mtok out",
       .request_json = R"({"model":"provider-a/model-a-4.7","input_tokens_per_call":1000000,)"
                       R"("output_tokens_per_call":1000000,"calls_per_month":1})",
       .expected_json = R"({"input_cost_monthly_usd":5,"output_cost_monthly_usd":25})",
       .tolerance_pct = 0,
       .source = "provider-a's API pricing page, platform.claude.com/docs/en/about-claude/"
                 "pricing, model table, row \"Claude Opus 4.7\" (the catalog's Model A 4.7): "
                 "base input tokens $5 / MTok, output tokens $25 / MTok"},
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
  // = no_optim − cache_savings − monthly, written as (1 − b)·(cost after caching)
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
