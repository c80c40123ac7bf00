#include "store/sqlite_journal.hpp"

#include <exception>

#include "core/log.hpp"
#include "core/service_metrics.hpp"

namespace toolcalc::store::sqlite {
namespace {

constexpr size_t kOffsetsLogged = 20;

void report_damage(const std::filesystem::path& journal_file, const UsageJournal::Run& run) {
  const std::string file = journal_file.string();
  if (!run.damaged.empty()) {
    metrics::journal_records_damaged.inc(run.damaged.size());
    std::string offsets;
    for (size_t i = 0; i < run.damaged.size() && i < kOffsetsLogged; ++i)
      offsets += (i == 0 ? "" : ",") + std::to_string(run.damaged[i]);
    if (run.damaged.size() > kOffsetsLogged) offsets += ",…";
    log::error("usage journal: records failed their check and were skipped; their usage is lost",
               {{"file", file},
                {"skipped", std::to_string(run.damaged.size())},
                {"offsets", offsets},
                {"record_bytes", std::to_string(UsageJournal::kRecordBytes)}});
  }
  if (run.cut_short)
    log::info(
        "usage journal: its last record failed its check (a write cut short by the stop; "
        "its group was not acknowledged) and was not taken",
        {{"file", file}, {"offset", std::to_string(*run.cut_short)}});
}

}  // namespace

JournalMark::JournalMark(Database& db)
    : read_(db, "SELECT value FROM meta WHERE name = 'usage_journal_seq'"),
      write_(db,
             "INSERT INTO meta(name, value) VALUES ('usage_journal_seq', ?1) "
             "ON CONFLICT(name) DO UPDATE SET value = ?1") {}

uint64_t JournalMark::read() {
  Statement::Use use(read_);
  return use.step() ? static_cast<uint64_t>(use.integer(0)) : 0;  // the statement's one column
}

void JournalMark::write(uint64_t seq) {
  Statement::Use use(write_);
  use.bind(1, static_cast<int64_t>(seq));
  use.step();
}

JournaledUsage::JournaledUsage(std::unique_ptr<UsageJournal> journal)
    : journal_(std::move(journal)) {}

bool JournaledUsage::append(const std::vector<UsageDelta>& deltas) {
  if (!journal_ || !journal_->append(deltas)) return false;
  for (const auto& d : deltas)
    if (d.delta != 0) units_[{d.key_id, d.period}] += d.delta;
  return true;
}

int64_t JournaledUsage::units(int64_t key_id, std::string_view period) const {
  const auto it = units_.find({key_id, std::string(period)});
  return it == units_.end() ? 0 : it->second;
}

void JournaledUsage::add_to(std::unordered_map<int64_t, int64_t>& counts,
                            std::string_view period) const {
  for (const auto& [at, delta] : units_)
    if (at.second == period && delta != 0) counts[at.first] += delta;
}

void JournaledUsage::write_pending(PeriodCounts& usage, JournalMark& mark) const {
  for (const auto& [at, delta] : units_) usage.add(at.first, at.second, delta);
  mark.write(journal_->last_seq());
}

void JournaledUsage::forget_pending() {
  units_.clear();
  clear_journal();
}

void JournaledUsage::take_over(Database& db, PeriodCounts& usage, JournalMark& mark) {
  if (!journal_) return;
  const uint64_t taken = mark.read();
  const UsageJournal::Run run = journal_->read_run(taken);
  const std::vector<JournalRecord>& records = run.records;
  journal_->continue_after(taken);
  report_damage(usage_journal_file(db.file().parent_path()), run);
  if (!records.empty()) {
    Transaction tx(db, Transaction::Write);
    for (const JournalRecord& r : records) usage.add(r.delta.key_id, r.delta.period, r.delta.delta);
    mark.write(records.back().seq);
    tx.commit();
    log::info("usage journal taken over", {{"records", std::to_string(records.size())}});
  }
  clear_journal();
}

void JournaledUsage::clear_journal() {
  try {
    journal_->clear();
  } catch (const std::exception& e) {
    log::warn("usage journal could not be cleared; retried at the next flush",
              {{"error", e.what()}});
  }
}

}  // namespace toolcalc::store::sqlite
