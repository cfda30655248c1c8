// The drain at rest's settings in RocksDB's options system
// (options/vlsm_drain_settings.h): an options string and an OPTIONS file
// carry them (the VlsmDrainAtRest object in table_properties_collectors),
// bad values are refused naming the option, ConfigureVlsm adds one and
// open refuses two, a DB keeps its own copy, and SetOptions shows in
// GetOptions and in the OPTIONS file. That the settings so carried rule the
// drain is tested with the drain (vlsm_drain_at_rest_test,
// TheOptionsFileCarriesTheDrainSettings).
#include "options/vlsm_drain_settings.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb/vlsm.h"
#include "tests/test_dir.h"
#include "tests/vlsm/vlsm_db_test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

std::string TestDir(const std::string& name) {
  return TestPath("vlsm_drain_settings_test", name);
}

// The drain settings the options hold; fails the test if they hold none.
VlsmDrainSettings SettingsIn(const ColumnFamilyOptions& o) {
  const auto object = VlsmDrainSettingsIn(o.table_properties_collector_factories);
  EXPECT_NE(object, nullptr) << "no VlsmDrainAtRest object in the options";
  return object == nullptr ? VlsmDrainSettings() : object->Get();
}

ColumnFamilyOptions FromString(const std::string& text, Status* s) {
  ConfigOptions config;
  ColumnFamilyOptions out;
  *s = GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(), text,
                                        &out);
  return out;
}

TEST(VlsmDrainSettingsTest, AnOptionsStringCarriesTheSettings) {
  Status s;
  const ColumnFamilyOptions parsed = FromString(
      "table_properties_collectors={id=VlsmDrainAtRest;"
      "vlsm_drain_at_rest=false;vlsm_rest_min_seconds=5}",
      &s);
  ASSERT_TRUE(s.ok()) << s.ToString();
  VlsmDrainSettings got = SettingsIn(parsed);
  EXPECT_FALSE(got.enabled);
  EXPECT_EQ(got.min_quiet_seconds, 5u);
  EXPECT_EQ(got.flush_intervals, VlsmDrainSettings().flush_intervals);

  // Written out and read back: the same settings.
  std::string text;
  ASSERT_TRUE(
      GetStringFromColumnFamilyOptions(ConfigOptions(), parsed, &text).ok());
  EXPECT_NE(text.find("VlsmDrainAtRest"), std::string::npos) << text;
  const ColumnFamilyOptions again = FromString(text, &s);
  ASSERT_TRUE(s.ok()) << s.ToString() << "\n" << text;
  got = SettingsIn(again);
  EXPECT_FALSE(got.enabled);
  EXPECT_EQ(got.min_quiet_seconds, 5u);
}

// The LOG's form names every setting, and each of its name=value pairs
// parses back to the value printed: the printer and the parser walk one
// table, so a setting added to one is in both.
TEST(VlsmDrainSettingsTest, TheLogFormParsesBack) {
  const VlsmDrainSettings set{/*enabled=*/false, /*min_quiet_seconds=*/7,
                              /*flush_intervals=*/4000000000u};
  const std::string text = VlsmDrainSettingsString(set);
  VlsmDrainSettings back{true, 0, 0};
  int pairs = 0;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = std::min(text.find(' ', at), text.size());
    const std::string pair = text.substr(at, end - at);
    const size_t eq = pair.find('=');
    ASSERT_NE(eq, std::string::npos) << text;
    bool known = false;
    const Status s = ParseVlsmDrainSetting(pair.substr(0, eq),
                                           pair.substr(eq + 1), &back, &known);
    EXPECT_TRUE(known) << pair;
    EXPECT_TRUE(s.ok()) << s.ToString();
    ++pairs;
    at = end + 1;
  }
  EXPECT_EQ(pairs, 3) << text;
  EXPECT_EQ(back.enabled, set.enabled);
  EXPECT_EQ(back.min_quiet_seconds, set.min_quiet_seconds);
  EXPECT_EQ(back.flush_intervals, set.flush_intervals);
  for (const char* name :
       {VlsmDrainOptions::kEnabled, VlsmDrainOptions::kMinQuietSeconds,
        VlsmDrainOptions::kFlushIntervals}) {
    EXPECT_TRUE(IsVlsmDrainSetting(name)) << name;
  }
  EXPECT_FALSE(IsVlsmDrainSetting("level0_file_num_compaction_trigger"));
}

TEST(VlsmDrainSettingsTest, ABadValueIsRefusedNamingTheOption) {
  for (const std::string& setting :
       {std::string("vlsm_drain_at_rest=maybe"),
        std::string("vlsm_rest_min_seconds=-1"),
        std::string("vlsm_rest_flush_intervals=99999999999")}) {
    Status s;
    FromString("table_properties_collectors={id=VlsmDrainAtRest;" + setting +
                   "}",
               &s);
    EXPECT_TRUE(s.IsInvalidArgument()) << setting << ": " << s.ToString();
    const std::string name = setting.substr(0, setting.find('='));
    EXPECT_NE(s.ToString().find(name), std::string::npos)
        << setting << ": " << s.ToString();
  }
  Status s;
  FromString("table_properties_collectors={id=VlsmDrainAtRest;no_such=1}", &s);
  EXPECT_FALSE(s.ok()) << "an unknown setting of the object was accepted";
}

TEST(VlsmDrainSettingsTest, ConfigureVlsmAddsOneAndOpenRefusesTwo) {
  Options o;
  o.create_if_missing = true;
  ASSERT_TRUE(ConfigureVlsm(&o, VlsmOptions::Ranged()).ok());
  EXPECT_EQ(CountVlsmDrainSettings(o.table_properties_collector_factories), 1);
  ASSERT_TRUE(ConfigureVlsm(&o, VlsmOptions::Ranged()).ok());
  EXPECT_EQ(CountVlsmDrainSettings(o.table_properties_collector_factories), 1)
      << "a second ConfigureVlsm keeps the one there";
  // The paper's layout has no drain: nothing added.
  Options single;
  ASSERT_TRUE(ConfigureVlsm(&single, VlsmOptions()).ok());
  EXPECT_EQ(
      CountVlsmDrainSettings(single.table_properties_collector_factories), 0);

  o.table_properties_collector_factories.push_back(
      std::make_shared<VlsmDrainAtRestSettings>());
  DB* raw = nullptr;
  const Status s = DB::Open(o, TestDir("two"), &raw);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("keep one"), std::string::npos) << s.ToString();
  delete raw;
}

// The DB takes its own copy at open: SetOptions changes what GetOptions and
// the OPTIONS file show, not the caller's options.
TEST(VlsmDrainSettingsTest, SetOptionsShowsInGetOptionsAndTheOptionsFile) {
  const std::string dir = TestDir("persisted");
  Options o = vlsm_test::VlsmTestOptions(nullptr);
  ASSERT_TRUE(ConfigureVlsm(&o, VlsmOptions::Ranged()).ok());
  const auto callers =
      VlsmDrainSettingsIn(o.table_properties_collector_factories);
  ASSERT_NE(callers, nullptr);
  callers->Set({/*enabled=*/false, /*min_quiet_seconds=*/5,
                /*flush_intervals=*/3});
  std::unique_ptr<DB> db = vlsm_test::OpenFreshDb(o, dir);
  ASSERT_NE(db, nullptr);

  Options now = db->GetOptions();
  EXPECT_NE(VlsmDrainSettingsIn(now.table_properties_collector_factories),
            callers)
      << "the DB shares the caller's settings object";
  EXPECT_FALSE(SettingsIn(now).enabled);
  EXPECT_EQ(SettingsIn(now).min_quiet_seconds, 5u);

  ASSERT_TRUE(db->SetOptions({{VlsmDrainOptions::kEnabled, "true"},
                              {VlsmDrainOptions::kFlushIntervals, "4"}})
                  .ok());
  now = db->GetOptions();
  EXPECT_TRUE(SettingsIn(now).enabled);
  EXPECT_EQ(SettingsIn(now).min_quiet_seconds, 5u);
  EXPECT_EQ(SettingsIn(now).flush_intervals, 4u);
  EXPECT_FALSE(callers->Get().enabled) << "SetOptions changed the caller's";
  ASSERT_TRUE(db->Close().ok());
  db.reset();

  DBOptions db_options;
  std::vector<ColumnFamilyDescriptor> cfs;
  ConfigOptions config;
  ASSERT_TRUE(LoadLatestOptions(config, dir, &db_options, &cfs).ok());
  ASSERT_EQ(cfs.size(), 1u);
  EXPECT_TRUE(SettingsIn(cfs[0].options).enabled);
  EXPECT_EQ(SettingsIn(cfs[0].options).min_quiet_seconds, 5u);
  EXPECT_EQ(SettingsIn(cfs[0].options).flush_intervals, 4u);
}

// A read-only DB writes nothing: SetOptions takes the drain's settings (it
// never compacts, so they change nothing) and leaves the directory, which
// another process may own, as it was.
TEST(VlsmDrainSettingsTest, AReadOnlyDbWritesNoOptionsFile) {
  const std::string dir = TestDir("read_only");
  Options o = vlsm_test::VlsmTestOptions(nullptr);
  ASSERT_TRUE(ConfigureVlsm(&o, VlsmOptions::Ranged()).ok());
  {
    std::unique_ptr<DB> db = vlsm_test::OpenFreshDb(o, dir);
    ASSERT_NE(db, nullptr);
    ASSERT_TRUE(db->Put(WriteOptions(), "k", "v").ok());
    ASSERT_TRUE(db->Close().ok());
  }
  std::vector<std::string> before;
  ASSERT_TRUE(Env::Default()->GetChildren(dir, &before).ok());
  DB* raw = nullptr;
  ASSERT_TRUE(DB::OpenForReadOnly(o, dir, &raw).ok());
  std::unique_ptr<DB> db(raw);
  const Status s = db->SetOptions({{VlsmDrainOptions::kEnabled, "false"}});
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::vector<std::string> after;
  ASSERT_TRUE(Env::Default()->GetChildren(dir, &after).ok());
  std::sort(before.begin(), before.end());
  std::sort(after.begin(), after.end());
  EXPECT_EQ(before, after) << "a read-only DB changed its directory";
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
