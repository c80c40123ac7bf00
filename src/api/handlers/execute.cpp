// POST {base}/v1/{domain}/{slug}: one tool run, and run_tool, the execution path it shares
// with MCP's tools/call: validate (api/execute.hpp), reserve the quota unit, compute, render.
#include <algorithm>
#include <optional>

#include "api/execute.hpp"
#include "api/handlers/handlers.hpp"
#include "core/decimal.hpp"

namespace toolcalc::api::handlers {

bool run_tool(HandlerEnv& env, ServiceContext& ctx, const catalog::Tool& tool,
              std::string_view body, std::string& out, accounts::QuotaReservation& quota,
              ApiError& error) {
  catalog::Inputs inputs;
  if (!prepare_inputs(tool.descriptor, body, inputs, error)) {
    ctx.tool_status = error.status();
    return false;
  }

  if (ctx.early_quota) {
    quota = *ctx.early_quota;
    ctx.early_quota.reset();
  } else {
    quota = env.access.reserve_quota(ctx.caller, 1, ctx.counted);
  }
  ctx.note_quota(quota);
  if (!quota.allowed) {
    ctx.tool_status = 429;
    ctx.res.set_header("Retry-After", decimal_string(std::max<int64_t>(1, quota.retry_after_s)));
    error = {ErrorCode::QuotaExceeded,

             "monthly quota of " + decimal_string(quota.limit) +
                 " executions is used up; it resets at " + quota.resets_at,
             {}};
    return false;
  }
  const size_t mark = out.size();
  bool computed = false;
  try {
    computed = compute_result(tool, inputs, out, error);
  } catch (...) {
    env.release_units(ctx, quota, 1);
    ctx.tool_status = 500;
    throw;
  }
  if (!computed) {
    env.release_units(ctx, quota, 1);
    out.resize(mark);
    ctx.tool_status = error.status();
    return false;
  }
  ctx.tool_status = 200;
  ctx.units_kept = quota.units;
  return true;
}

void execute(HandlerEnv& env, ServiceContext& ctx) {
  const catalog::RegisteredTool& registered = *ctx.registered;  // dispatch found it
  const catalog::Tool& tool = registered.tool;
  if (!ctx.require_json_body("the inputs")) return;

  std::string& body = ctx.res.body;
  body.reserve(1024);  // the envelope of any tool's result (kept when the Response is reused)
  body += env.bodies.of(registered).execute_prefix;
  accounts::QuotaReservation quota;
  ApiError error;
  if (!run_tool(env, ctx, tool, ctx.req.body, body, quota, error)) return ctx.fail(error);
  ctx.finish_execution(quota.unlimited ? std::nullopt : std::optional<int64_t>(quota.remaining));
}

}  // namespace toolcalc::api::handlers
