// A minimal streaming JSON writer for the metrics report: objects, arrays,
// numbers, booleans and strings, with commas placed from a nesting stack so
// callers only say what they write.
#pragma once

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {
namespace lsm_metrics {

class JsonWriter {
 public:
  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }

  JsonWriter& Key(const std::string& key) {
    Separate();
    AppendString(key);
    out_ += ": ";
    after_key_ = true;
    return *this;
  }

  JsonWriter& Value(uint64_t v) {
    Separate();
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%" PRIu64, v);
    out_ += buf;
    return *this;
  }
  JsonWriter& Value(int v) { return Value(static_cast<int64_t>(v)); }
  JsonWriter& Value(int64_t v) {
    Separate();
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%" PRId64, v);
    out_ += buf;
    return *this;
  }
  // JSON has no NaN or infinity: those become null.
  JsonWriter& Value(double v) {
    Separate();
    if (!std::isfinite(v)) {
      out_ += "null";
      return *this;
    }
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%.9g", v);
    out_ += buf;
    return *this;
  }
  JsonWriter& Value(bool v) {
    Separate();
    out_ += v ? "true" : "false";
    return *this;
  }
  JsonWriter& Value(const std::string& v) {
    Separate();
    AppendString(v);
    return *this;
  }
  JsonWriter& Value(const char* v) { return Value(std::string(v)); }
  // A value that is already JSON (another writer's output).
  JsonWriter& Raw(const std::string& json) {
    Separate();
    out_ += json;
    return *this;
  }

  template <typename T>
  JsonWriter& Field(const std::string& key, const T& v) {
    return Key(key).Value(v);
  }
  template <typename T>
  JsonWriter& Array(const std::string& key, const std::vector<T>& values) {
    Key(key).BeginArray();
    for (const T& v : values) {
      Value(v);
    }
    return EndArray();
  }

  // Keyed shorthands: a member of the enclosing object.
  JsonWriter& BeginObject(const std::string& key) { return Key(key).BeginObject(); }
  JsonWriter& BeginArray(const std::string& key) { return Key(key).BeginArray(); }
  JsonWriter& Raw(const std::string& key, const std::string& json) {
    return Key(key).Raw(json);
  }

  const std::string& str() const { return out_; }

 private:
  JsonWriter& Open(char c) {
    Separate();
    out_ += c;
    first_.push_back(true);
    return *this;
  }
  JsonWriter& Close(char c) {
    first_.pop_back();
    out_ += c;
    return *this;
  }
  // A comma before every element of a container but the first; nothing
  // between a key and its value.
  void Separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) {
        out_ += ", ";
      }
      first_.back() = false;
    }
  }
  void AppendString(const std::string& s) {
    out_ += '"';
    for (char c : s) {
      switch (c) {
        case '"':
          out_ += "\\\"";
          break;
        case '\\':
          out_ += "\\\\";
          break;
        case '\n':
          out_ += "\\n";
          break;
        case '\t':
          out_ += "\\t";
          break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", c);
            out_ += buf;
          } else {
            out_ += c;
          }
      }
    }
    out_ += '"';
  }

  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace lsm_metrics
}  // namespace ROCKSDB_NAMESPACE
