#include "options/vlsm_drain_settings.h"

#include <unordered_map>

#include "rocksdb/options.h"
#include "rocksdb/utilities/object_registry.h"
#include "rocksdb/utilities/options_type.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// "true"/"false"/"1"/"0", as upstream's boolean options.
bool ParseDrainBool(const std::string& v, bool* out) {
  if (v == "true" || v == "1") {
    *out = true;
  } else if (v == "false" || v == "0") {
    *out = false;
  } else {
    return false;
  }
  return true;
}

// A whole number of at most 32 bits, digits only.
bool ParseDrainCount(const std::string& v, uint32_t* out) {
  if (v.empty() || v.size() > 10 ||
      v.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  const uint64_t n = std::stoull(v);
  if (n > UINT32_MAX) {
    return false;
  }
  *out = static_cast<uint32_t>(n);
  return true;
}

}  // namespace

Status ParseVlsmDrainSetting(const std::string& name, const std::string& value,
                             VlsmDrainSettings* settings, bool* known) {
  VlsmDrainSettings parsed = *settings;
  bool ok = true;
  *known = true;
  if (name == VlsmDrainOptions::kEnabled) {
    ok = ParseDrainBool(value, &parsed.enabled);
  } else if (name == VlsmDrainOptions::kMinQuietSeconds) {
    ok = ParseDrainCount(value, &parsed.min_quiet_seconds);
  } else if (name == VlsmDrainOptions::kFlushIntervals) {
    ok = ParseDrainCount(value, &parsed.flush_intervals);
  } else {
    *known = false;
    return Status::OK();
  }
  if (!ok) {
    return Status::InvalidArgument(
        "vLSM option " + name + ": '" + value + "' is not " +
        (name == VlsmDrainOptions::kEnabled
             ? "true or false"
             : "a whole number of seconds or intervals (32 bits)"));
  }
  *settings = parsed;
  return Status::OK();
}

namespace {

std::string SettingValue(const VlsmDrainSettings& s, const std::string& name) {
  if (name == VlsmDrainOptions::kEnabled) {
    return s.enabled ? "true" : "false";
  }
  return std::to_string(name == VlsmDrainOptions::kMinQuietSeconds
                            ? s.min_quiet_seconds
                            : s.flush_intervals);
}

// One entry of the object's type map: parsed and serialized through the
// object (offset 0), as upstream's CompactOnDeletionCollectorFactory does, so
// that the atomics are read and written whole. Marked mutable as upstream's
// collector marks its own (the object's values change at run time); DB
// SetOptions reaches them by their flat names (VlsmSetOptions), not through
// this map: table_properties_collectors itself is fixed at open.
OptionTypeInfo DrainSettingInfo(const char* name) {
  return OptionTypeInfo(
      0, OptionType::kUnknown, OptionVerificationType::kNormal,
      OptionTypeFlags::kCompareNever | OptionTypeFlags::kMutable,
      [name](const ConfigOptions&, const std::string&,
             const std::string& value, void* addr) {
        auto* object = static_cast<VlsmDrainAtRestSettings*>(addr);
        VlsmDrainSettings s = object->Get();
        bool known = false;
        Status st = ParseVlsmDrainSetting(name, value, &s, &known);
        if (st.ok()) {
          object->Set(s);
        }
        return st;
      },
      [name](const ConfigOptions&, const std::string&, const void* addr,
             std::string* value) {
        const auto* object = static_cast<const VlsmDrainAtRestSettings*>(addr);
        *value = SettingValue(object->Get(), name);
        return Status::OK();
      },
      nullptr);
}

const std::unordered_map<std::string, OptionTypeInfo>& DrainSettingsTypeInfo() {
  static const auto* const kTypeInfo =
      new std::unordered_map<std::string, OptionTypeInfo>{
          {VlsmDrainOptions::kEnabled,
           DrainSettingInfo(VlsmDrainOptions::kEnabled)},
          {VlsmDrainOptions::kMinQuietSeconds,
           DrainSettingInfo(VlsmDrainOptions::kMinQuietSeconds)},
          {VlsmDrainOptions::kFlushIntervals,
           DrainSettingInfo(VlsmDrainOptions::kFlushIntervals)},
      };
  return *kTypeInfo;
}

// The settings object, or null: by its class name, as RocksDB's own
// CheckedCast tells its Customizables apart.
VlsmDrainAtRestSettings* AsDrainSettings(
    const std::shared_ptr<TablePropertiesCollectorFactory>& f) {
  return f == nullptr ? nullptr : f->CheckedCast<VlsmDrainAtRestSettings>();
}

}  // namespace

VlsmDrainAtRestSettings::VlsmDrainAtRestSettings(
    const VlsmDrainSettings& settings)
    : enabled_(settings.enabled),
      min_quiet_seconds_(settings.min_quiet_seconds),
      flush_intervals_(settings.flush_intervals) {
  RegisterOptions("", this, &DrainSettingsTypeInfo());
}

VlsmDrainSettings VlsmDrainAtRestSettings::Get() const {
  VlsmDrainSettings s;
  s.enabled = enabled_.load(std::memory_order_relaxed);
  s.min_quiet_seconds = min_quiet_seconds_.load(std::memory_order_relaxed);
  s.flush_intervals = flush_intervals_.load(std::memory_order_relaxed);
  return s;
}

void VlsmDrainAtRestSettings::Set(const VlsmDrainSettings& s) {
  enabled_.store(s.enabled, std::memory_order_relaxed);
  min_quiet_seconds_.store(s.min_quiet_seconds, std::memory_order_relaxed);
  flush_intervals_.store(s.flush_intervals, std::memory_order_relaxed);
}

std::string VlsmDrainAtRestSettings::ToString() const {
  const VlsmDrainSettings s = Get();
  return std::string(Name()) + " (" + VlsmDrainOptions::kEnabled + "=" +
         SettingValue(s, VlsmDrainOptions::kEnabled) + " " +
         VlsmDrainOptions::kMinQuietSeconds + "=" +
         SettingValue(s, VlsmDrainOptions::kMinQuietSeconds) + " " +
         VlsmDrainOptions::kFlushIntervals + "=" +
         SettingValue(s, VlsmDrainOptions::kFlushIntervals) + ")";
}

void RegisterVlsmDrainAtRest(ObjectLibrary& library) {
  library.AddFactory<TablePropertiesCollectorFactory>(
      VlsmDrainAtRestSettings::kClassName(),
      [](const std::string& /*uri*/,
         std::unique_ptr<TablePropertiesCollectorFactory>* guard,
         std::string* /*errmsg*/) {
        guard->reset(new VlsmDrainAtRestSettings());
        return guard->get();
      });
}

std::shared_ptr<VlsmDrainAtRestSettings> VlsmDrainSettingsIn(
    const VlsmCollectorFactories& factories) {
  for (const auto& f : factories) {
    if (VlsmDrainAtRestSettings* settings = AsDrainSettings(f)) {
      return std::shared_ptr<VlsmDrainAtRestSettings>(f, settings);
    }
  }
  return nullptr;
}

int CountVlsmDrainSettings(const VlsmCollectorFactories& factories) {
  int n = 0;
  for (const auto& f : factories) {
    n += AsDrainSettings(f) != nullptr ? 1 : 0;
  }
  return n;
}

void VlsmOwnDrainSettings(ColumnFamilyOptions* options) {
  for (auto& f : options->table_properties_collector_factories) {
    if (const VlsmDrainAtRestSettings* settings = AsDrainSettings(f)) {
      f = std::make_shared<VlsmDrainAtRestSettings>(settings->Get());
    }
  }
}

void AddVlsmDrainSettings(ColumnFamilyOptions* options) {
  if (VlsmDrainSettingsIn(options->table_properties_collector_factories) ==
      nullptr) {
    options->table_properties_collector_factories.push_back(
        std::make_shared<VlsmDrainAtRestSettings>());
  }
}

}  // namespace ROCKSDB_NAMESPACE
