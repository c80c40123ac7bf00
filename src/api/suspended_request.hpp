#pragma once
// The one way a request waits (docs/architecture.md, "A request's path"): for its rate step
// on a shared store, for the analysis pool, for the group commit of the units it counted.
// The first wait moves the request's context off the serving thread's stack into a
// SuspendedRequest, where it stays through every later wait until it is answered; whoever
// it waits for holds it, and each wait ends in Service::resume, on the thread that read
// the request. Private to src/api (service.cpp, analysis.cpp).
//
// Made per request on the serving thread and freed a group commit's batch at a time:
// allocated with RecycledAllocator (core/recycled.hpp).
#include <exception>
#include <memory>
#include <utility>

#include "accounts/access_control.hpp"
#include "api/service.hpp"
#include "api/service_context.hpp"

namespace toolcalc::api {

class SuspendedRequest final : public accounts::Suspended,
                               public std::enable_shared_from_this<SuspendedRequest> {
 public:
  // What the request waits for, and so where Service::resume takes it up.
  enum class Wait { RateStep, Analysis, Durability };

  // The request of `ctx`, moved here the first time it waits; the same one again after.
  // `ctx` is left to its caller only to unwind: it is no longer the request.
  static std::shared_ptr<SuspendedRequest> of(Service& service, ServiceContext& ctx);

  SuspendedRequest(Service& service, ServiceContext&& context)
      : ctx(std::move(context)), service_(service) {}

  void rate_step_taken(accounts::RateStep&& step, std::exception_ptr failure) override {
    waited_for = Wait::RateStep;
    rate_step = std::move(step);
    rate_step_failure = failure;
    service_.resume(*this);
  }
  void units_durable(bool stored) override {
    waited_for = Wait::Durability;
    durable = stored;
    service_.resume(*this);
  }
  // On the reading thread's event loop once the pool has run `job` (AnalysisPool::submit).
  void analysis_done(std::shared_ptr<AnalysisJob> job) {
    waited_for = Wait::Analysis;
    analysis = std::move(job);
    service_.resume(*this);
  }

  ServiceContext ctx;
  Wait waited_for = Wait::RateStep;
  // What it waited for, as it came.
  accounts::RateStep rate_step;
  std::exception_ptr rate_step_failure;
  std::shared_ptr<AnalysisJob> analysis;
  bool durable = true;

 private:
  Service& service_;
};

// What a request on the stack hands the AccessControl calls that may make it wait.
class RequestSuspender final : public accounts::Suspendable {
 public:
  RequestSuspender(Service& service, ServiceContext& ctx) : service_(service), ctx_(ctx) {}
  std::shared_ptr<accounts::Suspended> suspend() override {
    return SuspendedRequest::of(service_, ctx_);
  }

 private:
  Service& service_;
  ServiceContext& ctx_;
};

}  // namespace toolcalc::api
