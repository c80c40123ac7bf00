#pragma once
// The embedded store's keys: the api_keys table and the key generation in `meta`. Each
// change is one write transaction that also moves the generation. Used under the store's
// lock (sqlite_account_store.hpp).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "store/account_store.hpp"
#include "store/sqlite_database.hpp"

namespace toolcalc::store::sqlite {

// Every column of a key row, each named as the KeyColumns reader looks it up, from
// api_keys aliased as `k`.
extern const char* const kKeyColumns;

// Where each field of a key row is in a statement's result: looked up by name once, when
// the statement is prepared (Statement::column).
class KeyColumns {
 public:
  explicit KeyColumns(const Statement& statement);
  KeyRecord read(const Statement::Use& row) const;

 private:
  int id_, prefix_, key_hash_, label_, plan_, created_at_, revoked_at_, rate_per_minute_,
      monthly_quota_, previous_hash_, previous_expires_at_, webhook_url_, webhook_secret_;
};

class KeyRows {
 public:
  explicit KeyRows(Database& db);

  // AccountStore's key operations, with the same outcomes.
  std::optional<int64_t> create(const NewKey& key);
  RevokeOutcome revoke(std::string_view prefix, int64_t now_epoch_s);
  ChangeOutcome rotate(std::string_view prefix, std::string_view new_hash,
                       int64_t previous_expires_epoch_s);
  ChangeOutcome update(std::string_view prefix, const KeyUpdate& update);
  int64_t generation();
  KeySet load();
  // Every key with its row of monthly_usage for `period` (the database's count only).
  std::vector<KeyWithUsage> list(std::string_view period);

 private:
  int64_t read_generation();
  void bump_generation();
  // The id of the key with `prefix` when it is active; NotFound or Revoked otherwise.
  ChangeOutcome find_active(std::string_view prefix, int64_t& id);

  Database& db_;
  Statement insert_, bump_generation_, generation_, find_prefix_, revoke_, rotate_, update_, all_,
      list_;
  int find_id_, find_revoked_at_;
  KeyColumns all_columns_, list_columns_;
  int list_used_;
};

}  // namespace toolcalc::store::sqlite
