#pragma once
// The limits of the API, in one place: the transport enforces the message sizes, the
// endpoints the rest, and the OpenAPI document states them from these same constants.
#include <cstddef>
#include <cstdint>

namespace toolcalc::api {

// A request's header block (→ 431 HEADERS_TOO_LARGE) and body (→ 413 PAYLOAD_TOO_LARGE,
// answered before the body is read). 64 KiB holds any tool's inputs many times over.
inline constexpr std::size_t kHeaderLimitBytes = 8 * 1024;
inline constexpr std::size_t kBodyLimitBytes = 64 * 1024;

// GET /v1/tools: items per page, and the highest page number accepted (a page past the
// last one is an empty page; past this bound, 400). The bound keeps (page - 1) * limit far
// inside int64_t, and no catalog has a million pages.
inline constexpr int64_t kDefaultPageSize = 20;
inline constexpr int64_t kMaxPageSize = 100;
inline constexpr int64_t kMaxPage = 1'000'000;

// Tolerance analyses and solves (docs/api.md, "Analyses"): one unit of the monthly quota
// per kEvaluationsPerQuotaUnit evaluations of the tool times its cost class
// (catalog::RegisteredTool::analysis_cost_class, docs/analysis.md "What an analysis
// costs"), at least one per call. Evaluations are at most 104,121 (12 toleranced inputs,
// 100,000 samples) and classes at most catalog::kMaxAnalysisCostClass, so the product stays
// below 2^27.
inline constexpr int64_t kEvaluationsPerQuotaUnit = 1000;
inline constexpr int64_t analysis_quota_units(int64_t evaluations, int64_t cost_class) {
  const int64_t cost = evaluations * cost_class;
  const int64_t units = (cost + kEvaluationsPerQuotaUnit - 1) / kEvaluationsPerQuotaUnit;
  return units < 1 ? 1 : units;
}
// Analyses that may wait for a thread of the analysis pool, per pool thread, over all keys;
// one more is answered 503 SERVER_BUSY. Above the per-key limit (server.analyses_per_key),
// so that keys at their own limit leave room for others.
inline constexpr int kAnalysisQueuePerThread = 16;

// A domain or a slug in a path: 1 to kMaxNameLength of [a-z0-9._-] (routes.cpp).
inline constexpr std::size_t kMaxNameLength = 64;

}  // namespace toolcalc::api
