#pragma once
// The OpenAPI writers the endpoint table names (api/endpoints.cpp): each writes the path
// items of one row into the public document, which document.cpp makes by calling every
// row's writer in the table's order; and each admin operation's (admin_endpoints()) object
// in the admin document.
#include <string>

namespace toolcalc::api::openapi {

struct Paths;  // writing.hpp

// Once per tool the endpoint applies to (tool_paths.cpp, sweep_paths.cpp, analysis_paths.cpp).
void execute_paths(Paths& p);    // POST /v1/{domain}/{slug}
void schema_paths(Paths& p);     // GET …/schema
void sweep_paths(Paths& p);      // POST …/sweep: tools with a numeric input
void tolerance_paths(Paths& p);  // POST …/tolerance: tools with a numeric input
void solve_paths(Paths& p);      // POST …/solve: tools with a numeric input and a number output

// At the row's path (service_paths.cpp).
void tools_path(Paths& p);
void tool_path(Paths& p);
void domains_path(Paths& p);
void me_path(Paths& p);
void usage_path(Paths& p);
void health_path(Paths& p);
void ready_path(Paths& p);
void metrics_path(Paths& p);
void openapi_path(Paths& p);
void llms_txt_path(Paths& p);
void mcp_path(Paths& p);

// Writes nothing: the rows the public document does not describe (the unknown path, the
// playground's files; the admin API, whose operations are the admin document's).
void no_path(Paths& p);

// The admin API's operations (admin_document.cpp), each its `"<method>":{…}` member.
void list_keys_operation(std::string& out);
void create_key_operation(std::string& out);
void get_key_operation(std::string& out);
void update_key_operation(std::string& out);
void revoke_key_operation(std::string& out);
void rotate_key_operation(std::string& out);
void admin_openapi_operation(std::string& out);

}  // namespace toolcalc::api::openapi
