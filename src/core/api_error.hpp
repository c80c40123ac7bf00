#pragma once
// The one error type of the service and the one table of error codes. Every failure a
// client can see is an ApiError whose code is an ErrorCode; its HTTP status and its name
// on the wire come from kErrorTable and nowhere else. api/envelope turns it into the error
// envelope of spec §2.7, and the OpenAPI document's error responses are generated from the
// same table (api/openapi/errors.cpp).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace toolcalc {

enum class ErrorCode : uint8_t {
  InvalidJson,
  ValidationError,
  BadRequest,
  Unauthorized,
  Forbidden,
  NotFound,
  MethodNotAllowed,
  Conflict,
  PayloadTooLarge,
  UnsupportedMediaType,
  Unprocessable,
  NoSolution,
  RateLimited,
  QuotaExceeded,
  HeadersTooLarge,
  Internal,
  ServerBusy,
  StoreUnavailable,
  NotReady,
  TooManyAnalyses,
};

struct ErrorKind {
  ErrorCode code;
  int status;
  std::string_view name;     // UPPER_SNAKE, as sent in error.code
  std::string_view meaning;  // when it is answered (docs/api.md, the OpenAPI document)
};

// In the order of ErrorCode (checked below).
inline constexpr std::array kErrorTable = {
    ErrorKind{ErrorCode::InvalidJson, 400, "INVALID_JSON", "The body is not one JSON object."},
    ErrorKind{ErrorCode::ValidationError, 400, "VALIDATION_ERROR",
              "An input or query parameter is missing, of the wrong type or out of its bounds; "
              "`field` names it and the message states the bound."},
    ErrorKind{ErrorCode::BadRequest, 400, "BAD_REQUEST", "The HTTP message is malformed."},
    ErrorKind{ErrorCode::Unauthorized, 401, "UNAUTHORIZED",
              "The API key is missing (on endpoints that need one) or invalid."},
    ErrorKind{ErrorCode::Forbidden, 403, "FORBIDDEN",
              "The request's `Origin` may not use this endpoint (the MCP endpoint's "
              "DNS-rebinding guard)."},
    ErrorKind{ErrorCode::NotFound, 404, "NOT_FOUND", "No tool or resource at this path."},
    ErrorKind{ErrorCode::MethodNotAllowed, 405, "METHOD_NOT_ALLOWED",
              "The path exists but not with this method; `Allow` lists the methods."},
    ErrorKind{ErrorCode::Conflict, 409, "CONFLICT",
              "The resource's current state does not allow the change."},
    ErrorKind{ErrorCode::PayloadTooLarge, 413, "PAYLOAD_TOO_LARGE",
              "The body is over the body limit; answered before the body is read, then the "
              "connection is closed."},
    ErrorKind{ErrorCode::UnsupportedMediaType, 415, "UNSUPPORTED_MEDIA_TYPE",
              "The body is not sent with `Content-Type: application/json`."},
    ErrorKind{ErrorCode::Unprocessable, 422, "UNPROCESSABLE",
              "The inputs are valid one by one but the tool cannot compute a result from them "
              "together; `field` names the input. No quota is used."},
    ErrorKind{ErrorCode::NoSolution, 422, "NO_SOLUTION",
              "No value of the varied input within its bounds gives the target; the message "
              "states the reachable range."},
    ErrorKind{ErrorCode::RateLimited, 429, "RATE_LIMITED",
              "The per-minute rate limit is reached; `Retry-After` says when to retry."},
    ErrorKind{ErrorCode::QuotaExceeded, 429, "QUOTA_EXCEEDED",
              "The monthly quota does not have the units this call needs."},
    ErrorKind{ErrorCode::HeadersTooLarge, 431, "HEADERS_TOO_LARGE",
              "The header block is over the header limit; the connection is then closed."},
    ErrorKind{ErrorCode::Internal, 500, "INTERNAL",
              "A defect; quote `meta.request_id` to support."},
    ErrorKind{ErrorCode::ServerBusy, 503, "SERVER_BUSY",
              "Over the open-connection cap (the connection is then closed), or a tolerance "
              "analysis or solve when the analysis queue is full; `Retry-After` says when to "
              "retry."},
    ErrorKind{ErrorCode::StoreUnavailable, 503, "STORE_UNAVAILABLE",
              "The shared store that counts limits and quotas is unreachable; the request was "
              "neither counted nor run."},
    ErrorKind{ErrorCode::NotReady, 503, "NOT_READY",
              "Readiness only (`GET /v1/ready`): the server is draining after SIGTERM or its "
              "shared store is unreachable; send traffic to another instance."},
    ErrorKind{ErrorCode::TooManyAnalyses, 429, "TOO_MANY_ANALYSES",
              "The key already has as many tolerance analyses and solves waiting or running as "
              "one key may (the analysis pool is shared fairly between keys); `Retry-After` says "
              "when to retry."},
};

constexpr bool error_table_in_enum_order() {
  for (size_t i = 0; i < kErrorTable.size(); ++i)
    if (static_cast<size_t>(kErrorTable[i].code) != i) return false;
  return true;
}
static_assert(error_table_in_enum_order(), "kErrorTable must list ErrorCode in order");

constexpr const ErrorKind& error_kind(ErrorCode code) {
  return kErrorTable[static_cast<size_t>(code)];
}

struct ApiError {
  ErrorCode code = ErrorCode::Internal;
  std::string message = {};  // human readable, names the bound or reason
  std::string field = {};    // offending input key; empty when no single input is at fault

  int status() const { return error_kind(code).status; }
  std::string_view code_name() const { return error_kind(code).name; }
};

inline ApiError validation_error(std::string field, std::string message) {
  return {ErrorCode::ValidationError, std::move(message), std::move(field)};
}
inline ApiError invalid_json(std::string message) {
  return {ErrorCode::InvalidJson, std::move(message), {}};
}
inline ApiError not_found(std::string message) {
  return {ErrorCode::NotFound, std::move(message), {}};
}
inline ApiError unprocessable(std::string field, std::string message) {
  return {ErrorCode::Unprocessable, std::move(message), std::move(field)};
}
inline ApiError internal_error() {
  return {ErrorCode::Internal, "internal server error; quote the request id to support", {}};
}

}  // namespace toolcalc
