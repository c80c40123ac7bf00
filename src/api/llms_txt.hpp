#pragma once
// GET /llms.txt: the catalog as a Markdown page for language models and agents that read
// text rather than speak MCP, in the llms.txt convention (llmstxt.org): an H1 with the
// name, a blockquote summary, a paragraph on how to call the API, then one H2 section per
// domain listing each tool as `- [name](details URL): purpose, endpoint, inputs, outputs`.
#include <string>
#include <string_view>

#include "catalog/registry.hpp"

namespace toolcalc::api {

// Links and endpoints are absolute paths under `base_path` ("" or e.g. "/api"), so the same
// text is right wherever it is served from (/llms.txt and {base}/llms.txt).
std::string render_llms_txt(const catalog::Registry& registry, std::string_view base_path);

}  // namespace toolcalc::api
