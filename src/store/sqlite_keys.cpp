#include "store/sqlite_keys.hpp"

#include <string>

namespace toolcalc::store::sqlite {

const char* const kKeyColumns =
    "k.id AS id, k.prefix AS prefix, k.key_hash AS key_hash, k.label AS label, k.plan AS plan, "
    "k.created_at AS created_at, k.revoked_at AS revoked_at, "
    "k.rate_per_minute AS rate_per_minute, k.monthly_quota AS monthly_quota, "
    "k.previous_hash AS previous_hash, k.previous_expires_at AS previous_expires_at, "
    "k.webhook_url AS webhook_url, k.webhook_secret AS webhook_secret";

KeyColumns::KeyColumns(const Statement& s)
    : id_(s.column("id")),
      prefix_(s.column("prefix")),
      key_hash_(s.column("key_hash")),
      label_(s.column("label")),
      plan_(s.column("plan")),
      created_at_(s.column("created_at")),
      revoked_at_(s.column("revoked_at")),
      rate_per_minute_(s.column("rate_per_minute")),
      monthly_quota_(s.column("monthly_quota")),
      previous_hash_(s.column("previous_hash")),
      previous_expires_at_(s.column("previous_expires_at")),
      webhook_url_(s.column("webhook_url")),
      webhook_secret_(s.column("webhook_secret")) {}

KeyRecord KeyColumns::read(const Statement::Use& row) const {
  KeyRecord k;
  k.id = row.integer(id_);
  k.prefix = row.text(prefix_);
  k.key_hash = row.blob(key_hash_);
  k.label = row.text(label_);
  k.plan = row.text(plan_);
  k.created_epoch_s = row.integer(created_at_);
  k.revoked_epoch_s = row.optional_integer(revoked_at_);
  k.rate_per_minute = row.optional_integer(rate_per_minute_);
  k.monthly_quota = row.optional_integer(monthly_quota_);
  k.previous_hash = row.blob(previous_hash_);
  k.previous_expires_epoch_s = row.integer(previous_expires_at_);
  k.webhook_url = row.text(webhook_url_);
  k.webhook_secret = row.text(webhook_secret_);
  return k;
}

KeyRows::KeyRows(Database& db)
    : db_(db),
      insert_(db,
              "INSERT INTO api_keys(prefix, key_hash, label, plan, created_at, "
              "rate_per_minute, monthly_quota, webhook_url, webhook_secret) "
              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT(prefix) DO NOTHING "
              "RETURNING id"),
      bump_generation_(db, "UPDATE meta SET value = value + 1 WHERE name = 'key_generation'"),
      generation_(db, "SELECT value FROM meta WHERE name = 'key_generation'"),
      find_prefix_(db, "SELECT id, revoked_at FROM api_keys WHERE prefix = ?1"),
      revoke_(db, "UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1"),
      rotate_(db,
              "UPDATE api_keys SET previous_hash = key_hash, previous_expires_at = ?3, "
              "key_hash = ?2 WHERE id = ?1"),
      update_(db,
              "UPDATE api_keys SET plan = COALESCE(?2, plan), label = COALESCE(?3, label), "
              "rate_per_minute = CASE WHEN ?4 THEN ?5 ELSE rate_per_minute END, "
              "monthly_quota = CASE WHEN ?6 THEN ?7 ELSE monthly_quota END, "
              "webhook_url = CASE WHEN ?8 THEN ?9 ELSE webhook_url END, "
              "webhook_secret = CASE WHEN ?8 THEN ?10 ELSE webhook_secret END WHERE id = ?1"),
      all_(db, std::string("SELECT ") + kKeyColumns + " FROM api_keys k ORDER BY k.id"),
      list_(db, std::string("SELECT ") + kKeyColumns +
                    ", COALESCE(u.used, 0) AS used FROM api_keys k LEFT JOIN monthly_usage u "
                    "ON u.key_id = k.id AND u.period = ?1 ORDER BY k.id"),
      find_id_(find_prefix_.column("id")),
      find_revoked_at_(find_prefix_.column("revoked_at")),
      all_columns_(all_),
      list_columns_(list_),
      list_used_(list_.column("used")) {}

std::optional<int64_t> KeyRows::create(const NewKey& key) {
  Transaction tx(db_, Transaction::Write);
  std::optional<int64_t> id;
  {
    Statement::Use use(insert_);
    use.bind_text(1, key.prefix)
        .bind_blob(2, key.key_hash)
        .bind_text(3, key.label)
        .bind_text(4, key.plan)
        .bind(5, key.created_epoch_s)
        .bind_optional(6, key.rate_per_minute)
        .bind_optional(7, key.monthly_quota)
        .bind_text(8, key.webhook_url)
        .bind_text(9, key.webhook_secret);
    if (use.step()) id = use.integer(0);  // RETURNING id: the statement's one column
    while (use.step()) {
    }
  }
  if (!id) return std::nullopt;  // prefix taken; the transaction rolls back (nothing written)
  bump_generation();
  tx.commit();
  return id;
}

RevokeOutcome KeyRows::revoke(std::string_view prefix, int64_t now_epoch_s) {
  Transaction tx(db_, Transaction::Write);
  int64_t id = 0;
  switch (find_active(prefix, id)) {
    case ChangeOutcome::NotFound:
      return RevokeOutcome::NotFound;
    case ChangeOutcome::Revoked:
      return RevokeOutcome::AlreadyRevoked;
    case ChangeOutcome::Done:
      break;
  }
  {
    Statement::Use use(revoke_);
    use.bind(1, id).bind(2, now_epoch_s);
    use.step();
  }
  bump_generation();
  tx.commit();
  return RevokeOutcome::Revoked;
}

ChangeOutcome KeyRows::rotate(std::string_view prefix, std::string_view new_hash,
                              int64_t previous_expires_epoch_s) {
  Transaction tx(db_, Transaction::Write);
  int64_t id = 0;
  if (const ChangeOutcome found = find_active(prefix, id); found != ChangeOutcome::Done)
    return found;
  {
    Statement::Use use(rotate_);
    use.bind(1, id).bind_blob(2, new_hash).bind(3, previous_expires_epoch_s);
    use.step();
  }
  bump_generation();
  tx.commit();
  return ChangeOutcome::Done;
}

ChangeOutcome KeyRows::update(std::string_view prefix, const KeyUpdate& u) {
  Transaction tx(db_, Transaction::Write);
  int64_t id = 0;
  if (const ChangeOutcome found = find_active(prefix, id); found != ChangeOutcome::Done)
    return found;
  {
    Statement::Use use(update_);
    use.bind(1, id);
    if (u.plan) use.bind_text(2, *u.plan);
    if (u.label) use.bind_text(3, *u.label);
    use.bind(4, u.set_rate_per_minute).bind_optional(5, u.rate_per_minute);
    use.bind(6, u.set_monthly_quota).bind_optional(7, u.monthly_quota);
    use.bind(8, u.set_webhook).bind_text(9, u.webhook_url).bind_text(10, u.webhook_secret);
    use.step();
  }
  bump_generation();
  tx.commit();
  return ChangeOutcome::Done;
}

int64_t KeyRows::generation() {
  return read_generation();
}

KeySet KeyRows::load() {
  Transaction tx(db_, Transaction::Read);  // generation and keys from one snapshot
  KeySet set;
  set.generation = read_generation();
  Statement::Use use(all_);
  while (use.step()) set.keys.push_back(all_columns_.read(use));
  return set;
}

std::vector<KeyWithUsage> KeyRows::list(std::string_view period) {
  std::vector<KeyWithUsage> out;
  Statement::Use use(list_);
  use.bind_text(1, period);
  while (use.step()) out.push_back({list_columns_.read(use), use.integer(list_used_)});
  return out;
}

int64_t KeyRows::read_generation() {
  Statement::Use use(generation_);
  if (!use.step()) db_.fail("meta.key_generation is missing");
  return use.integer(0);  // the statement's one column
}

void KeyRows::bump_generation() {
  Statement::Use use(bump_generation_);
  use.step();
}

ChangeOutcome KeyRows::find_active(std::string_view prefix, int64_t& id) {
  Statement::Use use(find_prefix_);
  use.bind_text(1, prefix);
  if (!use.step()) return ChangeOutcome::NotFound;
  if (!use.is_null(find_revoked_at_)) return ChangeOutcome::Revoked;
  id = use.integer(find_id_);
  return ChangeOutcome::Done;
}

}  // namespace toolcalc::store::sqlite
