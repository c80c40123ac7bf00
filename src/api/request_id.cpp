#include "api/request_id.hpp"

#include "core/random.hpp"

namespace toolcalc::api {

void assign_request_id(std::string& id) {
  id.assign("req_");
  append_random_base62(id, 24);
}

std::string new_request_id() {
  std::string id;
  id.reserve(28);
  assign_request_id(id);
  return id;
}

}  // namespace toolcalc::api
