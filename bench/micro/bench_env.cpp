#include "bench_env.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "accounts/key_issuer.hpp"
#include "accounts/plans.hpp"
#include "catalog/render.hpp"
#include "cli/catalog_loader.hpp"
#include "cli/default_catalog_dir.hpp"
#include "core/decimal.hpp"
#include "core/event_loop.hpp"
#include "store/account_store.hpp"

namespace toolcalc::bench {

BenchEnv::BenchEnv() {
  char tmpl[] = "/tmp/toolcalc-micro-XXXXXX";
  if (!::mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  data_dir = tmpl;

  registry = cli::load_registry(cli::default_catalog_dir());

  std::vector<accounts::Plan> plans = accounts::builtin_plans();
  plans.push_back({"bench", 100'000'000, int64_t{1'000'000'000'000}});
  for (auto& p : plans)
    if (p.name == accounts::kAnonymousPlan) p.rate_per_minute = 100'000'000;

  {
    auto store = store::open_sqlite_store(data_dir);
    key =
        accounts::issue_key(*store, plans, "bench", "micro", accounts::KeyKind::Live, clock.now_s())
            .key;
  }
  accounts = std::make_unique<accounts::Accounts>(
      clock, accounts::AccountsOptions{.store = store::open_sqlite_store(data_dir),
                                       .plans = plans,
                                       .flush_interval = std::chrono::milliseconds(1000),
                                       .key_refresh_interval = std::chrono::milliseconds(1000)});
  accounts->start();  // background refresh and usage flush, as in `serve`
  authorization = "Bearer " + key;
  api::ServiceOptions options;  // no base path, no access log: as `make bench` serves
  options.access_log = nullptr;
  service = std::make_unique<api::Service>(*registry, *accounts, clock, options);
}

BenchEnv::~BenchEnv() {
  service.reset();
  if (accounts) accounts->stop();
  accounts.reset();
  std::error_code ec;
  std::filesystem::remove_all(data_dir, ec);
}

BenchEnv& env() {
  static BenchEnv e;
  return e;
}

api::Request execute_request(const catalog::ToolDescriptor&, const std::string& path,
                             const std::string& body) {
  api::Request r;
  r.method = "POST";
  r.target = path;
  r.content_type = "application/json";
  r.authorization = std::string_view(env().authorization);
  r.body = body;
  r.peer_ip = "127.0.0.1";
  return r;
}

ServerThread::ServerThread() : busy_(boost::asio::make_work_guard(loop_)) {}

ServerThread::~ServerThread() {
  drain();
}

const api::Response& ServerThread::handle(const api::Request& request) {
  if (next_ == kGroup) drain();
  const size_t slot = next_++;
  requests_[slot] = request;
  api::Response& res = responses_[slot];
  res.clear();
  const EventLoopScope scope(loop_);
  if (!env().service->handle_async(requests_[slot], res, [this] { --waiting_; })) ++waiting_;
  return res;
}

void ServerThread::drain() {
  const EventLoopScope scope(loop_);
  while (waiting_ > 0) loop_.run_one();
  next_ = 0;
}

}  // namespace toolcalc::bench
