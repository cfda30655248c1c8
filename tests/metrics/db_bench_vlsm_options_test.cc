// db_bench_vlsm's flag handling: good values set exactly the options
// ConfigureVlsm() chooses; bad ones fail with a message naming the flag.
#include "gtest/gtest.h"
#include "tests/status_assertions.h"
#include "tools/db_bench_vlsm_options.h"
#include "tools/vlsm_tool_options.h"

namespace ROCKSDB_NAMESPACE {
namespace {

VlsmFlagValues VlsmOn() {
  VlsmFlagValues flags;
  flags.vlsm = true;
  return flags;
}

std::string ErrorOf(const VlsmFlagValues& flags) {
  VlsmOptions out;
  Status s = VlsmOptionsFromFlags(flags, &out);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  return s.ToString();
}

TEST(DbBenchVlsmFlagsTest, GoodValuesBecomeTheVlsmOptions) {
  VlsmFlagValues flags = VlsmOn();
  flags.sst_size = 4 << 20;
  flags.growth = 4;
  flags.phi = 16;
  VlsmOptions vlsm;
  ASSERT_OK(VlsmOptionsFromFlags(flags, &vlsm));
  EXPECT_EQ(vlsm.sst_size, 4u << 20);
  EXPECT_EQ(vlsm.growth, 4);
  EXPECT_EQ(vlsm.l1_l2_growth, 16);
}

TEST(DbBenchVlsmFlagsTest, BadValuesNameTheFlagAndTheRule) {
  VlsmFlagValues flags = VlsmOn();
  flags.phi = 30;
  std::string e = ErrorOf(flags);
  EXPECT_NE(e.find("--vlsm_phi"), std::string::npos) << e;
  EXPECT_NE(e.find("multiple of --vlsm_growth"), std::string::npos) << e;

  flags = VlsmOn();
  flags.growth = 1;
  e = ErrorOf(flags);
  EXPECT_NE(e.find("--vlsm_growth (f) must be >= 2"), std::string::npos) << e;

  flags = VlsmOn();
  flags.sst_size = 0;
  e = ErrorOf(flags);
  EXPECT_NE(e.find("--vlsm_sst_size (S_M) must be > 0"), std::string::npos)
      << e;

  flags = VlsmOn();
  flags.num_levels = 2;
  e = ErrorOf(flags);
  EXPECT_NE(e.find("--num_levels >= 3"), std::string::npos) << e;
}

TEST(DbBenchVlsmFlagsTest, VlsmParametersWithoutVlsmAreRejected) {
  VlsmFlagValues flags;
  flags.explicit_flags = {"vlsm_phi"};
  const std::string e = ErrorOf(flags);
  EXPECT_NE(e.find("--vlsm_phi has no effect without --vlsm"),
            std::string::npos)
      << e;
}

TEST(DbBenchVlsmFlagsTest, AppliedOptionsAreExactlyConfigureVlsms) {
  VlsmOptions vlsm;
  Options expected;
  ASSERT_OK(ConfigureVlsm(&expected, vlsm));
  Options options;
  std::vector<std::string> notes;
  ASSERT_OK(ApplyVlsmToBenchOptions(vlsm, {}, &options, &notes));
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(options.compaction_pri, kVlsm);
  EXPECT_EQ(options.write_buffer_size, 8u << 20);
  EXPECT_EQ(options.target_file_size_base, 8u << 20);
  EXPECT_EQ(options.max_bytes_for_level_base, 64u << 20);
  EXPECT_EQ(options.max_bytes_for_level_multiplier, 8);
  EXPECT_EQ(options.max_bytes_for_level_multiplier_additional,
            expected.max_bytes_for_level_multiplier_additional);
  EXPECT_EQ(options.max_bytes_for_level_multiplier_additional[1], 4);
  EXPECT_EQ(options.level0_file_num_compaction_trigger, 1);
  EXPECT_FALSE(options.level_compaction_dynamic_level_bytes);
  EXPECT_EQ(options.max_compaction_bytes, expected.max_compaction_bytes);
}

TEST(DbBenchVlsmFlagsTest, ExplicitBenchFlagsWinWithANote) {
  Options options;
  options.max_write_buffer_number = 4;  // as db_bench set it from the flag
  options.write_buffer_size = 123;      // not given: vLSM's value wins
  std::vector<std::string> notes;
  ASSERT_OK(ApplyVlsmToBenchOptions(VlsmOptions(), {"max_write_buffer_number"},
                                    &options, &notes));
  EXPECT_EQ(options.max_write_buffer_number, 4);
  EXPECT_EQ(options.write_buffer_size, 8u << 20);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "--max_write_buffer_number=4 overrides vLSM's 2");
}

TEST(DbBenchVlsmFlagsTest, ExplicitFlagsThatBreakVlsmFail) {
  Options options;
  options.compaction_pri = kMinOverlappingRatio;
  std::vector<std::string> notes;
  Status s = ApplyVlsmToBenchOptions(VlsmOptions(), {"compaction_pri"},
                                     &options, &notes);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("--compaction_pri conflicts with --vlsm"),
            std::string::npos)
      << s.ToString();

  options = Options();
  options.level_compaction_dynamic_level_bytes = true;
  s = ApplyVlsmToBenchOptions(VlsmOptions(),
                              {"level_compaction_dynamic_level_bytes"},
                              &options, &notes);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("level_compaction_dynamic_level_bytes"),
            std::string::npos)
      << s.ToString();
}

TEST(DbBenchVlsmFlagsTest, RangedL0LayoutFlags) {
  VlsmFlagValues flags = VlsmOn();
  flags.l0 = "ranged";
  flags.ranged_l0_depth = 4;
  VlsmOptions vlsm;
  ASSERT_OK(VlsmOptionsFromFlags(flags, &vlsm));
  EXPECT_EQ(vlsm.l0_layout, VlsmL0Layout::kRanged);
  EXPECT_EQ(vlsm.ranged_l0_depth, 4);
  Options options;
  std::vector<std::string> notes;
  ASSERT_OK(ApplyVlsmToBenchOptions(vlsm, {}, &options, &notes));
  EXPECT_EQ(options.compaction_pri, kVlsmRanged);
  EXPECT_EQ(options.level0_file_num_compaction_trigger, 4);

  // An explicit --compaction_pri=5 with --vlsm_l0=ranged names kVlsmRanged.
  options = Options();
  options.compaction_pri = kVlsm;
  Status s = ApplyVlsmToBenchOptions(vlsm, {"compaction_pri"}, &options,
                                     &notes);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("which sets it to kVlsmRanged, 6"),
            std::string::npos)
      << s.ToString();
}

TEST(DbBenchVlsmFlagsTest, BadL0LayoutFlagsNameTheFlag) {
  VlsmFlagValues flags = VlsmOn();
  flags.l0 = "tiered";
  std::string e = ErrorOf(flags);
  EXPECT_NE(e.find("--vlsm_l0 is single or ranged, got 'tiered'"),
            std::string::npos)
      << e;

  flags = VlsmOn();
  flags.l0 = "ranged";
  flags.ranged_l0_depth = 0;
  e = ErrorOf(flags);
  EXPECT_NE(e.find("--vlsm_ranged_l0_depth must be >= 1"), std::string::npos)
      << e;

  flags = VlsmOn();  // the single-file layout has no depth
  flags.explicit_flags = {"vlsm_ranged_l0_depth"};
  e = ErrorOf(flags);
  EXPECT_NE(e.find("--vlsm_ranged_l0_depth has no effect without "
                   "--vlsm_l0=ranged"),
            std::string::npos)
      << e;

  flags = VlsmFlagValues();  // vLSM off
  flags.explicit_flags = {"vlsm_l0"};
  e = ErrorOf(flags);
  EXPECT_NE(e.find("--vlsm_l0 has no effect without --vlsm"),
            std::string::npos)
      << e;
}

// --vlsm_preset gives the preset's VlsmOptions (options/vlsm_presets.h), so
// a benchmark of "the configuration users are told to take" is one flag;
// a shape flag beside it, an unknown name or no --vlsm is refused by name.
TEST(DbBenchVlsmFlagsTest, PresetFlag) {
  VlsmFlagValues flags = VlsmOn();
  flags.preset = "ranged";
  flags.explicit_flags = {"vlsm_preset"};
  flags.num_levels = 5;
  VlsmOptions vlsm;
  ASSERT_OK(VlsmOptionsFromFlags(flags, &vlsm));
  const VlsmOptions ranged = VlsmOptions::Ranged();
  EXPECT_EQ(vlsm.l0_layout, VlsmL0Layout::kRanged);
  EXPECT_EQ(vlsm.sst_size, ranged.sst_size);
  EXPECT_EQ(vlsm.l1_l2_growth, ranged.l1_l2_growth);
  EXPECT_EQ(vlsm.memtable_size, ranged.memtable_size);
  EXPECT_EQ(vlsm.ranged_stop_trigger, ranged.ranged_stop_trigger);

  flags.explicit_flags = {"vlsm_preset", "vlsm_phi"};
  std::string e = ErrorOf(flags);
  EXPECT_NE(e.find("--vlsm_phi conflicts with --vlsm_preset=ranged"),
            std::string::npos)
      << e;

  flags.explicit_flags = {"vlsm_preset"};
  flags.preset = "fast";
  e = ErrorOf(flags);
  EXPECT_NE(e.find("--vlsm_preset is ranged or paper, not 'fast'"),
            std::string::npos)
      << e;

  flags.vlsm = false;
  e = ErrorOf(flags);
  EXPECT_NE(e.find("--vlsm_preset has no effect without --vlsm"),
            std::string::npos)
      << e;
}

// The measuring tools' size flags take the one size grammar
// (util/vlsm_byte_size.h): units in either case, nothing else, and no
// value past 64 bits (strtoull saturated those and called them good).
TEST(VlsmToolOptionsTest, SizesAreParsedOneWay) {
  bool ok = false;
  EXPECT_EQ(VlsmToolSize("64M", &ok), uint64_t{64} << 20);
  EXPECT_TRUE(ok);
  EXPECT_EQ(VlsmToolSize("4k", &ok), uint64_t{4} << 10);
  EXPECT_TRUE(ok);
  for (const char* bad : {"", "+5", " 5", "5 ", "1.5G", "5T", "-1",
                          "18446744073709551616", "17179869184G"}) {
    EXPECT_EQ(VlsmToolSize(bad, &ok), 0u) << bad;
    EXPECT_FALSE(ok) << bad;
  }
  EXPECT_EQ(VlsmToolSize("18446744073709551615", &ok), ~uint64_t{0});
  EXPECT_TRUE(ok);
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
