#include "scenario/json_input.h"

#include <algorithm>
#include <cstdio>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "common/size_optimized.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

using json = nlohmann::json;

// Length of the UTF-8 sequence starting at text[i], or 0 when it is ill-formed
// (Unicode 15, table 3-7: well-formed byte sequences).
std::size_t utf8Sequence(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) {
    return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u;
  };
  const unsigned b0 = byte(i);
  if (b0 < 0x80) return 1;
  const auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) {
    const unsigned b = byte(k);
    return k < text.size() && b >= lo && b <= hi;
  };
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (b0 == 0xE0) return cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0;
  if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF)
    return cont(i + 1) && cont(i + 2) ? 3 : 0;
  if (b0 == 0xED) return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;  // no surrogates
  if (b0 == 0xF0) return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (b0 >= 0xF1 && b0 <= 0xF3) return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (b0 == 0xF4) return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  return 0;
}

// Line and column (1-based, columns in bytes) of a byte offset.
std::string position(const std::string& text, std::size_t offset) {
  std::size_t line = 1, lineStart = 0;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i)
    if (text[i] == '\n') ++line, lineStart = i + 1;
  return "byte " + std::to_string(offset) + " (line " + std::to_string(line) + ", column " +
         std::to_string(offset - lineStart + 1) + ")";
}

// nlohmann's parse error text without its "[json.exception.…] parse error at
// line L, column C: " prefix (the position is given in bytes instead).
std::string syntaxMessage(const std::string& what) {
  std::string_view m = what;
  if (m.rfind("[json.exception", 0) == 0 && m.find("] ") != std::string_view::npos)
    m.remove_prefix(m.find("] ") + 2);
  if (m.rfind("parse error", 0) == 0 && m.find(": ") != std::string_view::npos)
    m.remove_prefix(m.find(": ") + 2);
  return clipped(std::string(m));
}

// One pass over the document's events that checks nesting depth, value and
// key counts and duplicate keys, keeps the path of the value being read for
// the messages, and builds the document (nlohmann's DOM builder behind it).
// The parser keeps its own stack on the heap, so no depth of input recurses.
class Checker : public nlohmann::json_sax<json> {
 public:
  Checker(const std::string& text, json& result) : text_(text), dom_(result, false) {}

  Issue issue;
  bool failed = false;

  bool null() override { return value() && dom_.null(); }
  bool boolean(bool b) override { return value() && dom_.boolean(b); }
  bool number_integer(number_integer_t n) override { return value() && dom_.number_integer(n); }
  bool number_unsigned(number_unsigned_t n) override { return value() && dom_.number_unsigned(n); }
  bool number_float(number_float_t x, const string_t& s) override {
    return value() && dom_.number_float(x, s);
  }
  bool string(string_t& s) override { return value() && dom_.string(s); }
  bool binary(binary_t& b) override { return value() && dom_.binary(b); }
  bool start_object(std::size_t n) override { return open(true) && dom_.start_object(n); }
  bool start_array(std::size_t n) override { return open(false) && dom_.start_array(n); }
  bool end_object() override { return close() && dom_.end_object(); }
  bool end_array() override { return close() && dom_.end_array(); }

  bool key(string_t& k) override {
    Frame& f = frames_.back();
    f.key = k;
    // Most objects have a handful of keys: a linear search over them costs
    // no allocation; a set takes over for large objects.
    bool repeated;
    if (f.keys.empty() && f.few.size() < 16) {
      repeated = std::find(f.few.begin(), f.few.end(), k) != f.few.end();
      if (!repeated) f.few.push_back(k);
    } else {
      if (f.keys.empty()) f.keys.insert(f.few.begin(), f.few.end());
      repeated = !f.keys.insert(k).second;
    }
    if (repeated) return fail(path(), "duplicate key: a field may appear once in an object");
    if (++f.count > kMaxObjectKeys)
      return fail(path(), "the object has more than " + std::to_string(kMaxObjectKeys) + " keys");
    return dom_.key(k);
  }

  bool parse_error(std::size_t offset, const std::string&,
                   const nlohmann::detail::exception& e) override {
    const std::size_t at = offset > 0 ? offset - 1 : 0;  // nlohmann counts the byte after the error
    return fail(nextPath(),
                "not valid JSON at " + position(text_, at) + ": " + syntaxMessage(e.what()));
  }

 private:
  struct Frame {
    bool object = false;
    std::size_t count = 0;                 // values seen in an array, keys seen in an object
    std::string key;                       // current key in an object
    std::vector<std::string> few;          // the object's keys while there are few
    std::unordered_set<std::string> keys;  // and all of them once there are more
  };
  const std::string& text_;
  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::vector<Frame> frames_;
  std::size_t values_ = 0;

  bool fail(const std::string& path, const std::string& message) {
    if (!failed) issue = {path, message}, failed = true;
    return false;
  }

  // Path of the value at the top of the stack (the container's last element).
  std::string path() const {
    std::string out;
    for (const Frame& f : frames_) {
      if (f.object)
        out += (out.empty() ? "" : ".") + clipped(f.key);
      else
        out += "[" + std::to_string(f.count == 0 ? 0 : f.count - 1) + "]";
    }
    return out;
  }
  // Path of the value about to be read (for errors before it is counted).
  std::string nextPath() {
    if (!frames_.empty() && !frames_.back().object) {
      ++frames_.back().count;
      std::string p = path();
      --frames_.back().count;
      return p;
    }
    return path();
  }

  bool value() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().count;
    if (++values_ > kMaxJsonValues)
      return fail(path(),
                  "the document holds more than " + std::to_string(kMaxJsonValues) + " values");
    return true;
  }
  bool open(bool object) {
    if (!value()) return false;
    if (static_cast<int>(frames_.size()) >= kMaxJsonDepth)
      return fail(clipped(path()),
                  "nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
    frames_.push_back(Frame{object, 0, {}, {}, {}});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }
};

}  // namespace

std::size_t invalidUtf8Offset(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8Sequence(text, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string::npos;
}

Expected<json> readJson(const std::string& text) {
  if (text.size() > kMaxDocumentBytes)
    return Expected<json>::failure("", "the document is " + std::to_string(text.size()) +
                                           " bytes; the limit is " +
                                           std::to_string(kMaxDocumentBytes) + " bytes (16 MiB)");
  if (const std::size_t bad = invalidUtf8Offset(text); bad != std::string::npos) {
    const bool utf16 = text.size() >= 2 && ((text[0] == '\xFF' && text[1] == '\xFE') ||
                                            (text[0] == '\xFE' && text[1] == '\xFF'));
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[bad]));
    return Expected<json>::failure("", std::string("not UTF-8: byte ") + hex + " at " +
                                           position(text, bad) +
                                           (utf16 ? "; the file is UTF-16, save it as UTF-8" : ""));
  }
  // JSON allows no NUL byte anywhere (in a string it must be escaped); some
  // readers stop at the first one, so a document with one is refused.
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
    return Expected<json>::failure("", "not valid JSON at " + position(text, nul) + ": a NUL byte");
  json doc;
  Checker check(text, doc);
  const bool complete = json::sax_parse(text, &check);
  if (check.failed) return std::vector<Issue>{check.issue};
  if (!complete) return Expected<json>::failure("", "not valid JSON");
  return doc;
}

std::string clipped(const std::string& text) {
  if (text.size() <= kMaxQuotedChars) return text;
  std::size_t end = 0, chars = 0;
  while (end < text.size() && chars < kMaxQuotedChars) {
    const std::size_t n = utf8Sequence(text, end);
    end += n ? n : 1;
    ++chars;
  }
  if (end >= text.size()) return text;
  return text.substr(0, end) + "… (" + std::to_string(text.size()) + " bytes)";
}

std::string dumpJson(const json& value, int indent) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
