// llm-api-cost-calculator: descriptor per spec §2.4, the rates of catalog/llm-pricing.toml
//, the worked examples of docs/tools/llm-api-cost-calculator.md
// (expected texts copied from that page), the pricing loader's refusals, and properties
// over random valid inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/programming-dev/llm_pricing.hpp"
#include "tools/tool_factories.hpp"
#include "tools/tool_test_support.hpp"

namespace toolcalc::tools {
namespace {

using catalog::InputType;
using catalog::OutputType;
using tool_test::compute_body;
using tool_test::expected_result;
using tool_test::RequestBody;
using tool_test::result_field;
using tool_test::run_tool;

const std::filesystem::path kCatalogDir = TOOLCALC_SOURCE_DIR "/catalog";

const catalog::Tool& tool() {
  static const catalog::Tool t = make_llm_api_cost_calculator(ToolContext{kCatalogDir});
  return t;
}

std::string body(const std::string& model, double in_tokens, double out_tokens, double calls,
                 double cached, bool batch) {
  return RequestBody()
      .text("model", model)
      .number("input_tokens_per_call", in_tokens)
      .number("output_tokens_per_call", out_tokens)
      .number("calls_per_month", calls)
      .number("cached_input_fraction", cached)
      .boolean("use_batch_api", batch)
      .json();
}

// ---------------------------------------------------------------------------------------
// Descriptor

TEST(LlmApiCostCalculator, DescriptorMatchesSpec) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "llm-api-cost-calculator");
  EXPECT_EQ(d.domain, "programming-dev");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_EQ(d.name, "LLM API Cost Calculator");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {.key = "model",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("provider-a/model-b-4.6"),
              .required = false,
              .options = {"provider-a/model-a-4.7", "provider-a/model-b-4.6",
                          "provider-a/model-c-4.5", "provider-b/model-5.5", "provider-b/model-5.4",
                          "provider-b/model-5.4-mini", "provider-b/model-5.4-nano",
                          "provider-b/model-5", "provider-b/model-5-mini", "provider-b/model-4.1",
                          "provider-b/model-4.1-mini", "provider-b/model-4o-mini"}},
             {"input_tokens_per_call", InputType::Integer, "tok", 1, 1000000, 100, 2000.0},
             {"output_tokens_per_call", InputType::Integer, "tok", 1, 1000000, 50, 500.0},
             {"calls_per_month", InputType::Integer, "", 1, 1000000000, 1000, 100000.0},
             {"cached_input_fraction", InputType::Number, "fraction 0..1", 0, 1, 0.05, 0.0, false},
             {.key = "use_batch_api",
              .type = InputType::Boolean,
              .unit = std::nullopt,
              .default_value = false,
              .required = false},
         });
  tool_test::expect_outputs(
      d,
      {
          {"model_name", OutputType::String, std::nullopt},
          {.key = "provider",
           .type = OutputType::String,
           .unit = std::nullopt,
           .options = {"provider-a", "provider-b"}},
          {"monthly_cost_usd", OutputType::Number, "$", 2},
          {"cost_per_call_usd", OutputType::Number, "$", 5},
          {"input_cost_monthly_usd", OutputType::Number, "$", 2},
          {"output_cost_monthly_usd", OutputType::Number, "$", 2},
          {"monthly_cost_no_optim_usd", OutputType::Number, "$ (cost without cache or batch)", 2},
          {"cache_savings_usd", OutputType::Number, "$ per month", 2},
          {"batch_savings_usd", OutputType::Number, "$ per month", 2},
          {"effective_input_rate_per_mtok", OutputType::Number, "$/Mtok", 3},
          {"effective_output_rate_per_mtok", OutputType::Number, "$/Mtok", 3},
          {"pricing_as_of", OutputType::String, std::nullopt},
      });
}

// ---------------------------------------------------------------------------------------
// Rates

TEST(LlmPricing, CatalogFileHasEveryModelOfTheIssue) {
  const LlmPricing p = load_llm_pricing(kCatalogDir / "llm-pricing.toml");
  EXPECT_EQ(p.pricing_as_of, "2026-11-01");
  struct Row {
    const char* id;
    const char* name;
    const char* provider;
    double in, cached, out;
  };
  const std::vector<Row> rows = {
      {"provider-a/model-a-4.7", "Model A 4.7", "provider-a", 5.00, 0.50, 25.00},
      {"provider-a/model-b-4.6", "Model B 4.6", "provider-a", 3.00, 0.30, 15.00},
      {"provider-a/model-c-4.5", "Model C 4.5", "provider-a", 1.00, 0.10, 5.00},
      {"provider-b/model-5.5", "Model 5.5", "provider-b", 5.00, 0.50, 30.00},
      {"provider-b/model-5.4", "Model 5.4", "provider-b", 2.50, 0.25, 15.00},
      {"provider-b/model-5.4-mini", "Model 5.4 mini", "provider-b", 0.75, 0.075, 4.50},
      {"provider-b/model-5.4-nano", "Model 5.4 nano", "provider-b", 0.20, 0.02, 1.25},
      {"provider-b/model-5", "Model 5", "provider-b", 1.25, 0.125, 10.00},
      {"provider-b/model-5-mini", "Model 5 mini", "provider-b", 0.25, 0.025, 2.00},
      {"provider-b/model-4.1", "Model 4.1", "provider-b", 2.00, 0.50, 8.00},
      {"provider-b/model-4.1-mini", "Model 4.1 mini", "provider-b", 0.40, 0.10, 1.60},
      {"provider-b/model-4o-mini", "Model 4o mini", "provider-b", 0.15, 0.075, 0.60},
  };
  ASSERT_EQ(p.models.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE(rows[i].id);
    const auto& m = p.models[i];
    EXPECT_EQ(m.id, rows[i].id);
    EXPECT_EQ(m.model_name, rows[i].name);
    EXPECT_EQ(m.provider, rows[i].provider);
    EXPECT_EQ(m.input_per_mtok, rows[i].in);
    EXPECT_EQ(m.cached_input_per_mtok, rows[i].cached);
    EXPECT_EQ(m.output_per_mtok, rows[i].out);
    EXPECT_EQ(p.find(rows[i].id), &m);
  }
  EXPECT_EQ(p.find("provider-b/model-unknown"), nullptr);
}

// docs: "Every model at the default workload". Through the real path, so each model's three
// rates reach the result.
TEST(LlmApiCostCalculator, EveryModelAtTheDefaultWorkload) {
  struct Row {
    const char* model;
    const char* name;
    const char* provider;
    const char* monthly;
    const char* per_call;
    const char* monthly_cached;
    const char* cache_savings;
    const char* monthly_cached_batch;
  };
  const std::vector<Row> rows = {
      {"provider-a/model-a-4.7", "Model A 4.7", "provider-a", "2250.00", "0.02250", "1350.00",
       "900.00", "675.00"},
      {"provider-a/model-b-4.6", "Model B 4.6", "provider-a", "1350.00", "0.01350", "810.00",
       "540.00", "405.00"},
      {"provider-a/model-c-4.5", "Model C 4.5", "provider-a", "450.00", "0.00450", "270.00",
       "180.00", "135.00"},
      {"provider-b/model-5.5", "Model 5.5", "provider-b", "2500.00", "0.02500", "1600.00", "900.00",
       "800.00"},
      {"provider-b/model-5.4", "Model 5.4", "provider-b", "1250.00", "0.01250", "800.00", "450.00",
       "400.00"},
      {"provider-b/model-5.4-mini", "Model 5.4 mini", "provider-b", "375.00", "0.00375", "240.00",
       "135.00", "120.00"},
      {"provider-b/model-5.4-nano", "Model 5.4 nano", "provider-b", "102.50", "0.00103", "66.50",
       "36.00", "33.25"},
      {"provider-b/model-5", "Model 5", "provider-b", "750.00", "0.00750", "525.00", "225.00",
       "262.50"},
      {"provider-b/model-5-mini", "Model 5 mini", "provider-b", "150.00", "0.00150", "105.00",
       "45.00", "52.50"},
      {"provider-b/model-4.1", "Model 4.1", "provider-b", "800.00", "0.00800", "500.00", "300.00",
       "250.00"},
      {"provider-b/model-4.1-mini", "Model 4.1 mini", "provider-b", "160.00", "0.00160", "100.00",
       "60.00", "50.00"},
      {"provider-b/model-4o-mini", "Model 4o mini", "provider-b", "60.00", "0.00060", "45.00",
       "15.00", "22.50"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.model);
    const std::string plain = run_tool(tool(), body(r.model, 2000, 500, 100000, 0, false));
    EXPECT_EQ(result_field(plain, "model_name"), r.name);
    EXPECT_EQ(result_field(plain, "provider"), r.provider);
    EXPECT_EQ(result_field(plain, "monthly_cost_usd"), r.monthly);
    EXPECT_EQ(result_field(plain, "monthly_cost_no_optim_usd"), r.monthly);
    EXPECT_EQ(result_field(plain, "cost_per_call_usd"), r.per_call);
    const std::string cached = run_tool(tool(), body(r.model, 2000, 500, 100000, 1, false));
    EXPECT_EQ(result_field(cached, "monthly_cost_usd"), r.monthly_cached);
    EXPECT_EQ(result_field(cached, "cache_savings_usd"), r.cache_savings);
    const std::string both = run_tool(tool(), body(r.model, 2000, 500, 100000, 1, true));
    EXPECT_EQ(result_field(both, "monthly_cost_usd"), r.monthly_cached_batch);
  }
}

// ---------------------------------------------------------------------------------------
// Worked examples (docs table, E1–E12)

struct WorkedExample {
  const char* name;
  const char* model;
  const char* model_name;
  const char* provider;
  double in_tokens, out_tokens, calls, cached;
  bool batch;
  // monthly, per call, input, output, no optim, cache savings, batch savings, eff in, eff out
  std::vector<std::string> numbers;
};

const std::vector<WorkedExample>& worked_examples() {
  static const std::vector<WorkedExample> examples = {
      {"E1 defaults",
       "provider-a/model-b-4.6",
       "Model B 4.6",
       "provider-a",
       2000,
       500,
       100000,
       0,
       false,
       {"1350.00", "0.01350", "600.00", "750.00", "1350.00", "0.00", "0.00", "3.000", "15.000"}},
      {"E2 lower bounds",
       "provider-a/model-b-4.6",
       "Model B 4.6",
       "provider-a",
       1,
       1,
       1,
       0,
       false,
       {"0.00", "0.00002", "0.00", "0.00", "0.00", "0.00", "0.00", "3.000", "15.000"}},
      {"E3 upper bounds",
       "provider-b/model-5.5",
       "Model 5.5",
       "provider-b",
       1000000,
       1000000,
       1000000000,
       0,
       false,
       {"35000000000.00", "35.00000", "5000000000.00", "30000000000.00", "35000000000.00", "0.00",
        "0.00", "5.000", "30.000"}},
      {"E4 upper bounds, cache 1, batch",
       "provider-a/model-a-4.7",
       "Model A 4.7",
       "provider-a",
       1000000,
       1000000,
       1000000000,
       1,
       true,
       {"12750000000.00", "12.75000", "250000000.00", "12500000000.00", "30000000000.00",
        "4500000000.00", "12750000000.00", "0.250", "12.500"}},
      {"E5 cache 1",
       "provider-a/model-b-4.6",
       "Model B 4.6",
       "provider-a",
       2000,
       500,
       100000,
       1,
       false,
       {"810.00", "0.00810", "60.00", "750.00", "1350.00", "540.00", "0.00", "0.300", "15.000"}},
      {"E6 batch only",
       "provider-a/model-b-4.6",
       "Model B 4.6",
       "provider-a",
       2000,
       500,
       100000,
       0,
       true,
       {"675.00", "0.00675", "300.00", "375.00", "1350.00", "0.00", "675.00", "1.500", "7.500"}},
      {"E7 half cached + batch",
       "provider-a/model-b-4.6",
       "Model B 4.6",
       "provider-a",
       2000,
       500,
       100000,
       0.5,
       true,
       {"540.00", "0.00540", "165.00", "375.00", "1350.00", "270.00", "540.00", "0.825", "7.500"}},
      {"E8 4o mini",
       "provider-b/model-4o-mini",
       "Model 4o mini",
       "provider-b",
       1500,
       300,
       250000,
       0.4,
       false,
       {"90.00", "0.00036", "45.00", "45.00", "101.25", "11.25", "0.00", "0.120", "0.600"}},
      {"E9 4.1",
       "provider-b/model-4.1",
       "Model 4.1",
       "provider-b",
       8000,
       1000,
       30000,
       0.7,
       true,
       {"234.00", "0.00780", "114.00", "120.00", "720.00", "252.00", "234.00", "0.475", "4.000"}},
      {"E10 5.4 mini, uneven",
       "provider-b/model-5.4-mini",
       "Model 5.4 mini",
       "provider-b",
       3700,
       850,
       12345,
       0.35,
       true,
       {"35.34", "0.00286", "11.73", "23.61", "81.48", "10.79", "35.34", "0.257", "2.250"}},
      {"E11 4.1 mini",
       "provider-b/model-4.1-mini",
       "Model 4.1 mini",
       "provider-b",
       12000,
       400,
       7000,
       0.25,
       false,
       {"31.78", "0.00454", "27.30", "4.48", "38.08", "6.30", "0.00", "0.325", "1.600"}},
      {"E12 Model 5",
       "provider-b/model-5",
       "Model 5",
       "provider-b",
       6400,
       1200,
       45000,
       0.85,
       false,
       {"624.60", "0.01388", "84.60", "540.00", "900.00", "275.40", "0.00", "0.294", "10.000"}},
  };
  return examples;
}

TEST(LlmApiCostCalculator, WorkedExamplesFromTheDocPage) {
  for (const auto& ex : worked_examples()) {
    SCOPED_TRACE(ex.name);
    std::vector<std::string> texts = {ex.model_name, ex.provider};
    texts.insert(texts.end(), ex.numbers.begin(), ex.numbers.end());
    texts.push_back("2026-11-01");
    EXPECT_EQ(run_tool(tool(),
                       body(ex.model, ex.in_tokens, ex.out_tokens, ex.calls, ex.cached, ex.batch)),
              expected_result(tool(), texts));
  }
}

TEST(LlmApiCostCalculator, OmittedOptionalInputsTakeTheirDefaults) {
  // Only the three required inputs: model-b-4.6, no cache, no batch (example E1).
  const std::string only_required = RequestBody()
                                        .number("input_tokens_per_call", 2000)
                                        .number("output_tokens_per_call", 500)
                                        .number("calls_per_month", 100000)
                                        .json();
  EXPECT_EQ(run_tool(tool(), only_required),
            expected_result(tool(),
                            {"Model B 4.6", "provider-a", "1350.00", "0.01350", "600.00", "750.00",
                             "1350.00", "0.00", "0.00", "3.000", "15.000", "2026-11-01"}));
}

TEST(LlmApiCostCalculator, InvalidInputsAreRejectedByValidation) {
  EXPECT_EQ(run_tool(tool(), body("provider-c/model-x", 2000, 500, 100000, 0, false))
                .rfind("400:model:model must be one of: provider-a/model-a-4.7, ", 0),
            0u);
  EXPECT_EQ(run_tool(tool(), body("provider-a/model-b-4.6", 2000.5, 500, 100000, 0, false))
                .rfind("400:input_tokens_per_call:", 0),
            0u);
  EXPECT_EQ(run_tool(tool(), body("provider-a/model-b-4.6", 2000, 0, 100000, 0, false))
                .rfind("400:output_tokens_per_call:", 0),
            0u);
  EXPECT_EQ(run_tool(tool(), body("provider-a/model-b-4.6", 2000, 500, 1e9 + 1, 0, false))
                .rfind("400:calls_per_month:", 0),
            0u);
  EXPECT_EQ(run_tool(tool(), body("provider-a/model-b-4.6", 2000, 500, 100000, 1.05, false))
                .rfind("400:cached_input_fraction:", 0),
            0u);
  EXPECT_EQ(run_tool(tool(), R"({"output_tokens_per_call":500,"calls_per_month":1000})")
                .rfind("400:input_tokens_per_call:input_tokens_per_call is required", 0),
            0u);
  EXPECT_EQ(run_tool(tool(), R"({"input_tokens_per_call":1,"output_tokens_per_call":1,)"
                             R"("calls_per_month":1,"use_batch_api":"yes"})")
                .rfind("400:use_batch_api:", 0),
            0u);
}

// ---------------------------------------------------------------------------------------
// An operator's pricing file is read at start-up: no rebuild, and its problems stop it.

class LlmPricingCatalogDir : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("toolcalc-llm-pricing-" + std::string(info->name()) + "-" +
            std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& text) {
    std::ofstream(dir_ / "llm-pricing.toml", std::ios::binary) << text;
  }
  std::filesystem::path dir_;
};

TEST_F(LlmPricingCatalogDir, ToolUsesTheFileOfItsCatalogDir) {
  write(R"toml(pricing_as_of = "2027-01-15"
[[model]]
id = "provider-b/model-x"
model_name = "Model X"
provider = "provider-b"
input_per_mtok = 1
cached_input_per_mtok = 0.5
output_per_mtok = 2
[[model]]
id = "provider-a/model-b-4.6"
model_name = "Model B 4.6 (repriced)"
provider = "provider-a"
input_per_mtok = 6.0
cached_input_per_mtok = 0.6
output_per_mtok = 30.0
)toml");
  const catalog::Tool t = make_llm_api_cost_calculator(ToolContext{dir_});
  EXPECT_EQ(t.descriptor.inputs[0].options,
            (std::vector<std::string>{"provider-b/model-x", "provider-a/model-b-4.6"}));
  EXPECT_EQ(
      run_tool(t, body("provider-a/model-b-4.6", 2000, 500, 100000, 0, false)),
      expected_result(t, {"Model B 4.6 (repriced)", "provider-a", "2700.00", "0.02700", "1200.00",
                          "1500.00", "2700.00", "0.00", "0.00", "6.000", "30.000", "2027-01-15"}));
}

TEST_F(LlmPricingCatalogDir, MissingFileStopsStartUpNamingTheFile) {
  try {
    make_llm_api_cost_calculator(ToolContext{dir_});
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find((dir_ / "llm-pricing.toml").string()), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
  }
}

TEST_F(LlmPricingCatalogDir, MalformedFileStopsStartUpNamingTheFile) {
  write("pricing_as_of = \"2026-11-01\"\n[[model]\n");
  try {
    make_llm_api_cost_calculator(ToolContext{dir_});
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind((dir_ / "llm-pricing.toml").string() + ": ", 0), 0u) << what;
    EXPECT_NE(what.find("line 2"), std::string::npos) << what;
  }
}

// A valid two-model file; each refusal test changes one thing.
std::string model_table(const std::string& id, const std::string& provider, const std::string& in,
                        const std::string& cached, const std::string& out) {
  return "[[model]]\nid = \"" + id + "\"\nmodel_name = \"Name of " + id + "\"\nprovider = \"" +
         provider + "\"\ninput_per_mtok = " + in + "\ncached_input_per_mtok = " + cached +
         "\noutput_per_mtok = " + out + "\n";
}

const std::string kAsOf = "pricing_as_of = \"2026-11-01\"\n";
const std::string kDefaultModel =
    model_table("provider-a/model-b-4.6", "provider-a", "3.00", "0.30", "15.00");

std::string error_of(const std::string& toml) {
  try {
    parse_llm_pricing(toml, "test.toml");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

// Each listed fragment must be in the message.
void expect_error(const std::string& toml, const std::vector<std::string>& fragments) {
  const std::string message = error_of(toml);
  EXPECT_EQ(message.rfind("test.toml: ", 0), 0u) << message;
  for (const auto& f : fragments) EXPECT_NE(message.find(f), std::string::npos) << message;
}

TEST(LlmPricing, ParsesAValidFile) {
  const LlmPricing p = parse_llm_pricing(
      kAsOf + kDefaultModel +
          model_table("provider-b/model-4o-mini", "provider-b", "0.15", "0.075", "1"),
      "test.toml");
  EXPECT_EQ(p.pricing_as_of, "2026-11-01");
  ASSERT_EQ(p.models.size(), 2u);
  EXPECT_EQ(p.models[1].model_name, "Name of provider-b/model-4o-mini");
  EXPECT_EQ(p.models[1].output_per_mtok, 1.0);  // a TOML integer is a rate too
  EXPECT_EQ(p.models[1].cached_input_per_mtok, 0.075);
}

TEST(LlmPricing, AcceptsAnUnquotedTomlDate) {
  EXPECT_EQ(parse_llm_pricing("pricing_as_of = 2026-11-01\n" + kDefaultModel, "t").pricing_as_of,
            "2026-11-01");
}

TEST(LlmPricing, RejectsMalformedToml) {
  expect_error(kAsOf + kDefaultModel + "input_per_mtok = = 3\n", {"line 9"});
  expect_error("pricing_as_of = \"2026-11-01\n", {"line 1"});
}

TEST(LlmPricing, RejectsAMissingField) {
  std::string toml = kAsOf + kDefaultModel;
  toml.erase(toml.find("cached_input_per_mtok = 0.30\n"), 29);
  expect_error(toml, {"provider-a/model-b-4.6", "missing cached_input_per_mtok"});
  expect_error(kDefaultModel, {"missing pricing_as_of"});
  expect_error(kAsOf + "[[model]]\nmodel_name = \"x\"\n", {"model #1", "missing id"});
  expect_error(kAsOf, {"no [[model]] tables"});
}

TEST(LlmPricing, RejectsANegativeRate) {
  expect_error(kAsOf + kDefaultModel +
                   model_table("provider-b/model-5", "provider-b", "1.25", "0.125", "-10"),
               {"provider-b/model-5", "output_per_mtok", "negative"});
}

TEST(LlmPricing, RejectsANonNumericOrNonFiniteRate) {
  expect_error(kAsOf + kDefaultModel +
                   model_table("provider-b/model-5", "provider-b", "\"1.25\"", "0.125", "10"),
               {"provider-b/model-5", "input_per_mtok", "must be a number", "string"});
  expect_error(kAsOf + kDefaultModel +
                   model_table("provider-b/model-5", "provider-b", "true", "0.125", "10"),
               {"input_per_mtok", "must be a number", "boolean"});
  expect_error(
      kAsOf + kDefaultModel + model_table("provider-b/model-5", "provider-b", "inf", "0.125", "10"),
      {"input_per_mtok", "finite"});
  expect_error(
      kAsOf + kDefaultModel + model_table("provider-b/model-5", "provider-b", "nan", "0.125", "10"),
      {"input_per_mtok", "finite"});
}

TEST(LlmPricing, RejectsCachedAboveInput) {
  expect_error(
      kAsOf + kDefaultModel + model_table("provider-b/model-4.1", "provider-b", "2", "3", "8"),
      {"provider-b/model-4.1", "cached_input_per_mtok (3)", "greater than input_per_mtok (2)"});
}

TEST(LlmPricing, RejectsADuplicateModel) {
  expect_error(
      kAsOf + kDefaultModel + model_table("provider-a/model-b-4.6", "provider-a", "3", "0.3", "15"),
      {"duplicate model provider-a/model-b-4.6"});
}

TEST(LlmPricing, RejectsAnUnknownProviderOrAMismatchedId) {
  expect_error(
      kAsOf + kDefaultModel + model_table("provider-c/model-1", "provider-c", "1", "0.1", "2"),
      {"provider-c/model-1", "unknown provider \"provider-c\""});
  expect_error(
      kAsOf + kDefaultModel + model_table("provider-a/model-1", "provider-b", "1", "0.1", "2"),
      {"provider-a/model-1", "id must be \"provider-b/<model>\""});
}

TEST(LlmPricing, RejectsABadPricingDate) {
  for (const char* date : {"\"2026-13-01\"", "\"2026-02-30\"", "\"1 Nov 2026\"", "\"2026-11-1\"",
                           "20261101", "2026-11-01T10:00:00Z"}) {
    SCOPED_TRACE(date);
    expect_error(std::string("pricing_as_of = ") + date + "\n" + kDefaultModel, {"pricing_as_of"});
  }
  expect_error("pricing_as_of = \"2026-02-29\"\n" + kDefaultModel,
               {"not a real calendar date", "YYYY-MM-DD"});
  EXPECT_EQ(
      parse_llm_pricing("pricing_as_of = \"2028-02-29\"\n" + kDefaultModel, "t").pricing_as_of,
      "2028-02-29");  // leap year
}

TEST(LlmPricing, RejectsAFileWithoutTheDefaultModel) {
  expect_error(kAsOf + model_table("provider-b/model-5", "provider-b", "1.25", "0.125", "10"),
               {"default model provider-a/model-b-4.6 is missing"});
}

TEST(LlmPricing, RejectsUnknownKeys) {
  expect_error(kAsOf + "currency = \"USD\"\n" + kDefaultModel, {"unknown top-level key currency"});
  std::string typo = kAsOf + kDefaultModel;
  typo.replace(typo.find("output_per_mtok"), 15, "output_per_mtoks");
  expect_error(typo, {"provider-a/model-b-4.6", "unknown field output_per_mtoks"});
  expect_error(kAsOf + "[model]\nid = \"provider-a/model-b-4.6\"\n", {"[[model]]"});
}

// ---------------------------------------------------------------------------------------
// Properties over random valid inputs

struct Draw {
  std::string model;
  double in_tokens, out_tokens, calls, cached;
  bool batch;
};

Draw draw(std::mt19937& rng, double max_calls) {
  const auto& inputs = tool().descriptor.inputs;
  Draw d;
  d.model = inputs[0].options[std::uniform_int_distribution<size_t>(0, 11)(rng)];
  d.in_tokens = std::round(tool_test::draw_number(inputs[1], rng));
  d.out_tokens = std::round(tool_test::draw_number(inputs[2], rng));
  catalog::InputDescriptor calls = inputs[3];
  calls.max = max_calls;
  d.calls = std::round(tool_test::draw_number(calls, rng));
  d.cached = std::bernoulli_distribution(0.2)(rng)
                 ? std::uniform_int_distribution<int>(0, 1)(rng)  // the ends too
                 : tool_test::draw_number(inputs[4], rng);
  d.batch = std::bernoulli_distribution(0.5)(rng);
  return d;
}

catalog::Outputs outputs_of(const Draw& d, double calls) {
  auto result =
      compute_body(tool(), body(d.model, d.in_tokens, d.out_tokens, calls, d.cached, d.batch));
  return std::get<catalog::Outputs>(result);
}

const std::vector<std::string> kNumberOutputs = {"monthly_cost_usd",
                                                 "cost_per_call_usd",
                                                 "input_cost_monthly_usd",
                                                 "output_cost_monthly_usd",
                                                 "monthly_cost_no_optim_usd",
                                                 "cache_savings_usd",
                                                 "batch_savings_usd",
                                                 "effective_input_rate_per_mtok",
                                                 "effective_output_rate_per_mtok"};

TEST(LlmApiCostCalculator, PropertyCostIsLinearInCalls) {
  std::mt19937 rng(20261101);
  for (int i = 0; i < 2000; ++i) {
    const double k = std::uniform_int_distribution<int>(2, 1000)(rng);
    const Draw d = draw(rng, 1e9 / k);
    SCOPED_TRACE(body(d.model, d.in_tokens, d.out_tokens, d.calls, d.cached, d.batch) +
                 " k=" + std::to_string(k));
    const auto one = outputs_of(d, d.calls);
    const auto many = outputs_of(d, k * d.calls);
    for (const char* key :
         {"monthly_cost_usd", "input_cost_monthly_usd", "output_cost_monthly_usd",
          "monthly_cost_no_optim_usd", "cache_savings_usd", "batch_savings_usd"}) {
      const double expected = k * one.number(key);
      EXPECT_NEAR(many.number(key), expected, 1e-9 * std::fabs(expected)) << key;
    }
    // Per-call cost and effective rates do not depend on the volume.
    for (const char* key :
         {"cost_per_call_usd", "effective_input_rate_per_mtok", "effective_output_rate_per_mtok"})
      EXPECT_NEAR(many.number(key), one.number(key), 1e-9 * one.number(key)) << key;
  }
}

int64_t cents(const std::string& rendered) {
  const size_t dot = rendered.find('.');
  EXPECT_EQ(dot, rendered.size() - 3) << rendered;  // precision 2
  return std::stoll(rendered.substr(0, dot)) * 100 + std::stoll(rendered.substr(dot + 1));
}

TEST(LlmApiCostCalculator, PropertySavingsAddUpToTheCent) {
  std::mt19937 rng(42);
  for (int i = 0; i < 3000; ++i) {
    const Draw d = draw(rng, 1e9);
    const std::string request =
        body(d.model, d.in_tokens, d.out_tokens, d.calls, d.cached, d.batch);
    SCOPED_TRACE(request);
    // Unrounded: exact up to floating-point rounding.
    const auto out = outputs_of(d, d.calls);
    const double no_optim = out.number("monthly_cost_no_optim_usd");
    EXPECT_NEAR(out.number("cache_savings_usd") + out.number("batch_savings_usd"),
                no_optim - out.number("monthly_cost_usd"), 1e-12 * no_optim);
    // Rendered: each amount is rounded on its own, so the sides may differ by one cent,
    // never more (docs: Formulas).
    const std::string r = run_tool(tool(), request);
    const int64_t saved =
        cents(result_field(r, "cache_savings_usd")) + cents(result_field(r, "batch_savings_usd"));
    const int64_t difference = cents(result_field(r, "monthly_cost_no_optim_usd")) -
                               cents(result_field(r, "monthly_cost_usd"));
    EXPECT_LE(std::llabs(saved - difference), 1);
  }
}

TEST(LlmApiCostCalculator, PropertyOutputsAreFiniteAndNonNegative) {
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i) {
    const Draw d = draw(rng, 1e9);
    SCOPED_TRACE(body(d.model, d.in_tokens, d.out_tokens, d.calls, d.cached, d.batch));
    const auto out = outputs_of(d, d.calls);
    for (const auto& key : kNumberOutputs) {
      const double v = out.number(key);
      EXPECT_TRUE(std::isfinite(v)) << key;
      EXPECT_GE(v, 0.0) << key;
    }
    EXPECT_LE(out.number("monthly_cost_usd"),
              out.number("monthly_cost_no_optim_usd") * (1 + 1e-12));
    if (!d.batch) {
      EXPECT_EQ(out.number("batch_savings_usd"), 0.0);
    }
    if (d.cached == 0) {
      EXPECT_EQ(out.number("cache_savings_usd"), 0.0);
    }
  }
}

TEST(LlmApiCostCalculator, PropertyRandomBodiesAlwaysRender) {
  std::mt19937 rng(3);
  for (int i = 0; i < 1000; ++i) {
    const std::string request = tool_test::random_body(tool(), rng);
    const std::string r = run_tool(tool(), request);
    ASSERT_EQ(r.front(), '{') << request << " → " << r;
    for (const auto& key : kNumberOutputs)
      EXPECT_NE(result_field(r, key).front(), '-') << request << " → " << r;
  }
}

}  // namespace
}  // namespace toolcalc::tools
