// RAID capacity: usable capacity, efficiency and disk failures survived for RAID 0, 1, 5, 6 and
// 10 of equal disks, and the time to rebuild one disk at a rebuild rate. Formula, bounds,
// references and worked examples: docs/tools/raid-capacity.md.
#include <stdexcept>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

constexpr double kBytesPerTb = 1e12;  // decimal units, as drives are sold
constexpr double kBytesPerMb = 1e6;
constexpr double kSPerH = 3600;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "raid-capacity";
  t.domain = "programming-dev";
  t.version = "1.0.0";
  t.name = "RAID Capacity and Rebuild Time";
  t.description =
      "Usable capacity, storage efficiency and the number of disk failures survived by a RAID 0, "
      "1, 5, 6 or 10 array of equal disks, and the time to rebuild one failed disk at a given "
      "rebuild rate.";
  t.standard = std::nullopt;
  t.inputs = {
      choice_input({.key = "raid_level",
                    .label = "RAID level",
                    .help = "raid0: striping, no redundancy (2+ disks). raid1: mirror of all "
                            "disks (2+). raid5: single parity (3+). raid6: double parity (4+). "
                            "raid10: striped mirror pairs (4+, even).",
                    .options = {"raid0", "raid1", "raid5", "raid6", "raid10"},
                    .default_value = "raid5"}),
      integer_input({.key = "disks",
                     .label = "Disks",
                     .unit = "disks",
                     .help = "Disks in the array, hot spares excluded, 1 to 100; the level sets "
                             "the minimum.",
                     .min = 1,
                     .max = 100,
                     .step = 1,
                     .default_value = 4}),
      number_input({.key = "disk_size_tb",
                    .label = "Disk size",
                    .unit = "TB",
                    .help = "Capacity of one disk in decimal terabytes as sold (4 TB = 4 × 10¹² "
                            "bytes), 0.1 to 100; with mixed sizes enter the smallest.",
                    .min = 0.1,
                    .max = 100,
                    .step = 0.1,
                    .default_value = 4}),
      number_input({.key = "rebuild_rate_mb_s",
                    .label = "Rebuild rate",
                    .unit = "MB/s",
                    .help = "Sustained rate the replacement disk is written at during a rebuild, "
                            "in MB/s (10⁶ bytes): about 100–200 for hard disks, less under load; "
                            "1 to 10 000.",
                    .min = 1,
                    .max = 10000,
                    .step = 1,
                    .default_value = 100}),
  };
  t.outputs = {
      number_output(
          {.key = "usable_capacity_tb", .label = "Usable capacity", .unit = "TB", .precision = 3}),
      number_output(
          {.key = "raw_capacity_tb", .label = "Raw capacity", .unit = "TB", .precision = 3}),
      number_output({.key = "usable_pct",
                     .label = "Storage efficiency (usable / raw)",
                     .unit = "%",
                     .precision = 2}),
      number_output({.key = "failures_tolerated",
                     .label = "Disk failures always survived",
                     .unit = "disks",
                     .precision = 0}),
      number_output({.key = "max_failures_tolerated",
                     .label = "Disk failures survived at best (RAID 10: one per mirror pair)",
                     .unit = "disks",
                     .precision = 0}),
      number_output({.key = "rebuild_time_h",
                     .label = "Time to rebuild one disk (0 for RAID 0, which cannot rebuild)",
                     .unit = "h",
                     .precision = 2,
                     .small_values_in = "rebuild_time_min"}),
      number_output({.key = "rebuild_time_min",
                     .label = "Time to rebuild one disk, in minutes",
                     .unit = "min",
                     .precision = 3}),
  };
  t.references = {
      "D. A. Patterson, G. Gibson, R. H. Katz, \"A Case for Redundant Arrays of Inexpensive "
      "Disks (RAID)\", Proc. ACM SIGMOD, 1988 (mirroring and parity levels, the capacity given "
      "up to check disks)",
      "SNIA, \"Common RAID Disk Data Format Specification\" (DDF) rev. 2.0, 2009, §4 (standard "
      "RAID levels: RAID-0, RAID-1, RAID-5, RAID-6 and the RAID-1E/10 mirror-stripe layouts)",
      "IBM Documentation, Power9 \"Disk array capacities\" and \"RAID level summary\" "
      "(ibm.com/docs, p9ebj): RAID 0 n × disk, RAID 5 (n − 1) × disk, RAID 6 (n − 2) × disk, "
      "RAID 10 n × disk / 2; minimum 3 disks for RAID 5, 4 for RAID 6, an even count for "
      "RAID 10",
  };
  t.examples = {
      {.title = "RAID 6 of six 16 TB disks",
       .request_json = R"({"raid_level":"raid6","disks":6,"disk_size_tb":16,)"
                       R"("rebuild_rate_mb_s":150})",
       .expected_json = R"({"usable_capacity_tb":64,"failures_tolerated":2})",
       .tolerance_pct = 0,
       .source = "gist \"3 people have 6x16TB\" (gist.github.com/nicolas17/"
                 "ccc363bd5ec2c16a6797e102b50984af): each person's RAID-6 of 6×16 TB gives "
                 "4×16TB = 64TB; two failures per RAID-6 survive, per the sorquan RAID table "
                 "(gist.github.com/sorquan/86d4721070fbf414146cb62a38b40f87: RAID 6, 2 disk)"},
      {.title = "RAID 5 of six 16 TB disks",
       .request_json = R"({"raid_level":"raid5","disks":6,"disk_size_tb":16,)"
                       R"("rebuild_rate_mb_s":150})",
       .expected_json = R"({"usable_capacity_tb":80,"failures_tolerated":1})",
       .tolerance_pct = 0,
       .source = "gist \"3 people have 6x16TB\" (gist.github.com/nicolas17/"
                 "ccc363bd5ec2c16a6797e102b50984af): RAID-5 of 6×16 TB gives 5x16TB = 80TB; one "
                 "failure survived, per the sorquan RAID table (RAID 5, 1 disk)"},
      {.title = "Smallest RAID 5: three disks, 67 % usable",
       .request_json = R"({"raid_level":"raid5","disks":3,"disk_size_tb":1,)"
                       R"("rebuild_rate_mb_s":100})",
       .expected_json = R"({"usable_pct":67})",
       .tolerance_pct = 0.75,
       .source = "IBM Documentation, Power9 \"RAID level summary\" (ibm.com/docs/ja/POWER9/p9ebj/"
                 "raidlevelsummary.htm): RAID 5 usable capacity from 67 % (its minimum of 3 "
                 "devices per array)"},
      {.title = "RAID 10 of four 1 TB disks",
       .request_json = R"({"raid_level":"raid10","disks":4,"disk_size_tb":1,)"
                       R"("rebuild_rate_mb_s":100})",
       .expected_json = R"({"usable_capacity_tb":2,"usable_pct":50})",
       .tolerance_pct = 0,
       .source = "php-raid README (github.com/behzadsp/php-raid): a RaidTen of four 1TB drives "
                 "has a capacity of \"2 TB\"; IBM Documentation, Power9 \"RAID level summary\": "
                 "RAID 10 usable capacity 50 %"},
      {.title = "Rebuilding an 8 TB SATA SSD at 385 MB/s",
       .request_json = R"({"raid_level":"raid5","disks":4,"disk_size_tb":8,)"
                       R"("rebuild_rate_mb_s":385})",
       .expected_json = R"({"rebuild_time_h":5.8})",
       .tolerance_pct = 1,
       .source = "StorageMath RAID Rebuild Time Calculator (storagemath.org/raid-rebuild-"
                 "calculator), table \"Typical Rebuild Speed by Drive Type\": SATA SSD, ~385 "
                 "MB/s at 30 % load, 8 TB drive rebuild ~5.8 hrs"},
      {.title = "Rebuilding an 8 TB NVMe SSD at 2450 MB/s",
       .request_json = R"({"raid_level":"raid1","disks":2,"disk_size_tb":8,)"
                       R"("rebuild_rate_mb_s":2450})",
       .expected_json = R"({"rebuild_time_min":54})",
       .tolerance_pct = 1,
       .source = "StorageMath RAID Rebuild Time Calculator (storagemath.org/raid-rebuild-"
                 "calculator), table \"Typical Rebuild Speed by Drive Type\": NVMe SSD, ~2,450 "
                 "MB/s at 30 % load, 8 TB drive rebuild ~54 min"},
  };
  return t;
}

struct Layout {
  int min_disks;
  double data_disks;  // disks' worth of usable capacity
  double guaranteed;  // failures survived whichever disks fail
  double best_case;   // failures survived when they fall on different mirrors
  bool can_rebuild;
};

Layout layout(const std::string& level, double n) {
  if (level == "raid0") return {2, n, 0, 0, false};
  if (level == "raid1") return {2, 1, n - 1, n - 1, true};
  if (level == "raid5") return {3, n - 1, 1, 1, true};
  if (level == "raid6") return {4, n - 2, 2, 2, true};
  if (level == "raid10") return {4, n / 2, 1, n / 2, true};
  throw std::logic_error("raid-capacity: unknown raid_level");  // validation prevents it
}

ComputeResult compute(const Inputs& in) {
  const std::string& level = in.enumeration("raid_level");
  const double n = in.number("disks");
  const double size_tb = in.number("disk_size_tb");
  const Layout l = layout(level, n);
  if (n < l.min_disks) {
    std::string msg = level + " needs at least ";
    append_shortest(msg, l.min_disks);
    msg += " disks, not ";
    append_shortest(msg, n);
    msg += level == "raid0"   ? " (striping needs two)"
           : level == "raid1" ? " (a mirror needs two)"
           : level == "raid5" ? " (two for data, one's worth for parity)"
           : level == "raid6" ? " (two for data, two's worth for parity)"
                              : " (two mirror pairs)";
    msg += ": add disks or choose another level";
    return ToolError{"disks", std::move(msg)};
  }
  if (level == "raid10" && static_cast<long long>(n) % 2 != 0) {
    std::string msg = "raid10 stripes over mirror pairs, so it needs an even number of disks, not ";
    append_shortest(msg, n);
    msg += ": add or remove one, or leave the odd disk as a hot spare";
    return ToolError{"disks", std::move(msg)};
  }
  // Rebuilding writes one whole disk at the rebuild rate; the surviving disks are read in
  // parallel, so the write is the bottleneck when nothing else loads the array.
  const double rebuild_s =
      l.can_rebuild ? size_tb * kBytesPerTb / (in.number("rebuild_rate_mb_s") * kBytesPerMb) : 0;
  Outputs out;
  out.set("usable_capacity_tb", l.data_disks * size_tb)
      .set("raw_capacity_tb", n * size_tb)
      .set("usable_pct", l.data_disks / n * 100)
      .set("failures_tolerated", l.guaranteed)
      .set("max_failures_tolerated", l.best_case)
      .set("rebuild_time_h", rebuild_s / kSPerH)
      .set("rebuild_time_min", rebuild_s / 60);
  return out;
}

}  // namespace

Tool make_raid_capacity() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
