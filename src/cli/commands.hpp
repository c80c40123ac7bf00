#pragma once
// The subcommands of the toolcalc binary (CLI11). Each add_* registers one command.
#include <CLI/CLI.hpp>

namespace toolcalc::cli {

void add_serve_command(CLI::App& app);
void add_tools_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_openapi_command(CLI::App& app);

}  // namespace toolcalc::cli
