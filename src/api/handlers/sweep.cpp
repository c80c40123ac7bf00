// POST {base}/v1/{domain}/{slug}/sweep: one tool run over a range of one numeric
// input. The body is validated once (api/sweep_request), `points` quota units are reserved
// up front, each point goes through the execute path's compute_result, and the unit of a
// point that produced no result (a 422 case) is given back. docs/api.md "Sweeps".
#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "api/execute.hpp"
#include "api/handlers/handlers.hpp"
#include "api/sweep_request.hpp"
#include "catalog/validate.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::api::handlers {

void sweep(HandlerEnv& env, ServiceContext& ctx) {
  const catalog::RegisteredTool& registered = *ctx.registered;  // dispatch found it
  const catalog::Tool& tool = registered.tool;
  if (!ctx.require_json_body("the sweep")) return;

  thread_local SweepRequest request;  // reused: keeps its capacity across requests
  ApiError error;
  if (!parse_sweep_request(tool.descriptor, ctx.req.body, request, error)) return ctx.fail(error);
  const auto points = static_cast<int64_t>(request.xs.size());

  const accounts::QuotaReservation quota = env.reserve_units(ctx, points);
  if (!quota.allowed) {
    ctx.res.set_header("Retry-After", std::to_string(std::max<int64_t>(1, quota.retry_after_s)));
    return ctx.fail({ErrorCode::QuotaExceeded,

                     "this sweep needs " + std::to_string(points) +
                         " executions (one per point) but the monthly quota of " +
                         std::to_string(quota.limit) + " has " + std::to_string(quota.remaining) +
                         " left; it resets at " + quota.resets_at,
                     {}});
  }

  std::string& body = ctx.res.body;
  body.reserve(256 + 160 * request.xs.size());
  body += env.bodies.of(registered).execute_prefix;
  body += R"({"key":)";
  append_json_string(body, request.input->key);
  body += R"(,"points":[)";

  int64_t failed = 0;
  try {
    catalog::Inputs inputs;
    for (size_t i = 0; i < request.xs.size(); ++i) {
      const double x = request.xs[i];
      set_number_member(request.inputs, request.input->key, x);
      inputs = {};
      // Cannot fail: the other inputs passed this check with xs[0], and x is in bounds.
      if (!catalog::validate_inputs(request.inputs, tool.descriptor, inputs, error))
        throw std::logic_error("sweep point failed validation: " + error.message);
      if (i) body += ',';
      body += R"({"x":)";
      JsonWriter(body).shortest(x);
      body += ',';
      const size_t mark = body.size();
      body += R"("result":)";
      if (compute_result(tool, inputs, body, error)) {
        body += '}';
        continue;
      }
      body.resize(mark);  // a 422 case: the point carries its error instead
      body += R"("error":)";
      JsonWriter w(body);
      w.begin_object().field("code", error.code_name()).field("message", error.message);
      if (!error.field.empty()) w.field("field", error.field);
      w.end_object();
      body += '}';
      ++failed;
    }
  } catch (...) {
    env.release_units(ctx, quota, points);
    throw;
  }
  if (failed) env.release_units(ctx, quota, failed);
  ctx.units_kept = points - failed;

  body += "]}";
  ctx.finish_execution(quota.unlimited ? std::nullopt
                                       : std::optional<int64_t>(quota.remaining + failed));
}

}  // namespace toolcalc::api::handlers
