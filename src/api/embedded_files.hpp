#pragma once
// Files compiled into the binary: web/* and uPlot's two dist files, as byte arrays in a
// source generated at build time (cmake/embed_files.cmake; docs/playground.md).
#include <span>
#include <string_view>

namespace toolcalc::api {

struct EmbeddedFile {
  std::string_view name;   // served path below the page, e.g. "app.js", "vendor/uPlot.min.css"
  std::string_view bytes;  // static storage
};

std::span<const EmbeddedFile> embedded_files();

}  // namespace toolcalc::api
