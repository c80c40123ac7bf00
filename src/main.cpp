// toolcalc: serve | tools | run | keys | openapi. See README.md.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/keys_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"toolcalc — a JSON-over-HTTP catalog of engineering and cost calculators"};
  app.set_version_flag("--version", std::string("toolcalc ") + TOOLCALC_VERSION);
  app.require_subcommand(1);
  toolcalc::cli::add_serve_command(app);
  toolcalc::cli::add_tools_command(app);
  toolcalc::cli::add_run_command(app);
  toolcalc::cli::add_keys_command(app);
  toolcalc::cli::add_openapi_command(app);
  toolcalc::cli::add_limits_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "toolcalc: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
