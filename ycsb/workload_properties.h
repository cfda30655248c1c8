// YCSB-style properties: `name=value` lines from -P files, then -p overrides,
// checked against the list of names this harness understands so that a typo
// fails loudly instead of silently running the default.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

namespace ycsb {

// A bad property, file or value; main() prints what() as one line and exits
// with status 2 before any DB is opened.
class PropertyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Properties {
 public:
  // Reads a Java-properties-style file: `name=value` (or `name: value`),
  // `#` and `!` comments, blank lines. Throws PropertyError when the file
  // cannot be read or a line has no '='.
  void LoadFile(const std::string& path);
  // "name=value"; throws PropertyError without '='.
  void SetFromArgument(const std::string& assignment);
  void Set(const std::string& name, const std::string& value);

  bool Has(const std::string& name) const;
  std::string GetString(const std::string& name,
                        const std::string& default_value) const;
  // Typed getters: the default when unset, PropertyError (naming the
  // property and the value) when the value does not parse or is negative
  // where a count is expected.
  uint64_t GetCount(const std::string& name, uint64_t default_value) const;
  double GetDouble(const std::string& name, double default_value) const;
  bool GetBool(const std::string& name, bool default_value) const;

  // PropertyError naming the first property that is not a known name.
  void CheckAllKnown() const;

  const std::map<std::string, std::string>& all() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

// Parses a byte size: plain digits, or with a K/M/G suffix (binary: 64M is
// 64 MiB). Throws PropertyError naming `name`.
uint64_t ParseByteSize(const std::string& name, const std::string& text);

}  // namespace ycsb
