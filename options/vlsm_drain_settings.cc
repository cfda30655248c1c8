#include "options/vlsm_drain_settings.h"

#include <unordered_map>

#include "rocksdb/options.h"
#include "rocksdb/utilities/object_registry.h"
#include "rocksdb/utilities/options_type.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Each setting once: its name (SetOptions', the options string's and the
// OPTIONS file's) and its field, a flag or a count. The parser, the printer
// and the object's type map all walk this table.
struct DrainSetting {
  const char* name;
  bool VlsmDrainSettings::*flag;       // the boolean setting, or null
  uint32_t VlsmDrainSettings::*count;  // a counted setting, or null
};

constexpr DrainSetting kDrainSettings[] = {
    {VlsmDrainOptions::kEnabled, &VlsmDrainSettings::enabled, nullptr},
    {VlsmDrainOptions::kMinQuietSeconds, nullptr,
     &VlsmDrainSettings::min_quiet_seconds},
    {VlsmDrainOptions::kFlushIntervals, nullptr,
     &VlsmDrainSettings::flush_intervals},
};

const DrainSetting* FindDrainSetting(const std::string& name) {
  for (const DrainSetting& d : kDrainSettings) {
    if (name == d.name) {
      return &d;
    }
  }
  return nullptr;
}

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

std::string SettingValue(const VlsmDrainSettings& s, const DrainSetting& d) {
  if (d.flag != nullptr) {
    return s.*d.flag ? "true" : "false";
  }
  return std::to_string(s.*d.count);
}

}  // namespace

bool IsVlsmDrainSetting(const std::string& name) {
  return FindDrainSetting(name) != nullptr;
}

Status ParseVlsmDrainSetting(const std::string& name, const std::string& value,
                             VlsmDrainSettings* settings, bool* known) {
  const DrainSetting* d = FindDrainSetting(name);
  *known = d != nullptr;
  if (d == nullptr) {
    return Status::OK();
  }
  VlsmDrainSettings parsed = *settings;
  const bool ok = d->flag != nullptr
                      ? ParseDrainBool(value, &(parsed.*d->flag))
                      : ParseDrainCount(value, &(parsed.*d->count));
  if (!ok) {
    return Status::InvalidArgument(
        "vLSM option " + name + ": '" + value + "' is not " +
        (d->flag != nullptr
             ? "true or false"
             : "a whole number of seconds or intervals (32 bits)"));
  }
  *settings = parsed;
  return Status::OK();
}

Status ParseVlsmDrainOptions(
    const std::unordered_map<std::string, std::string>& options,
    VlsmDrainSettings* settings,
    std::unordered_map<std::string, std::string>* others) {
  VlsmDrainSettings parsed = *settings;
  others->clear();
  for (const auto& [name, value] : options) {
    bool known = false;
    const Status s = ParseVlsmDrainSetting(name, value, &parsed, &known);
    if (!known) {
      others->emplace(name, value);
    } else if (!s.ok()) {
      return s;
    }
  }
  *settings = parsed;
  return Status::OK();
}

std::string VlsmDrainSettingsString(const VlsmDrainSettings& settings) {
  std::string out;
  for (const DrainSetting& d : kDrainSettings) {
    out += (out.empty() ? "" : " ") + std::string(d.name) + "=" +
           SettingValue(settings, d);
  }
  return out;
}

namespace {

// One entry of the object's type map: parsed and serialized through the
// object (offset 0), as upstream's CompactOnDeletionCollectorFactory does, so
// that the atomics are read and written whole. Marked mutable as upstream's
// collector marks its own (the object's values change at run time); DB
// SetOptions reaches them by their flat names (VlsmSetOptions), not through
// this map: table_properties_collectors itself is fixed at open. Never
// compared, as upstream's collector's settings: values that change at run
// time are not a mismatch between two options.
OptionTypeInfo DrainSettingInfo(const DrainSetting& d) {
  return OptionTypeInfo(
      0, OptionType::kUnknown, OptionVerificationType::kNormal,
      OptionTypeFlags::kCompareNever | OptionTypeFlags::kMutable,
      [&d](const ConfigOptions&, const std::string&, const std::string& value,
           void* addr) {
        auto* object = static_cast<VlsmDrainAtRestSettings*>(addr);
        VlsmDrainSettings s = object->Get();
        bool known = false;
        Status st = ParseVlsmDrainSetting(d.name, value, &s, &known);
        if (st.ok()) {
          object->Set(s);
        }
        return st;
      },
      [&d](const ConfigOptions&, const std::string&, const void* addr,
           std::string* value) {
        const auto* object = static_cast<const VlsmDrainAtRestSettings*>(addr);
        *value = SettingValue(object->Get(), d);
        return Status::OK();
      },
      nullptr);
}

const std::unordered_map<std::string, OptionTypeInfo>& DrainSettingsTypeInfo() {
  static const auto* const kTypeInfo = [] {
    auto* info = new std::unordered_map<std::string, OptionTypeInfo>();
    for (const DrainSetting& d : kDrainSettings) {
      info->emplace(d.name, DrainSettingInfo(d));
    }
    return info;
  }();
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
  return std::string(Name()) + " (" + VlsmDrainSettingsString(Get()) + ")";
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
