// The drain at rest's settings as an object of RocksDB's options system, so
// that options strings and OPTIONS files carry them (issue 57).
//
// Why an object in table_properties_collectors. A column family's options
// are a public struct whose layout must stay upstream's (a program built
// against stock 9.10 headers runs on this library), so the fork cannot add
// fields to it. What it can add is an object to a field that holds
// registered, serializable objects. table_properties_collectors is the one
// that is a list (a user's own collectors stay beside it) and that upstream
// already uses for compaction settings the same way: its
// CompactOnDeletionCollectorFactory is a compaction trigger configured as a
// collector factory, its settings changed at run time on the object. This
// one collects nothing (it declines every table). In an options string or
// an OPTIONS file:
//
//   compaction_pri=kVlsmRanged;
//   table_properties_collectors={id=VlsmDrainAtRest;vlsm_drain_at_rest=false}
//
// The setting names are SetOptions' (VlsmDrainOptions in rocksdb/vlsm.h), so
// each setting has one name everywhere.
//
// Who holds what:
//   - ConfigureVlsm puts one, with the defaults, into the options of the
//     ranged layout (unless they hold one already); CheckVlsmOptions refuses
//     two.
//   - At open (and CreateColumnFamily) the column family takes its own copy
//     (VlsmOwnDrainSettings, from SanitizeOptions, patch 0023): a SetOptions
//     on one DB changes neither the caller's options nor another DB's.
//   - The column family's VlsmRestClock reads the settings from that copy
//     (or from defaults of its own when the options hold none) and SetOptions
//     writes them there; so GetOptions and the OPTIONS file written after a
//     SetOptions show what is in force.
//   - Stock RocksDB reading such an OPTIONS file skips the unknown object
//     (upstream ignores unsupported objects in lists by default).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/table_properties.h"

namespace ROCKSDB_NAMESPACE {

struct ColumnFamilyOptions;
class ObjectLibrary;

// The drain's settings (names and defaults: VlsmDrainOptions in
// rocksdb/vlsm.h).
struct VlsmDrainSettings {
  bool enabled = true;
  uint32_t min_quiet_seconds = 30;
  uint32_t flush_intervals = 8;
};

// Sets the setting `name` (one of VlsmDrainOptions' names) in *settings from
// `value`. *known: whether `name` is one of them (if not, OK and nothing
// set). InvalidArgument naming the option for a bad value ("true"/"false"/
// "1"/"0"; a whole number of at most 32 bits), with *settings unchanged.
Status ParseVlsmDrainSetting(const std::string& name, const std::string& value,
                             VlsmDrainSettings* settings, bool* known);

// Whether `name` is one of the drain's settings.
bool IsVlsmDrainSetting(const std::string& name);

// Takes the drain's settings out of `options` (SetOptions' map) into
// *settings (which holds the current ones), the rest into *others. A bad
// value: ParseVlsmDrainSetting's InvalidArgument, with *settings unchanged.
Status ParseVlsmDrainOptions(
    const std::unordered_map<std::string, std::string>& options,
    VlsmDrainSettings* settings,
    std::unordered_map<std::string, std::string>* others);

// "vlsm_drain_at_rest=true vlsm_rest_min_seconds=30 ..." (the LOG's form).
std::string VlsmDrainSettingsString(const VlsmDrainSettings& settings);

class VlsmDrainAtRestSettings : public TablePropertiesCollectorFactory {
 public:
  static const char* kClassName() { return "VlsmDrainAtRest"; }
  const char* Name() const override { return kClassName(); }

  explicit VlsmDrainAtRestSettings(
      const VlsmDrainSettings& settings = VlsmDrainSettings());

  // Atomic per field: SetOptions writes under the DB mutex, while the
  // object GetOptions hands out (the DB's own) may be serialized or read
  // by the caller at any time.
  VlsmDrainSettings Get() const;
  void Set(const VlsmDrainSettings& settings);

  // Collects nothing: a settings object (see the header comment).
  TablePropertiesCollector* CreateTablePropertiesCollector(
      TablePropertiesCollectorFactory::Context) override {
    return nullptr;
  }

  // For the LOG's options dump.
  std::string ToString() const override;

 private:
  std::atomic<bool> enabled_;
  std::atomic<uint32_t> min_quiet_seconds_;
  std::atomic<uint32_t> flush_intervals_;
};

// Adds VlsmDrainAtRest to the library that
// TablePropertiesCollectorFactory::CreateFromString reads (patch 0023 calls
// it where upstream registers its own collector factories).
void RegisterVlsmDrainAtRest(ObjectLibrary& library);

// The options' table_properties_collectors (ColumnFamilyOptions' and
// ImmutableCFOptions' field).
using VlsmCollectorFactories =
    std::vector<std::shared_ptr<TablePropertiesCollectorFactory>>;

// The VlsmDrainAtRest object among `factories` (the first; null if none),
// and how many there are.
std::shared_ptr<VlsmDrainAtRestSettings> VlsmDrainSettingsIn(
    const VlsmCollectorFactories& factories);
int CountVlsmDrainSettings(const VlsmCollectorFactories& factories);

// Replaces the VlsmDrainAtRest object in *options by a copy of its own, so
// that what a DB changes is the DB's alone (SanitizeOptions, patch 0023).
void VlsmOwnDrainSettings(ColumnFamilyOptions* options);

// Puts one with the defaults into *options unless they hold one (the ranged
// layout's ConfigureVlsm).
void AddVlsmDrainSettings(ColumnFamilyOptions* options);

}  // namespace ROCKSDB_NAMESPACE
