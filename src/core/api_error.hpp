#pragma once
// The one error type of the service: every failure a client can see is an ApiError,
// turned into the error envelope of spec §2.7 in exactly one place (api/envelope).
#include <string>

namespace toolcalc {

struct ApiError {
  int status = 500;
  std::string code;     // UPPER_SNAKE, e.g. VALIDATION_ERROR
  std::string message;  // human readable, names the bound or reason
  std::string field;    // offending input key; empty when no single input is at fault
};

inline ApiError validation_error(std::string field, std::string message) {
  return {400, "VALIDATION_ERROR", std::move(message), std::move(field)};
}
inline ApiError invalid_json(std::string message) {
  return {400, "INVALID_JSON", std::move(message), {}};
}
inline ApiError not_found(std::string message) { return {404, "NOT_FOUND", std::move(message), {}}; }
inline ApiError unprocessable(std::string field, std::string message) {
  return {422, "UNPROCESSABLE", std::move(message), std::move(field)};
}
inline ApiError internal_error() {
  return {500, "INTERNAL", "internal server error; quote the request id to support", {}};
}

}  // namespace toolcalc
