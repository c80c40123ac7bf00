#pragma once
// `toolcalc keys create|list|revoke`: manages API keys in the store of
// the data directory, with or without a server running on it.
namespace CLI {
class App;
}

namespace toolcalc::cli {

// Adds the `keys` subcommand and its subcommands to `app`. They run from CLI11 callbacks
// during parsing; a failure prints `toolcalc keys …: error: …` on stderr and throws
// CLI::RuntimeError(1), which CLI11_PARSE / App::exit turn into exit status 1 silently.
void add_keys_command(CLI::App& app);

}  // namespace toolcalc::cli
