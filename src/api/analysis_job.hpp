#pragma once
// One tolerance analysis or solve between its request (api/handlers/analyses.cpp: parsed,
// its quota units reserved) and its answer (Service::start_analysis and finish_analysis,
// api/analysis.cpp: run on the analysis pool or inline, answered on the reading thread).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "accounts/access_control.hpp"
#include "catalog/registry.hpp"
#include "core/api_error.hpp"

namespace toolcalc::api {

class SuspendedRequest;  // api/suspended_request.hpp

// What an analysis produced, filled by the work (on the pool or inline).
struct AnalysisOutcome {
  bool ok = false;
  ApiError error;           // !ok: the 422 (UNPROCESSABLE, NO_SOLUTION)
  std::string result_json;  // ok: the `result` object
  int64_t evaluations = 0;
  std::string defect;  // an exception escaped the work: a 500
};

struct AnalysisJob {
  const catalog::RegisteredTool* tool = nullptr;
  std::string what;         // "tolerance analysis", "solve": for messages
  int64_t evaluations = 0;  // what the quota reserves units for (at most)
  accounts::QuotaReservation quota;
  std::function<void(AnalysisOutcome&)> work;  // may run on a pool thread: owns its data
  AnalysisOutcome outcome;
  // The request waiting for it, once the pool took it (never read by the pool thread).
  std::shared_ptr<SuspendedRequest> request;
};

}  // namespace toolcalc::api
