// POST {base}/mcp: one JSON-RPC message of the Model Context Protocol (Streamable HTTP,
// JSON responses only; docs/api.md, "MCP"). tools/call runs the execute path (run_tool) or
// an analysis (mcp_analysis); what needs no request (tool names, tools/list, the Origin
// rule, the JSON-RPC bodies) is api/mcp.cpp.
#include <boost/json.hpp>

#include <cmath>
#include <optional>

#include "api/handlers/handlers.hpp"
#include "api/mcp.hpp"
#include "catalog/json_body.hpp"
#include "core/json_writer.hpp"
#include "core/secret_redaction.hpp"

namespace toolcalc::api::handlers {
namespace {

namespace json = boost::json;

constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;

// Protocol errors quote what the client sent (a header, a method, a tool name, a member):
// a key pasted there keeps only its prefix, as in every other error (api/envelope.cpp).
std::string rpc_error(std::string_view id_json, int code, std::string_view message) {
  std::string s, scratch;
  JsonWriter w(s);
  w.begin_object().field("jsonrpc", "2.0").key("id").raw(id_json);
  w.key("error").begin_object().field("code", code);
  w.field("message", without_keys(message, scratch)).end_object();
  w.end_object();
  return s;
}

std::string rpc_result(std::string_view id_json, std::string_view result_json) {
  std::string s;
  s.reserve(48 + result_json.size());
  JsonWriter w(s);
  w.begin_object().field("jsonrpc", "2.0").key("id").raw(id_json);
  w.key("result").raw(result_json).end_object();
  return s;
}

std::string_view negotiate(std::string_view requested) {
  for (auto v : mcp::kProtocolVersions)
    if (v == requested) return v;
  return mcp::kProtocolVersions[0];
}

// `v` as JSON text for the REST body parser. Boost.JSON 1.81 writes an infinite double (a
// number past the double range in the message, catalog::parse_json) as `Infinity`, which is
// not JSON; here it is written as 1e999, which the REST parser reads back as the same
// infinity, so that the field's check answers "must be a finite number" as on REST.
void append_json(std::string& out, const json::value& v) {
  if (v.is_object()) {
    out += '{';
    bool first = true;
    for (const auto& [key, member] : v.get_object()) {
      if (!first) out += ',';
      first = false;
      out += json::serialize(json::string_view(key));
      out += ':';
      append_json(out, member);
    }
    out += '}';
  } else if (v.is_array()) {
    out += '[';
    bool first = true;
    for (const auto& item : v.get_array()) {
      if (!first) out += ',';
      first = false;
      append_json(out, item);
    }
    out += ']';
  } else if (v.is_double() && !std::isfinite(v.get_double())) {
    out += v.get_double() < 0 ? "-1e999" : "1e999";
  } else {
    out += json::serialize(v);
  }
}

std::string to_json(const json::value& v) {
  std::string out;
  append_json(out, v);
  return out;
}

// A JSON-RPC id is a string or an integer (MCP: never null; fractions are not ids).
bool valid_id(const json::value& id) {
  return id.is_string() || id.is_int64() || id.is_uint64();
}

// tools/call of tolerance_analysis or solve_for_input (below).
void mcp_analysis_call(HandlerEnv& env, ServiceContext& ctx, const json::object& params,
                       bool tolerance, const ApiError* repeated_argument);

}  // namespace

void mcp_endpoint(HandlerEnv& env, ServiceContext& ctx) {
  Response& res = ctx.res;
  auto reply = [&](int status, std::string body) {
    res.status = status;
    res.body = std::move(body);
  };

  // Transport rules first: DNS-rebinding guard, then the media type.
  if (!mcp::origin_allowed(ctx.req.origin, env.options.mcp_allowed_origins))
    return ctx.fail(
        {ErrorCode::Forbidden,

         "origin '" + std::string(ctx.req.origin.substr(0, 200)) + "' may not use the MCP endpoint",
         {}});
  if (!is_json_media_type(ctx.req.content_type))
    return ctx.fail({ErrorCode::UnsupportedMediaType,

                     "send one JSON-RPC message with Content-Type: application/json",
                     {}});

  // Streamable HTTP: a request after initialisation names the negotiated version; an
  // unsupported one is 400 (absent is accepted, as the transport spec allows).
  if (const auto v = ctx.req.mcp_protocol_version; !v.empty()) {
    bool supported = false;
    for (auto known : mcp::kProtocolVersions) supported = supported || known == v;
    if (!supported)
      return reply(400, rpc_error("null", kInvalidRequest,
                                  "unsupported MCP-Protocol-Version '" +
                                      std::string(v.substr(0, 40)) + "'"));
  }

  // The rules of every request body (catalog::parse_json): a key repeated anywhere is
  // refused, naming it. One inside params.arguments is the tool's input, answered as the
  // REST body's refusal would be (a tool error naming the input); any other is the
  // message's own fault.
  json::value message;
  ApiError parse_error;
  std::optional<ApiError> repeated_argument;
  if (!catalog::parse_json(ctx.req.body, message, parse_error)) {
    if (parse_error.code != ErrorCode::ValidationError)
      return reply(400, rpc_error("null", kParseError, "parse error: " + parse_error.message));
    constexpr std::string_view kArguments = "params.arguments.";
    if (parse_error.field.starts_with(kArguments)) {
      const std::string field = parse_error.field.substr(kArguments.size());
      repeated_argument =
          validation_error(field, field + " appears more than once in the arguments");
    } else {
      const json::value* id =
          message.is_object() ? message.get_object().if_contains("id") : nullptr;
      return reply(400, rpc_error(id && valid_id(*id) ? json::serialize(*id) : "null",
                                  kInvalidRequest, parse_error.message));
    }
  }
  if (message.is_array())
    return reply(400, rpc_error("null", kInvalidRequest,
                                "batches are not supported: send one JSON-RPC message per POST"));
  if (!message.is_object())
    return reply(400, rpc_error("null", kInvalidRequest, "a JSON-RPC message is a JSON object"));
  const json::object& msg = message.get_object();

  const json::value* jsonrpc = msg.if_contains("jsonrpc");
  if (!jsonrpc || !jsonrpc->is_string() || jsonrpc->get_string() != "2.0")
    return reply(400, rpc_error("null", kInvalidRequest, "\"jsonrpc\" must be \"2.0\""));
  const json::value* id = msg.if_contains("id");
  if (id && !valid_id(*id))
    return reply(400, rpc_error("null", kInvalidRequest, "\"id\" must be a string or an integer"));
  if (id) ctx.mcp_id = json::serialize(*id);

  const json::value* method_value = msg.if_contains("method");
  if (!method_value) {
    // A response to a request of ours: we send none, so there is nothing to match; accept.
    if (id && (msg.contains("result") || msg.contains("error"))) return reply(202, {});
    return reply(400, rpc_error(ctx.mcp_id, kInvalidRequest, "\"method\" is required"));
  }
  if (!method_value->is_string())
    return reply(400, rpc_error(ctx.mcp_id, kInvalidRequest, "\"method\" must be a string"));
  const std::string_view method = method_value->get_string();
  // Notifications (notifications/initialized, cancelled, …) need no answer.
  if (!id) return reply(202, {});

  const json::value* params_value = msg.if_contains("params");
  if (params_value && !params_value->is_object())
    return reply(200, rpc_error(ctx.mcp_id, kInvalidParams, "\"params\" must be an object"));
  static const json::object kNoParams;
  const json::object& params = params_value ? params_value->get_object() : kNoParams;

  if (method == "initialize") {
    const json::value* version = params.if_contains("protocolVersion");
    if (!version || !version->is_string())
      return reply(200, rpc_error(ctx.mcp_id, kInvalidParams,
                                  "params.protocolVersion (a string) is required"));
    std::string result;
    JsonWriter w(result);
    w.begin_object().field("protocolVersion", negotiate(version->get_string()));
    w.key("capabilities").begin_object().key("tools").begin_object().end_object().end_object();
    w.key("serverInfo").begin_object().field("name", "toolcalc").field("title", "toolcalc");
    w.field("version", env.options.version).end_object();
    w.field("instructions",
            "Engineering and cost calculators. Each tool takes the inputs of its inputSchema "
            "(bounds are inclusive; omitted optional inputs take their defaults) and returns "
            "structuredContent matching its outputSchema. Invalid inputs come back as a tool "
            "error naming the input and the bound, so the call can be corrected and retried.");
    w.end_object();
    return reply(200, rpc_result(ctx.mcp_id, result));
  }
  if (method == "ping") return reply(200, rpc_result(ctx.mcp_id, "{}"));
  if (method == "tools/list")
    return reply(200, rpc_result(ctx.mcp_id, env.bodies.mcp_tools.list_result()));
  if (method != "tools/call")
    return reply(200, rpc_error(ctx.mcp_id, kMethodNotFound,
                                "method not found: " + std::string(method.substr(0, 100))));

  // tools/call: the protocol errors first (like 404 before 401 on REST), then the key.
  const json::value* name_value = params.if_contains("name");
  if (!name_value || !name_value->is_string())
    return reply(200, rpc_error(ctx.mcp_id, kInvalidParams, "params.name (a string) is required"));
  const std::string_view name = name_value->get_string();
  if (name == mcp::kToleranceTool || name == mcp::kSolveTool)
    return mcp_analysis_call(env, ctx, params, name == mcp::kToleranceTool,
                             repeated_argument ? &*repeated_argument : nullptr);
  const catalog::RegisteredTool* registered = env.bodies.mcp_tools.find(name);
  if (!registered) {
    std::string msg = "unknown tool '" + std::string(name.substr(0, 200)) + "'";
    if (const std::string hint = env.bodies.mcp_tools.suggest(name); !hint.empty())
      msg += "; did you mean '" + hint + "'?";
    else
      msg += " (tools/list names every tool)";
    return reply(200, rpc_error(ctx.mcp_id, kInvalidParams, msg));
  }
  const json::value* arguments = params.if_contains("arguments");
  if (arguments && !arguments->is_object())
    return reply(200, rpc_error(ctx.mcp_id, kInvalidParams, "params.arguments must be an object"));
  const catalog::Tool& tool = registered->tool;
  ctx.tool = &tool.descriptor;
  if (ctx.caller.anonymous) {
    res.set_header("WWW-Authenticate", "Bearer");
    return ctx.fail({ErrorCode::Unauthorized, "missing API key", {}});
  }

  if (repeated_argument)
    return reply(200, mcp::call_error(ctx.mcp_id, *repeated_argument, res.request_id));

  // The arguments go through the REST body path (parse, validate, quota, compute, render).
  const std::string body = arguments ? to_json(*arguments) : std::string("{}");
  std::string result_json;
  accounts::QuotaReservation quota;
  ApiError error;
  if (run_tool(env, ctx, tool, body, result_json, quota, error))
    return reply(200, mcp::call_result(ctx.mcp_id, result_json, res.request_id,
                                       quota.unlimited ? std::nullopt
                                                       : std::optional<int64_t>(quota.remaining)));
  // Tool execution errors: the model reads the message and can correct the call.
  if (error.status() == 400 || error.status() == 422)
    return reply(200, mcp::call_error(ctx.mcp_id, error, res.request_id));
  return ctx.fail(error);  // 429 QUOTA_EXCEEDED (Retry-After is set), as on REST
}

namespace {

// tools/call of tolerance_analysis or solve_for_input: `tool` names the catalog tool, the
// other arguments are the REST body (analyses.cpp).
void mcp_analysis_call(HandlerEnv& env, ServiceContext& ctx, const json::object& params,
                       bool tolerance, const ApiError* repeated_argument) {
  Response& res = ctx.res;
  const json::value* arguments = params.if_contains("arguments");
  if (arguments && !arguments->is_object()) {
    res.status = 200;
    res.body = rpc_error(ctx.mcp_id, kInvalidParams, "params.arguments must be an object");
    return;
  }
  if (ctx.caller.anonymous) {
    res.set_header("WWW-Authenticate", "Bearer");
    return ctx.fail({ErrorCode::Unauthorized, "missing API key", {}});
  }
  if (repeated_argument) {
    res.status = 200;
    res.body = mcp::call_error(ctx.mcp_id, *repeated_argument, res.request_id);
    return;
  }
  static const json::object kNoArguments;
  json::object body = arguments ? arguments->get_object() : kNoArguments;
  const json::value* tool_value = body.if_contains("tool");
  const catalog::RegisteredTool* registered = nullptr;
  std::string problem;
  if (!tool_value || !tool_value->is_string()) {
    problem = "tool (a string) is required: the name of the tool to " +
              std::string(tolerance ? "analyse" : "solve") + ", as tools/list gives it";
  } else {
    const std::string_view name = tool_value->get_string();
    registered = env.bodies.mcp_tools.find(name);
    if (!registered) {
      problem = "unknown tool '" + std::string(name.substr(0, 200)) + "'";
      if (const std::string hint = env.bodies.mcp_tools.suggest(name); !hint.empty())
        problem += "; did you mean '" + hint + "'?";
      else
        problem += " (tools/list names every tool)";
    }
  }
  if (!registered) {
    res.status = 200;
    res.body = mcp::call_error(ctx.mcp_id, validation_error("tool", problem), res.request_id);
    return;
  }
  body.erase("tool");
  mcp_analysis(env, ctx, *registered, tolerance, to_json(body));
}

}  // namespace

}  // namespace toolcalc::api::handlers
