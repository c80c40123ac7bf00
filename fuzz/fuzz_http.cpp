// fuzz_http: raw bytes from a client through the connection's request loop
// (http::serve_requests, the code a TCP session runs) and the whole API behind it, on
// Beast's in-memory test stream: no sockets, no timers, one input = one connection.
//
// The service is the real one: the real catalog, accounts::Accounts on a scratch SQLite
// store, the access log on, base path /api. Fixed test keys exist in that store so inputs
// can reach authenticated paths (they exist nowhere else):
//   tc_test_fuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzz  plan "fuzz": no practical rate or quota limit
//   tc_test_tinytinytinytinytinytinytinytiny  plan "tiny": 1/min, 1/month, used up at start → 429
//   tc_live_revokedrevokedrevokedrevokedrevo  revoked → 401
// The clock is fixed, so a run is deterministic apart from request ids.
//
// Oracles beyond the sanitizers, on what the server wrote back:
//   - the output parses as a sequence of HTTP/1.1 responses;
//   - no response is a 5xx (a 500 is an exception escaping a handler: a defect);
//   - every response body and every access-log line is strict JSON with plain numbers
//     (the playground's files: their own content type, with the CSP header);
//   - when the common-request parser (http/common_request.hpp) accepts the input's first
//     request, Beast's parser parses it identically (tests/unit/http/
//     common_request_reference.hpp);
//   - the same bytes delivered in small reads (13 bytes at a time) give the same statuses
//     and error codes as when delivered at once: request framing must not depend on TCP
//     segmentation (apart from the final transport error, see without_final_transport_error).
#include <unistd.h>
#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/accounts.hpp"
#include "accounts/api_key.hpp"
#include "accounts/plans.hpp"
#include "api/service.hpp"
#include "cli/catalog_loader.hpp"
#include "cli/default_catalog_dir.hpp"
#include "common_request_reference.hpp"
#include "core/line_buffer.hpp"
#include "fuzz_support.hpp"
#include "http/connection.hpp"
#include "store/account_store.hpp"

namespace {

using namespace toolcalc;
namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;

constexpr std::string_view kFuzzKey = "tc_test_fuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzz";
constexpr std::string_view kTinyKey = "tc_test_tinytinytinytinytinytinytinytiny";
constexpr std::string_view kRevokedKey = "tc_live_revokedrevokedrevokedrevokedrevo";
constexpr int64_t kNowMs = 1'794'744'000'000;  // 2026-11-15T12:00:00Z

struct Fixture {
  std::unique_ptr<catalog::Registry> registry;
  ManualClock clock{kNowMs};
  std::unique_ptr<accounts::Accounts> accounts;
  std::string access_text;  // what the access log wrote (one fuzzing thread)
  std::unique_ptr<LineBuffer> access_log;
  std::unique_ptr<api::Service> service;
  http::ServerOptions options;  // production limits: 8 KiB headers, 64 KiB body
  std::atomic<bool> stopping{false};
};

void add_key(store::AccountStore& store, std::string_view key, const char* plan) {
  store::NewKey k;
  k.prefix = std::string(accounts::key_prefix(key));
  k.key_hash = accounts::hash_api_key(key);
  k.label = "fuzz";
  k.plan = plan;
  k.created_epoch_s = kNowMs / 1000;
  if (!store.create_key(k)) fuzz::fail("cannot create fuzz key", key);
}

Fixture& fixture() {
  // Built once and reachable until exit (not a leak for LeakSanitizer).
  static Fixture* f = [] {
    auto* fx = new Fixture;
    fx->registry = cli::load_registry(cli::default_catalog_dir());

    std::vector<accounts::Plan> plans = accounts::builtin_plans();
    for (auto& p : plans)
      if (p.name == accounts::kAnonymousPlan) p.rate_per_minute = 1'000'000'000'000;
    plans.push_back({"fuzz", 1'000'000'000'000, 1'000'000'000'000'000});
    plans.push_back({"tiny", 1, 1});

    auto store = store::open_sqlite_store(fuzz::scratch_dir() / "data");
    add_key(*store, kFuzzKey, "fuzz");
    add_key(*store, kTinyKey, "tiny");
    add_key(*store, kRevokedKey, "free");
    store->revoke_key(accounts::key_prefix(kRevokedKey), kNowMs / 1000);
    fx->accounts = std::make_unique<accounts::Accounts>(
        fx->clock,
        accounts::AccountsOptions{.store = std::move(store),
                                  .plans = plans,
                                  .flush_interval = std::chrono::milliseconds(1000),
                                  .key_refresh_interval = std::chrono::milliseconds(1000)});
    // not started: no background thread

    // Every line written at once, into memory.
    fx->access_log =
        std::make_unique<LineBuffer>([fx](std::string_view lines) { fx->access_text += lines; },
                                     LineBuffer::Options{0, std::chrono::milliseconds(0)});
    fx->service = std::make_unique<api::Service>(
        *fx->registry, *fx->accounts, fx->clock,
        api::ServiceOptions{"/api", TOOLCALC_VERSION, fx->access_log.get()});

    // Use up the tiny key's one unit, so that it answers 429 on every run alike.
    const std::string auth = "Bearer " + std::string(kTinyKey);
    api::Request req;
    req.method = "GET";
    req.target = "/api/v1/me";
    req.authorization = auth;
    req.peer_ip = "192.0.2.7";
    (void)fx->service->handle(req);
    return fx;
  }();
  return *f;
}

// Runs one connection over `input`, delivered `read_size` bytes per read (0: all at
// once); returns what the server wrote.
std::string serve(std::string_view input, size_t read_size) {
  Fixture& fx = fixture();
  net::io_context ioc{1};
  beast::test::stream local(ioc), remote(ioc);
  local.connect(remote);
  if (read_size) local.read_size(read_size);
  local.append(input);
  // The client is done sending: after the bytes, the server reads EOF. Its writes still
  // land in `remote`'s input buffer.
  remote.close();

  http::ConnectionState state{*fx.service, fx.options, fx.stopping, "192.0.2.7"};
  net::co_spawn(ioc, http::serve_requests(state, local), [](std::exception_ptr e) {
    if (e) std::rethrow_exception(e);  // an exception out of the session: a crash
  });
  ioc.run();
  return std::string(remote.str());
}

// Splits the server's output into responses; checks each one. Returns their statuses,
// with the error code for error envelopes ("400 BAD_REQUEST").
std::vector<std::string> check_responses(std::string_view output) {
  std::vector<std::string> statuses;
  beast::flat_buffer buffer;
  auto b = buffer.prepare(output.size());
  net::buffer_copy(b, net::buffer(output.data(), output.size()));
  buffer.commit(output.size());
  while (buffer.size() > 0) {
    bhttp::response_parser<bhttp::string_body> parser;
    parser.eager(true);
    parser.body_limit(boost::none);
    // The answer to a HEAD request has GET's Content-Length but no body: it is followed at
    // once by the next response or by the end of the output (a body never starts with
    // "HTTP/1.", which the parser cannot know without seeing the request).
    {
      const std::string_view rest(static_cast<const char*>(buffer.data().data()), buffer.size());
      const size_t end = rest.find("\r\n\r\n");
      if (end != std::string_view::npos) {
        const std::string_view after = rest.substr(end + 4);
        if (after.empty() || after.substr(0, 7) == "HTTP/1.") parser.skip(true);
      }
    }
    beast::error_code ec;
    const size_t used = parser.put(buffer.data(), ec);
    if (!ec && !parser.is_done()) {
      // A body without Content-Length would be read to EOF; ours always have one.
      parser.put_eof(ec);
    }
    if (ec || !parser.is_done())
      fuzz::fail("server wrote malformed HTTP (" + ec.message() + ")", output);
    buffer.consume(used);
    const auto& res = parser.get();
    const unsigned status = res.result_int();
    statuses.push_back(std::to_string(status));
    if (status >= 500) fuzz::fail("server answered " + std::to_string(status), output);
    if (status == 100 || res.body().empty()) continue;
    const auto content_type = res[bhttp::field::content_type];
    if (content_type.substr(0, 16) != "application/json") {
      if (res["Content-Security-Policy"].empty() || res[bhttp::field::etag].empty())
        fuzz::fail("a non-JSON body without the playground's headers", output);
      continue;
    }
    const boost::json::value body = fuzz::check_json(res.body(), "response body");
    if (const auto* code = body.find_pointer("/error/code", ec); code && code->is_string())
      statuses.back() += " " + std::string(code->as_string());
  }
  return statuses;
}

// Every access-log line written for this input is one strict JSON object.
void check_access_log() {
  std::string_view rest = fixture().access_text;
  while (!rest.empty()) {
    const size_t nl = rest.find('\n');
    if (nl == std::string_view::npos) fuzz::fail("access log line without newline", rest);
    fuzz::check_json(rest.substr(0, nl), "access log line");
    rest.remove_prefix(nl + 1);
  }
  fixture().access_text.clear();
}

std::string statuses_text(const std::vector<std::string>& s) {
  std::string t;
  for (const auto& v : s) t += v + ", ";
  return t;
}

// A connection ends with at most one transport error (400 malformed, 413, 431), then the
// server closes. Which of them a broken request gets can depend on where the reads split:
// Beast checks a header block's syntax once it holds the whole block, and its size limit
// while it is still arriving, so a malformed oversized block is a 400 when read at once
// and a 431 when trickled; a bare LF is a 400 at once, and a silent close at EOF when
// trickled. Any of those is a fine answer; everything before it must be the same.
std::vector<std::string> without_final_transport_error(std::vector<std::string> s) {
  if (!s.empty() && (s.back() == "400 BAD_REQUEST" || s.back() == "413 PAYLOAD_TOO_LARGE" ||
                     s.back() == "431 HEADERS_TOO_LARGE"))
    s.pop_back();
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)fixture();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  // FUZZ_HTTP_DEBUG=1 prints what the server wrote (triage of a saved input).
  static const bool debug = std::getenv("FUZZ_HTTP_DEBUG") != nullptr;
  if (const auto fast = http::reference::fast(input)) {
    const auto beast = http::reference::beast(input);
    if (!beast) fuzz::fail("the common-request parser accepted what Beast refuses", input);
    if (const std::string d = http::reference::difference(*fast, *beast); !d.empty())
      fuzz::fail("the common-request parser and Beast differ in " + d, input);
  }
  const std::string out_whole = serve(input, 0);
  const std::vector<std::string> whole = check_responses(out_whole);
  check_access_log();
  const std::string out_trickled = serve(input, 13);
  const std::vector<std::string> trickled = check_responses(out_trickled);
  check_access_log();
  if (debug)
    std::fprintf(stderr, "--- one read ---\n%s\n--- 13-byte reads ---\n%s\n---\n",
                 out_whole.c_str(), out_trickled.c_str());
  if (without_final_transport_error(whole) != without_final_transport_error(trickled))
    fuzz::fail("statuses differ between one read (" + statuses_text(whole) +
                   ") and 13-byte reads (" + statuses_text(trickled) + ")",
               input);
  return 0;
}
