#pragma once
// The subcommands of the toolcalc binary (CLI11). Each add_* registers one command.
#include <CLI/CLI.hpp>
#include <string>

namespace toolcalc::cli {

void add_serve_command(CLI::App& app);
void add_tools_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_openapi_command(CLI::App& app);
// Hidden: the limits and settings the documents state, for scripts/check_doc_limits.py.
void add_limits_command(CLI::App& app);
// What it prints: one JSON object, constant or setting name → value (limits_command.cpp).
std::string limits_json();

}  // namespace toolcalc::cli
