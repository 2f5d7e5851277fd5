#include "scenario/urdf_reader.h"

// RapidXML reports a parse error by calling parse_error_handler rather than by
// throwing: the WebAssembly build catches no C++ exception. The handler
// leaves the parser by longjmp, past frames that hold nothing to destroy
// (pointers and characters; the nodes are in the document's pool, which the
// document frees). Every file that includes RapidXML must define
// RAPIDXML_NO_EXCEPTIONS alike.
#define RAPIDXML_NO_EXCEPTIONS
#include <algorithm>
#include <cctype>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <rapidxml/rapidxml.hpp>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "common/elementary.h"
#include "common/size_optimized.h"
#include "robots/compile.h"
#include "scenario/field_reader.h"
#include "scenario/json_input.h"
#include "scenario/robot_reader.h"
#include "scenario/stl_reader.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

// Where the parse that runs on this thread returns to on an error, and the error.
thread_local std::jmp_buf* parseReturn = nullptr;
thread_local const char* parseWhat = nullptr;
thread_local char* parseWhere = nullptr;

}  // namespace
}  // namespace roverlab

void rapidxml::parse_error_handler(const char* what, void* where) {
  roverlab::parseWhat = what;
  roverlab::parseWhere = static_cast<char*>(where);
  std::longjmp(*roverlab::parseReturn, 1);
}

namespace roverlab {
namespace {

using Node = rapidxml::xml_node<char>;
using Attribute = rapidxml::xml_attribute<char>;

/// Lines listed in one grouped warning.
constexpr std::size_t kListedLines = 10;
/// Kinds of unused markup warned about one by one; the rest share a warning.
constexpr std::size_t kMaxNoteKinds = 100;
/// The speed loop's rate (s⁻¹) and the position loop's natural frequency
/// (rad/s): time constants of 20 ms.
constexpr double kLoopRate = 50.0;
/// Smallest inertia (kg·m²) or mass (kg) the default gains are computed for.
constexpr double kMinDriveInertia = 0.01;
// ω of a joint's range stop (rad/s): stiff against the motion, ω·dt = 0.04
// at the default step.
constexpr double kStopRate = 100.0;
/// A wheel's default torque limit at the joint when <limit effort> is not given (N·m).
constexpr double kDefaultEffort = 100.0;
/// controls.maxWheelSpeed when no wheel joint gives a velocity limit (rad/s).
constexpr double kDefaultWheelSpeed = 10.0;
/// A cylinder is a wheel's when its axis is within this angle of the joint axis (rad).
constexpr double kAxisTolerance = 1e-3;
/// A wheel's centre this far from its link's origin (m) is warned about.
constexpr double kCentreTolerance = 1e-4;

// The line of a byte offset: a table of the newlines before every 4 KiB
// block, then a count within the block.
class LineIndex {
 public:
  explicit LineIndex(const std::string& text) : text_(text) {
    std::size_t lines = 0;
    for (std::size_t b = 0; b <= text.size(); b += kBlock) {  // the last block may be empty
      before_.push_back(lines);
      const std::size_t end = std::min(text.size(), b + kBlock);
      lines += static_cast<std::size_t>(std::count(text.begin() + b, text.begin() + end, '\n'));
    }
  }
  int line(std::size_t offset) const {
    offset = std::min(offset, text_.size());
    const std::size_t block = offset / kBlock;
    return static_cast<int>(
        1 + before_[block] +
        std::count(text_.begin() + block * kBlock, text_.begin() + offset, '\n'));
  }

 private:
  static constexpr std::size_t kBlock = 4096;
  const std::string& text_;
  std::vector<std::size_t> before_;
};

std::string inQuotes(const std::string& s) { return "'" + clipped(s) + "'"; }

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trimmed(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Code points of UTF-8 text.
std::size_t codePoints(const std::string& s) {
  std::size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// A frame in the base link's frame.
struct LinkFrame {
  Mat3 rot = Mat3::Identity();
  Vec3 pos = Vec3::Zero();
  LinkFrame then(const Origin& o) const { return {rot * rpyRotation(o.rpy), pos + rot * o.xyz}; }
};

std::optional<ActuatorMode> modeOf(const std::string& interface) {
  const std::string s = lower(interface);
  if (s.find("velocity") != std::string::npos) return ActuatorMode::Speed;
  if (s.find("position") != std::string::npos) return ActuatorMode::Position;
  if (s.find("effort") != std::string::npos) return ActuatorMode::Torque;
  return std::nullopt;
}

const char* modeName(ActuatorMode m) {
  return m == ActuatorMode::Speed ? "speed" : m == ActuatorMode::Position ? "position" : "torque";
}

// Refusals before the XML parser runs, at a byte offset: markup declarations
// (<!DOCTYPE, <!ENTITY, …), nesting deeper than kMaxUrdfDepth, more than
// kMaxUrdfNodes elements and attributes. Comments, CDATA sections and
// processing instructions are skipped; quoted attribute values may hold '>'.
// Markup the scan cannot follow (an unclosed comment, a tag without '>') is
// left to the parser, which refuses it.
struct ScanProblem {
  std::size_t offset = 0;
  std::string message;
};

std::optional<ScanProblem> scanMarkup(const std::string& t) {
  std::size_t depth = 0, nodes = 0;
  for (std::size_t i = t.find('<'); i != std::string::npos; i = t.find('<', i)) {
    if (t.compare(i, 4, "<!--") == 0) {
      const std::size_t e = t.find("-->", i + 4);
      if (e == std::string::npos) return std::nullopt;
      i = e + 3;
    } else if (t.compare(i, 9, "<![CDATA[") == 0) {
      const std::size_t e = t.find("]]>", i + 9);
      if (e == std::string::npos) return std::nullopt;
      i = e + 3;
    } else if (t.compare(i, 2, "<!") == 0) {
      std::size_t e = i + 2;
      while (e < t.size() && e < i + 40 && std::isalpha(static_cast<unsigned char>(t[e]))) ++e;
      return ScanProblem{i, "the document has a <!" + t.substr(i + 2, e - i - 2) +
                                "> declaration: document type declarations and entities are "
                                "refused (URDF uses neither)"};
    } else if (t.compare(i, 2, "<?") == 0) {
      const std::size_t e = t.find("?>", i + 2);
      if (e == std::string::npos) return std::nullopt;
      i = e + 2;
    } else if (t.compare(i, 2, "</") == 0) {
      if (depth > 0) --depth;
      i += 2;
    } else {
      std::size_t k = i + 1;
      char quote = 0;
      std::size_t attributes = 0;
      for (; k < t.size(); ++k) {
        const char c = t[k];
        if (quote) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '=') {
          ++attributes;
        } else if (c == '>') {
          break;
        }
      }
      if (k >= t.size()) return std::nullopt;
      nodes += 1 + attributes;
      if (nodes > kMaxUrdfNodes)
        return ScanProblem{i, "the document has more than " + std::to_string(kMaxUrdfNodes) +
                                  " elements and attributes, the limit"};
      if (t[k - 1] != '/' && ++depth > static_cast<std::size_t>(kMaxUrdfDepth))
        return ScanProblem{i, "elements are nested more than " + std::to_string(kMaxUrdfDepth) +
                                  " levels deep, the limit"};
      i = k + 1;
    }
  }
  return std::nullopt;
}

// The file names (relative to the URDF's folder) a mesh filename may be, in
// order, or the reason it names none.
struct MeshNames {
  std::vector<std::string> names;
  std::string problem;
};

// A relative path without "." and "..", or "" with `problem` set.
std::string normalised(const std::string& path, std::string& problem) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    const std::string part = path.substr(start, end - start);
    if (part == "..") {
      if (parts.empty()) {
        problem = "goes above the URDF's folder ('..'); mesh files must be in it or below it";
        return "";
      }
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = end + 1;
  }
  if (parts.empty() || path.back() == '/') {
    problem = "does not name a file";
    return "";
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

MeshNames meshNames(std::string filename) {
  MeshNames out;
  filename = trimmed(filename);
  std::replace(filename.begin(), filename.end(), '\\', '/');
  if (filename.rfind("file://", 0) == 0) filename = filename.substr(7);
  std::string package;
  if (filename.rfind("package://", 0) == 0) {
    const std::string rest = filename.substr(10);
    const std::size_t slash = rest.find('/');
    if (slash == std::string::npos || slash == 0) {
      out.problem = "is not package://PACKAGE/PATH";
      return out;
    }
    package = rest.substr(0, slash);
    filename = rest.substr(slash + 1);
  } else {
    const std::size_t colon = filename.find(':');
    const bool drive = colon == 1 && std::isalpha(static_cast<unsigned char>(filename[0]));
    if (colon != std::string::npos && !drive) {
      std::size_t k = 0;
      while (k < colon && (std::isalnum(static_cast<unsigned char>(filename[k])) ||
                           filename[k] == '+' || filename[k] == '-' || filename[k] == '.'))
        ++k;
      if (k == colon && k > 0) {
        out.problem = "is a URL of scheme '" + clipped(filename.substr(0, colon)) +
                      "'; only package:// and file:// name mesh files, beside the URDF";
        return out;
      }
    }
    if (drive || (!filename.empty() && filename[0] == '/')) {
      out.problem =
          "is an absolute path; name the file relative to the URDF (e.g. meshes/wheel.stl) or as "
          "package://PACKAGE/PATH";
      return out;
    }
  }
  const std::string name = normalised(filename, out.problem);
  if (name.empty()) return out;
  out.names.push_back(name);
  if (!package.empty()) out.names.push_back(package + "/" + name);
  return out;
}

// Why a mesh file is not read as STL, from its extension; "" for .stl.
std::string formatProblem(const std::string& name) {
  const std::string n = lower(name);
  if (endsWith(n, ".stl")) return "";
  if (endsWith(n, ".dae")) return "is a COLLADA mesh; only STL meshes are read: convert it to STL";
  if (endsWith(n, ".obj"))
    return "is a Wavefront OBJ mesh; only STL meshes are read: convert it to STL";
  return "is not an STL file (.stl); only STL meshes are read: convert it to STL";
}

// A wheel found for a continuous joint.
struct WheelFit {
  bool ok = false;
  double radius = 0, width = 0;
  Vec3 centre = Vec3::Zero();  // in the child link's frame (m)
};

class UrdfReader {
 public:
  UrdfReader(const std::string& text, const ScenarioFiles& files, const std::string& path)
      : text_(text), files_(files), path_(path), lines_(text) {}

  Expected<UrdfRobot> read();

 private:
  // A link or joint as read, with what the later steps need.
  struct LinkRead {
    LinkDescription d;
    const Node* node = nullptr;
    bool empty = false;                  // the <link> has no child elements
    std::vector<std::string> meshNames;  // per collision: the mesh filename ("" for a primitive)
  };
  struct JointRead {
    JointDescription d;
    const Node* node = nullptr;
    std::string type;
    bool dropped = false;
  };
  struct Drive {
    std::string actuator;
    std::optional<ActuatorMode> mode;
    double gear = 1.0;
    const Node* node = nullptr;
    std::string source;  // "transmission 'x'"
  };
  struct MeshHull {
    bool ok = false;
    HullVertices hull;
    std::string name;  // the file read
  };
  struct Note {
    std::string what;
    std::vector<const char*> at;  // the first kListedLines places
    std::size_t count = 0;
  };
  struct Warning {
    std::size_t offset;
    Issue issue;
  };

  const std::string& text_;
  const ScenarioFiles& files_;
  const std::string& path_;
  LineIndex lines_;
  std::vector<char> buffer_;
  std::unique_ptr<rapidxml::xml_document<char>> doc_;
  std::vector<Issue> errors_;
  std::vector<Warning> warnings_;
  std::unordered_set<const void*> used_;
  std::vector<Note> notes_;
  std::unordered_map<std::string, std::size_t> noteIndex_;
  std::string where_;  // "link 'x': " while reading link x

  std::map<std::string, std::string> materials_;  // name → "#rrggbb" ("" without colour)
  std::vector<LinkRead> links_;
  std::vector<JointRead> joints_;
  std::unordered_map<std::string, int> linkIndex_, jointIndex_;
  std::map<std::string, Drive> drives_;            // by joint name
  std::map<std::string, std::string> unreadable_;  // file name → why
  std::map<std::string, MeshHull> meshes_;         // by filename
  std::size_t meshBytes_ = 0;
  long hullPoints_ = 0;
  int collisions_ = 0;

  // --- places, issues, notes -------------------------------------------------

  std::size_t offsetOf(const char* p) const {
    if (buffer_.empty() || p < buffer_.data() || p >= buffer_.data() + buffer_.size()) return 0;
    return static_cast<std::size_t>(p - buffer_.data());
  }
  int lineOf(const char* p) const { return p ? lines_.line(offsetOf(p)) : 0; }
  int lineOf(const Node* n) const { return n ? lineOf(n->name()) : 0; }
  std::string at(const char* p) const { return "line " + std::to_string(lineOf(p)) + ": "; }
  std::string at(const Node* n) const { return at(n->name()); }

  void error(const Node* n, const std::string& message) {
    errors_.push_back({path_, at(n) + where_ + message});
  }
  void errorAt(const char* p, const std::string& message) {
    errors_.push_back({path_, at(p) + where_ + message});
  }
  void warn(const Node* n, const std::string& message) {
    warnings_.push_back({offsetOf(n->name()), {path_, at(n) + where_ + message}});
  }
  void note(const std::string& what, const char* p) {
    auto it = noteIndex_.find(what);
    if (it == noteIndex_.end()) {
      const bool other = notes_.size() >= kMaxNoteKinds;
      const std::string key = other ? std::string("other markup not used") : what;
      it = noteIndex_.find(key);
      if (it == noteIndex_.end())
        it = noteIndex_.emplace(key, notes_.size()).first, notes_.push_back({key, {}, 0});
      if (other) noteIndex_.emplace(what, it->second);
    }
    Note& n = notes_[it->second];
    if (n.at.size() < kListedLines) n.at.push_back(p);
    ++n.count;
  }

  // --- access that marks what is used ---------------------------------------

  void use(const void* p) { used_.insert(p); }
  bool used(const void* p) const { return used_.count(p) != 0; }
  void useAll(const Node* n) {
    std::vector<const Node*> stack{n};
    while (!stack.empty()) {
      const Node* m = stack.back();
      stack.pop_back();
      use(m);
      for (const Attribute* a = m->first_attribute(); a; a = a->next_attribute()) use(a);
      for (const Node* c = m->first_node(); c; c = c->next_sibling()) stack.push_back(c);
    }
  }
  const Node* child(const Node* n, const char* name) {
    const Node* c = n->first_node(name);
    if (c) use(c);
    return c;
  }
  std::vector<const Node*> children(const Node* n, const char* name) {
    std::vector<const Node*> out;
    for (const Node* c = n->first_node(name); c; c = c->next_sibling(name)) {
      use(c);
      out.push_back(c);
    }
    return out;
  }
  const Attribute* attribute(const Node* n, const char* name) {
    const Attribute* a = n->first_attribute(name);
    if (a) use(a);
    return a;
  }
  // The element's text, trimmed.
  std::string text(const Node* n) {
    std::string out;
    for (const Node* c = n->first_node(); c; c = c->next_sibling())
      if (c->type() == rapidxml::node_data || c->type() == rapidxml::node_cdata) {
        use(c);
        out += c->value();
      }
    return trimmed(out);
  }
  // A required name attribute, or "" with an error.
  std::string name(const Node* n, const char* attributeName = "name") {
    const Attribute* a = attribute(n, attributeName);
    const std::string s = a ? trimmed(a->value()) : "";
    if (s.empty()) {
      error(n, "<" + std::string(n->name()) + "> needs a " + attributeName);
      return "";
    }
    if (codePoints(s) > static_cast<std::size_t>(kMaxRobotNameChars)) {
      error(n, "the " + std::string(attributeName) + " " + inQuotes(s) + " is longer than " +
                   std::to_string(kMaxRobotNameChars) + " characters, the limit");
      return "";
    }
    return s;
  }

  // Reads attribute `key` of n as `count` finite numbers into out. Absent:
  // an error if required, else out is left as it is. False after an error.
  bool numbers(const Node* n, const char* key, int count, double* out, bool required) {
    const Attribute* a = attribute(n, key);
    const std::string element = "<" + std::string(n->name()) + ">";
    if (!a) {
      if (required) error(n, element + " needs the attribute " + key);
      return !required;
    }
    const std::string value = a->value();
    const std::string shown = element + " " + key + "=\"" + clipped(value) + "\"";
    std::vector<double> got;  // up to one more than wanted
    for (std::size_t i = 0; got.size() <= static_cast<std::size_t>(count);) {
      while (i < value.size() && std::isspace(static_cast<unsigned char>(value[i]))) ++i;
      if (i >= value.size()) break;
      std::size_t e = i;
      while (e < value.size() && !std::isspace(static_cast<unsigned char>(value[e]))) ++e;
      const std::string token = value.substr(i, e - i);
      char* end = nullptr;
      const double v = std::strtod(token.c_str(), &end);
      if (end != token.c_str() + token.size()) {
        errorAt(a->name(), shown + ": " + inQuotes(token) + " is not a number");
        return false;
      }
      if (!std::isfinite(v)) {
        errorAt(a->name(), shown + ": " + inQuotes(token) + " is not a finite number");
        return false;
      }
      got.push_back(v);
      i = e;
    }
    if (got.size() != static_cast<std::size_t>(count)) {
      errorAt(a->name(),
              shown + " needs " + std::to_string(count) + (count == 1 ? " number" : " numbers") +
                  ", got " +
                  (got.size() > static_cast<std::size_t>(count) ? std::string("more")
                                                                : std::to_string(got.size())));
      return false;
    }
    std::copy(got.begin(), got.end(), out);
    return true;
  }
  bool number(const Node* n, const char* key, double& out, bool required) {
    return numbers(n, key, 1, &out, required);
  }
  bool vec3(const Node* n, const char* key, Vec3& out, bool required) {
    double v[3];
    if (!numbers(n, key, 3, v, required)) return false;
    if (n->first_attribute(key)) out = Vec3(v[0], v[1], v[2]);
    return true;
  }
  bool nonNegative(const Node* n, const char* key, double& out) {
    if (!number(n, key, out, true)) return false;
    if (out < 0) {
      errorAt(n->first_attribute(key)->name(), "<" + std::string(n->name()) + "> " + key +
                                                   " must not be negative, got " + format(out));
      return false;
    }
    return true;
  }
  Origin origin(const Node* parent) {
    Origin o;
    if (const Node* n = child(parent, "origin")) {
      vec3(n, "xyz", o.xyz, false);
      vec3(n, "rpy", o.rpy, false);
    }
    return o;
  }
  // "#rrggbb" of a <material>'s <color rgba>, or "" without one.
  std::string colour(const Node* material) {
    const Node* c = child(material, "color");
    if (!c) return "";
    double v[4];
    if (!numbers(c, "rgba", 4, v, true)) return "";
    for (const double x : v)
      if (x < 0 || x > 1) {
        errorAt(c->first_attribute("rgba")->name(),
                "<color> rgba values must be in [0, 1], got " + format(x));
        return "";
      }
    if (v[3] < 1) note("<color> alpha (transparency) not used", c->first_attribute("rgba")->name());
    char out[8];
    std::snprintf(out, sizeof out, "#%02x%02x%02x", static_cast<int>(std::lround(v[0] * 255)),
                  static_cast<int>(std::lround(v[1] * 255)),
                  static_cast<int>(std::lround(v[2] * 255)));
    return out;
  }

  // --- reading ----------------------------------------------------------------

  bool parse();
  bool checkAttributes();
  void readMaterials(const Node* robot);
  void readLink(const Node* n, LinkRead& link);
  bool readShape(const Node* geometry, CollisionShape& s, LinkRead& link);
  const MeshHull* mesh(const Node* n, const std::string& filename);
  bool file(const std::string& name, std::string& bytes, std::string& error);
  void readJoint(const Node* n, JointRead& joint);
  bool checkTree(std::string& base, BaseKind& kind, std::vector<int>& order);
  void readTransmission(const Node* n);
  void readRos2Control(const Node* n);
  WheelFit fitWheel(const JointRead& joint);
  // Moves joint j's child link frame by `shift` (in that frame) and every
  // quantity given in it back by as much: nothing moves in the world.
  void shiftChildFrame(int j, const Vec3& shift, const std::vector<std::vector<int>>& childJoints);
  void makeDrives(RobotDescription& d, std::vector<LinkFrame>& poses,
                  const std::vector<std::vector<int>>& childJoints);
  double axisInertia(int joint, const std::vector<LinkFrame>& poses,
                     const std::vector<std::vector<int>>& childJoints, bool subtree) const;
  void reportUnused(const Node* robot);
  Expected<UrdfRobot> failed();
};

bool UrdfReader::parse() {
  buffer_.assign(text_.begin(), text_.end());
  buffer_.push_back('\0');
  doc_ = std::make_unique<rapidxml::xml_document<char>>();
  std::jmp_buf here;
  parseReturn = &here;
  if (setjmp(here) == 0) {
    doc_->parse<rapidxml::parse_validate_closing_tags>(buffer_.data());
    parseReturn = nullptr;
    return true;
  }
  parseReturn = nullptr;  // back from parse_error_handler
  errors_.push_back(
      {path_, (parseWhere ? at(parseWhere) : std::string()) + "not well-formed XML: " + parseWhat});
  return false;
}

// Every element's attributes are distinct (RapidXML keeps repeats).
bool UrdfReader::checkAttributes() {
  std::vector<const Node*> stack{doc_.get()};
  std::vector<std::string> names;
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    names.clear();
    for (const Attribute* a = n->first_attribute(); a; a = a->next_attribute())
      names.emplace_back(a->name());
    if (names.size() > 1) {
      std::sort(names.begin(), names.end());
      const auto twice = std::adjacent_find(names.begin(), names.end());
      if (twice != names.end()) {
        error(n,
              "<" + std::string(n->name()) + "> has the attribute " + clipped(*twice) + " twice");
        return false;
      }
    }
    for (const Node* c = n->first_node(); c; c = c->next_sibling())
      if (c->type() == rapidxml::node_element) stack.push_back(c);
  }
  return true;
}

void UrdfReader::readMaterials(const Node* robot) {
  for (const Node* m : children(robot, "material")) {
    const std::string n = name(m);
    const std::string c = colour(m);
    if (n.empty()) continue;
    if (!materials_.emplace(n, c).second)
      warn(m, "a second material named " + inQuotes(n) + ": the first is used");
  }
}

// Reads a file beside the URDF into `bytes`; false with `error` set. A file
// that cannot be read is asked for once.
bool UrdfReader::file(const std::string& name, std::string& bytes, std::string& error) {
  const auto failed = unreadable_.find(name);
  if (failed != unreadable_.end()) {
    error = failed->second;
    return false;
  }
  bool ok = false;
  if (!files_) {
    error = "no files can be read here (the URDF was given without the folder it is in)";
  } else if (std::optional<std::string> read = files_(name, error)) {
    bytes = std::move(*read);
    ok = true;
  }
  if (ok && meshBytes_ + bytes.size() > kMaxUrdfMeshBytes) {
    error = "the mesh files would add up to more than " + std::to_string(kMaxUrdfMeshBytes) +
            " bytes (128 MiB), the limit";
    ok = false;
  }
  if (ok) {
    meshBytes_ += bytes.size();
    return true;
  }
  if (error.empty()) error = "cannot be read";
  unreadable_[name] = error;
  return false;
}

// The hull of a mesh file's vertices (in the file's units), the file read
// and its hull computed once; nullptr after an error.
const UrdfReader::MeshHull* UrdfReader::mesh(const Node* n, const std::string& filename) {
  const std::string shown = "mesh " + inQuotes(filename);
  const auto cached = meshes_.find(filename);
  // A file read once; the same problem is an error at every collision that names it.
  if (cached != meshes_.end() && cached->second.ok) return &cached->second;
  MeshHull& out = meshes_[filename];
  out = MeshHull{};
  const MeshNames names = meshNames(filename);
  if (!names.problem.empty()) {
    error(n, shown + " " + names.problem);
    return nullptr;
  }
  const std::string problem = formatProblem(names.names.front());
  if (!problem.empty()) {
    error(n, shown + " " + problem);
    return nullptr;
  }
  std::string bytes, tried, why;
  bool read = false;
  for (const std::string& candidate : names.names) {
    why.clear();
    read = file(candidate, bytes, why);
    if (read) {
      out.name = candidate;
      break;
    }
    tried += (tried.empty() ? "" : "; ") + inQuotes(candidate) + ": " + why;
  }
  if (!read) {
    error(n, "cannot read " + shown +
                 (names.names.size() == 1 && names.names.front() == trimmed(filename)
                      ? ": " + why
                      : " (tried " + tried + ")"));
    return nullptr;
  }
  Expected<StlMesh> stl = readStl(bytes);
  if (!stl) {
    error(n, shown + ": " + stl.issues().front().message);
    return nullptr;
  }
  const std::vector<Vec3>& vertices = stl.value().vertices;
  if (vertices.empty()) {
    error(n, shown + " has no triangles");
    return nullptr;
  }
  out.hull = hullVertices(vertices);
  if (out.hull.dimension < 2) {
    error(n, shown + ": its triangles all lie " +
                 (out.hull.dimension == 1 ? std::string("on a line") : "at one point"));
    return nullptr;
  }
  out.ok = true;
  if (out.hull.dimension == 2)
    warn(n, shown + " is flat: its hull is a polygon of " + std::to_string(out.hull.points.size()) +
                " points");
  if (out.hull.cell > 0)
    warn(n, shown + ": its convex hull has " + std::to_string(out.hull.hullSize) + " vertices; " +
                std::to_string(out.hull.points.size()) + " are kept (one per grid cell of edge " +
                format(out.hull.cell, 3) + " in the file's units), so the shape is within about " +
                format(out.hull.cell * std::sqrt(3.0), 3) + " of the mesh's hull");
  return &out;
}

bool UrdfReader::readShape(const Node* geometry, CollisionShape& s, LinkRead& link) {
  const Node* shape = nullptr;
  for (const Node* c = geometry->first_node(); c; c = c->next_sibling())
    if (c->type() == rapidxml::node_element) {
      shape = c;
      break;
    }
  if (!shape) {
    error(geometry, "<geometry> has no shape (box, cylinder, sphere or mesh)");
    return false;
  }
  const std::string kind = shape->name();
  if (kind == "box") {
    use(shape);
    s.kind = ShapeKind::Box;
    if (!vec3(shape, "size", s.size, true)) return false;
    if (s.size.minCoeff() < 0) {
      error(shape, "<box> size must not be negative, got " + format(s.size));
      return false;
    }
  } else if (kind == "cylinder") {
    use(shape);
    s.kind = ShapeKind::Cylinder;
    if (!nonNegative(shape, "radius", s.radius) || !nonNegative(shape, "length", s.length))
      return false;
  } else if (kind == "sphere") {
    use(shape);
    s.kind = ShapeKind::Sphere;
    if (!nonNegative(shape, "radius", s.radius)) return false;
  } else if (kind == "mesh") {
    use(shape);
    s.kind = ShapeKind::Hull;
    const Attribute* f = attribute(shape, "filename");
    if (!f || trimmed(f->value()).empty()) {
      error(shape, "<mesh> needs a filename");
      return false;
    }
    Vec3 scale = Vec3::Ones();
    if (!vec3(shape, "scale", scale, false)) return false;
    if ((scale.array() == 0).any()) {
      error(shape, "<mesh> scale must not be 0, got " + format(scale));
      return false;
    }
    // The hull of the scaled mesh is the scaled hull (scale ≠ 0 on every axis).
    const MeshHull* hull = mesh(shape, trimmed(f->value()));
    if (!hull) return false;
    s.points = hull->hull.points;
    if (scale != Vec3::Ones())
      for (Vec3& p : s.points) p = p.cwiseProduct(scale);
    link.meshNames.back() = hull->name;
    hullPoints_ += static_cast<long>(s.points.size());
  } else {
    // Not a URDF shape: reported as markup not used; the collision is not read.
    return false;
  }
  return true;
}

void UrdfReader::readLink(const Node* n, LinkRead& link) {
  link.node = n;
  link.d.line = lineOf(n);
  link.d.name = name(n);
  where_ = link.d.name.empty() ? "" : "link " + inQuotes(link.d.name) + ": ";
  link.empty = true;
  for (const Node* c = n->first_node(); c; c = c->next_sibling())
    if (c->type() == rapidxml::node_element) link.empty = false;

  if (const Node* inertial = child(n, "inertial")) {
    const Origin o = origin(inertial);
    link.d.com = o.xyz;
    const Node* mass = child(inertial, "mass");
    if (!mass) {
      error(inertial, "<inertial> needs a <mass>");
    } else if (number(mass, "value", link.d.mass, true) && link.d.mass < 0) {
      error(mass, "the mass must not be negative, got " + format(link.d.mass) + " kg");
    }
    const Node* inertia = child(inertial, "inertia");
    if (!inertia) {
      error(inertial, "<inertial> needs an <inertia>");
    } else {
      double v[6] = {0, 0, 0, 0, 0, 0};
      const char* keys[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
      bool ok = true;
      for (int k = 0; k < 6; ++k) ok = number(inertia, keys[k], v[k], true) && ok;
      if (ok) {
        Mat3 in;
        in << v[0], v[1], v[2], v[1], v[3], v[4], v[2], v[4], v[5];
        const Mat3 r = rpyRotation(o.rpy);
        link.d.inertia = o.rpy.isZero() ? in : Mat3(r * in * r.transpose());
      }
    }
  }

  const std::vector<const Node*> collisions = children(n, "collision");
  if (collisions.size() > static_cast<std::size_t>(kMaxRobotParts)) {
    error(n, "more than " + std::to_string(kMaxRobotParts) + " collisions, the limit");
  } else {
    for (const Node* c : collisions) {
      CollisionShape s;
      s.origin = origin(c);
      link.meshNames.emplace_back();
      const Node* geometry = child(c, "geometry");
      if (!geometry) {
        error(c, "<collision> needs a <geometry>");
      } else if (readShape(geometry, s, link)) {
        link.d.collisions.push_back(std::move(s));
        ++collisions_;
        continue;
      }
      link.meshNames.pop_back();
    }
  }

  const Node* coloured = nullptr;
  for (const Node* v : children(n, "visual")) {
    const Node* m = child(v, "material");
    if (!m) continue;
    const Attribute* named = attribute(m, "name");
    std::string c = colour(m);
    if (c.empty() && named) {
      const auto it = materials_.find(trimmed(named->value()));
      if (it == materials_.end())
        warn(m, "material " + inQuotes(named->value()) + " is not defined: no colour from it");
      else
        c = it->second;
    }
    if (c.empty()) continue;
    if (!coloured) {
      link.d.colour = c, coloured = m;
    } else if (c != link.d.colour) {
      warn(m, "a second colour " + c + " of the link's visuals; the first, " + link.d.colour +
                  " (line " + std::to_string(lineOf(coloured)) + "), is used");
    }
  }
  where_.clear();
}

void UrdfReader::readJoint(const Node* n, JointRead& joint) {
  JointDescription& j = joint.d;
  joint.node = n;
  j.line = lineOf(n);
  j.name = name(n);
  where_ = j.name.empty() ? "" : "joint " + inQuotes(j.name) + ": ";
  const Attribute* type = attribute(n, "type");
  joint.type = type ? trimmed(type->value()) : "";
  if (joint.type == "fixed") {
    j.kind = JointKind::Fixed;
  } else if (joint.type == "revolute") {
    j.kind = JointKind::Revolute;
  } else if (joint.type == "continuous") {
    j.kind = JointKind::Continuous;
  } else if (joint.type == "prismatic") {
    j.kind = JointKind::Prismatic;
  } else if (joint.type != "floating" && joint.type != "planar") {
    error(n, type ? "type " + inQuotes(joint.type) +
                        " is not a URDF joint type (fixed, revolute, continuous, prismatic, "
                        "floating, planar)"
                  : "<joint> needs a type");
  }
  j.origin = origin(n);
  for (const char* end : {"parent", "child"}) {
    const Node* e = child(n, end);
    if (!e) {
      error(n, "<joint> needs a <" + std::string(end) + " link=\"…\">");
      continue;
    }
    (std::strcmp(end, "parent") == 0 ? j.parent : j.child) = name(e, "link");
  }
  const bool moving = j.kind != JointKind::Fixed || joint.type == "planar";
  if (moving && joint.type != "floating") {
    if (const Node* axis = child(n, "axis")) {
      if (vec3(axis, "xyz", j.axis, false) && !(j.axis.norm() > 0))
        error(axis, "the axis must not be (0, 0, 0)");
    }
  }
  if (joint.type == "floating" || joint.type == "planar" || j.kind == JointKind::Fixed) {
    where_.clear();
    return;  // their <limit>, <dynamics>, <mimic> are not read (warned as not used)
  }
  const Node* limit = child(n, "limit");
  const bool ranged = j.kind == JointKind::Revolute || j.kind == JointKind::Prismatic;
  if (!limit && ranged) error(n, "a " + joint.type + " joint needs a <limit> (URDF requires one)");
  if (limit) {
    if (ranged) {
      LimitDescription l;
      number(limit, "lower", l.lower, false);
      number(limit, "upper", l.upper, false);
      j.limit = l;
    }
    nonNegative(limit, "effort", j.effort);
    nonNegative(limit, "velocity", j.velocity);
  }
  if (const Node* dynamics = child(n, "dynamics")) {
    number(dynamics, "damping", j.damping, false);
    number(dynamics, "friction", j.friction, false);
  }
  if (const Node* mimic = child(n, "mimic")) {
    MimicDescription m;
    m.joint = name(mimic, "joint");
    number(mimic, "multiplier", m.multiplier, false);
    number(mimic, "offset", m.offset, false);
    j.mimic = m;
  }
  where_.clear();
}

// The tree: names resolve, one parent per link, one root, no loop. Sets the
// base (the root, or the child of a floating or planar joint from an empty
// root) and the links in tree order (parents first).
bool UrdfReader::checkTree(std::string& base, BaseKind& kind, std::vector<int>& order) {
  const std::size_t before = errors_.size();
  const int nLinks = static_cast<int>(links_.size());
  std::vector<int> parentJoint(nLinks, -1);
  for (int j = 0; j < static_cast<int>(joints_.size()); ++j) {
    const JointRead& jr = joints_[j];
    where_ = "joint " + inQuotes(jr.d.name) + ": ";
    bool ok = true;
    for (const std::string* end : {&jr.d.parent, &jr.d.child})
      if (!end->empty() && !linkIndex_.count(*end)) {
        error(jr.node, "its " + std::string(end == &jr.d.parent ? "parent" : "child") + " link " +
                           inQuotes(*end) + " is not a link of the robot");
        ok = false;
      }
    if (!ok || jr.d.parent.empty() || jr.d.child.empty()) continue;
    if (jr.d.parent == jr.d.child) {
      error(jr.node, "joins link " + inQuotes(jr.d.child) + " to itself");
      continue;
    }
    const int c = linkIndex_[jr.d.child];
    if (parentJoint[c] >= 0) {
      const JointRead& first = joints_[parentJoint[c]];
      error(jr.node, "link " + inQuotes(jr.d.child) + " has two parents: joint " +
                         inQuotes(first.d.name) + " (line " + std::to_string(first.d.line) +
                         ") makes it a child of " + inQuotes(first.d.parent) + ", this joint of " +
                         inQuotes(jr.d.parent) + " (a robot is a tree)");
      continue;
    }
    parentJoint[c] = j;
  }
  where_.clear();
  if (errors_.size() != before) return false;

  std::vector<int> roots;
  for (int l = 0; l < nLinks; ++l)
    if (parentJoint[l] < 0) roots.push_back(l);
  if (roots.size() > 1) {
    std::string list;
    for (std::size_t k = 0; k < roots.size() && k < kListedLines; ++k)
      list += (k ? ", " : "") + inQuotes(links_[roots[k]].d.name) + " (line " +
              std::to_string(links_[roots[k]].d.line) + ")";
    if (roots.size() > kListedLines)
      list += " and " + std::to_string(roots.size() - kListedLines) + " more";
    error(links_[roots[1]].node, "more than one root link (a link that is no joint's child): " +
                                     list + "; a robot is one tree of links joined by joints");
    return false;
  }
  // Tree order from the root; links left out are on a loop of joints.
  std::vector<std::vector<int>> childJoints(nLinks);
  for (int j = 0; j < static_cast<int>(joints_.size()); ++j)
    childJoints[linkIndex_[joints_[j].d.parent]].push_back(j);
  std::vector<char> reached(nLinks, 0);
  if (!roots.empty()) {
    order.push_back(roots[0]);
    reached[roots[0]] = 1;
    for (std::size_t k = 0; k < order.size(); ++k)
      for (int j : childJoints[order[k]]) {
        const int c = linkIndex_[joints_[j].d.child];
        if (!reached[c]) reached[c] = 1, order.push_back(c);
      }
  }
  if (static_cast<int>(order.size()) != nLinks) {
    int l = 0;
    while (reached[l]) ++l;
    // Follow parents until a link repeats: that link is on the loop.
    std::vector<char> seen(nLinks, 0);
    while (!seen[l]) seen[l] = 1, l = linkIndex_[joints_[parentJoint[l]].d.parent];
    std::vector<int> loop;  // its joints, in document order
    const int start = l;
    do {
      loop.push_back(parentJoint[l]);
      l = linkIndex_[joints_[parentJoint[l]].d.parent];
    } while (l != start);
    std::sort(loop.begin(), loop.end());
    std::string names;
    for (std::size_t k = 0; k < loop.size() && k < kListedLines; ++k)
      names += (k ? ", " : "") + inQuotes(joints_[loop[k]].d.name);
    if (loop.size() > kListedLines)
      names += " and " + std::to_string(loop.size() - kListedLines) + " more";
    error(joints_[loop[0]].node,
          "joints " + names + " form a loop; a robot is a tree (URDF has no closed chains)");
    return false;
  }

  base = links_[roots[0]].d.name;
  kind = BaseKind::Free;
  // A floating (or ±y planar) joint from an empty root: the base's own motion.
  const LinkRead& root = links_[roots[0]];
  if (childJoints[roots[0]].size() == 1) {
    JointRead& j = joints_[childJoints[roots[0]][0]];
    const bool planarY = j.type == "planar" && std::abs(j.d.axis.normalized().y()) > 1 - 1e-9;
    if (root.empty && (j.type == "floating" || planarY)) {
      j.dropped = true;
      base = j.d.child;
      kind = j.type == "floating" ? BaseKind::Free : BaseKind::Planar;
      order.erase(order.begin());
      warn(j.node, "joint " + inQuotes(j.d.name) + " is " + j.type + " from the empty link " +
                       inQuotes(root.d.name) + ": the base " + inQuotes(base) + " moves " +
                       (j.type == "floating" ? "freely" : "in x, z and pitch") +
                       "; the link and the joint are left out of the description");
    }
  }
  for (JointRead& j : joints_)
    if (!j.dropped && (j.type == "floating" || j.type == "planar"))
      error(j.node, "joint " + inQuotes(j.d.name) + " is " + j.type + "; a " + j.type +
                        " joint is read only from an empty root link (the world) to the base" +
                        (j.type == "planar" ? ", with its axis along ±y" : ""));
  if (root.d.name == "world" && !joints_.empty() && order.size() == links_.size()) {
    for (int j : childJoints[roots[0]])
      if (joints_[j].d.kind == JointKind::Fixed)
        warn(joints_[j].node, "the fixed joint " + inQuotes(joints_[j].d.name) +
                                  " from link 'world' welds the robot to the world in ROS; here "
                                  "'world' is the base, which moves freely");
  }
  return errors_.size() == before;
}

void UrdfReader::readTransmission(const Node* n) {
  use(n);
  const Attribute* nameAttr = attribute(n, "name");
  const std::string tname = nameAttr ? trimmed(nameAttr->value()) : "";
  const std::string source = "transmission" + (tname.empty() ? "" : " " + inQuotes(tname));
  std::string type;
  if (const Attribute* a = attribute(n, "type")) type = trimmed(a->value());
  if (const Node* t = child(n, "type")) type = text(t);
  if (const Node* p = child(n, "plugin")) type = text(p);
  const std::vector<const Node*> joints = children(n, "joint");
  const std::vector<const Node*> actuators = children(n, "actuator");
  if (!type.empty() && !endsWith(type, "SimpleTransmission")) {
    useAll(n);
    warn(n, source + " is a " + inQuotes(type) +
                "; only simple transmissions (one joint, one actuator) are read: not used");
    return;
  }
  if (joints.size() != 1 || actuators.size() > 1) {
    useAll(n);
    warn(n, source + " has " + std::to_string(joints.size()) + " joints and " +
                std::to_string(actuators.size()) +
                " actuators; only simple transmissions (one joint, one actuator) are read: not "
                "used");
    return;
  }
  const Node* jn = joints[0];
  const Node* an = actuators.empty() ? nullptr : actuators[0];
  const std::string joint = name(jn);
  if (joint.empty()) return;
  Drive d;
  d.node = n;
  d.source = source;
  d.actuator = joint;
  if (an) {
    const std::string actuator = name(an);
    if (!actuator.empty()) d.actuator = actuator;
  }
  std::string interface;  // the joint's, else the actuator's
  for (const Node* holder : {jn, an}) {
    const Node* h = holder ? child(holder, "hardwareInterface") : nullptr;
    const std::string s = h ? text(h) : "";
    if (interface.empty()) {
      interface = s;
    } else if (!s.empty() && modeOf(s) != modeOf(interface)) {
      warn(h, source + ": the actuator's hardware interface " + inQuotes(s) +
                  " differs from the joint's " + inQuotes(interface) + "; the joint's is used");
    }
  }
  if (!interface.empty()) {
    d.mode = modeOf(interface);
    if (!d.mode)
      warn(n, source + ": hardware interface " + inQuotes(interface) +
                  " is not recognised (velocity, position or effort): the joint's default mode "
                  "is used");
  }
  // The mechanical reduction: the actuator's (ROS 1), else the joint's (ROS 2).
  const Node* reduction = nullptr;
  for (const Node* holder : {an, jn})
    for (const char* key : {"mechanicalReduction", "mechanical_reduction"}) {
      const Node* r = holder ? child(holder, key) : nullptr;
      if (!r) continue;
      const std::string s = text(r);
      char* end = nullptr;
      const double g = std::strtod(s.c_str(), &end);
      if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(g) || !(g > 0)) {
        error(r,
              "<" + std::string(r->name()) + "> must be a finite number > 0, got " + inQuotes(s));
        return;
      }
      if (!reduction) {
        reduction = r, d.gear = g;
      } else if (g != d.gear) {
        warn(r, source + ": a second mechanical reduction " + format(g) + "; the first, " +
                    format(d.gear) + " (line " + std::to_string(lineOf(reduction)) + "), is used");
      }
    }
  if (!jointIndex_.count(joint)) {
    warn(n,
         source + " names joint " + inQuotes(joint) + ", which the robot does not have: not used");
    return;
  }
  if (drives_.count(joint)) {
    warn(n, source + " is a second transmission of joint " + inQuotes(joint) + " (the first is " +
                drives_[joint].source + "): not used");
    return;
  }
  drives_[joint] = d;
}

void UrdfReader::readRos2Control(const Node* n) {
  use(n);
  const Attribute* nameAttr = attribute(n, "name");
  attribute(n, "type");
  const std::string source =
      "<ros2_control>" + (nameAttr ? " " + inQuotes(trimmed(nameAttr->value())) : std::string());
  for (const Node* jn : children(n, "joint")) {
    const std::string joint = name(jn);
    if (joint.empty()) continue;
    const Node* command = child(jn, "command_interface");
    std::optional<ActuatorMode> mode;
    if (command) {
      const Attribute* a = attribute(command, "name");
      if (a) mode = modeOf(a->value());
      if (a && !mode)
        warn(command, source + ": command interface " + inQuotes(a->value()) +
                          " is not recognised (velocity, position or effort)");
    }
    if (!jointIndex_.count(joint)) {
      warn(jn, source + " names joint " + inQuotes(joint) +
                   ", which the robot does not have: not used");
      continue;
    }
    const auto it = drives_.find(joint);
    if (it != drives_.end()) {
      if (mode && it->second.mode && *mode != *it->second.mode)
        warn(jn, source + " commands joint " + inQuotes(joint) + " by " + modeName(*mode) + ", " +
                     it->second.source + " by " + modeName(*it->second.mode) +
                     "; the transmission's is used");
      continue;
    }
    Drive d;
    d.actuator = joint;
    d.mode = mode;
    d.node = jn;
    d.source = source;
    drives_[joint] = d;
  }
}

// The wheel of a continuous joint from its child's collisions.
WheelFit UrdfReader::fitWheel(const JointRead& joint) {
  WheelFit fit;
  const LinkRead& link = links_[linkIndex_[joint.d.child]];
  const Vec3 axis = joint.d.axis.normalized();
  const std::string jname = "joint " + inQuotes(joint.d.name) + ": ";
  int best = -1, parallel = 0;
  for (int k = 0; k < static_cast<int>(link.d.collisions.size()); ++k) {
    const CollisionShape& s = link.d.collisions[k];
    if (s.kind != ShapeKind::Cylinder) continue;
    const Vec3 along = rpyRotation(s.origin.rpy) * Vec3::UnitZ();
    const double angle = elementary::atan2(along.cross(axis).norm(), std::abs(along.dot(axis)));
    if (angle > kAxisTolerance) continue;
    ++parallel;
    const CollisionShape* b = best < 0 ? nullptr : &link.d.collisions[best];
    if (!b || s.radius > b->radius || (s.radius == b->radius && s.length > b->length)) best = k;
  }
  if (best >= 0) {
    const CollisionShape& s = link.d.collisions[best];
    fit = {true, s.radius, s.length, s.origin.xyz};
    if (parallel > 1)
      warn(joint.node, jname + "link " + inQuotes(link.d.name) + " has " +
                           std::to_string(parallel) +
                           " cylinders about the axle; the wheel is the one of largest radius ("
                           "radius " +
                           format(s.radius) + " m, width " + format(s.length) + " m)");
    return fit;
  }
  // The mesh collisions' extent about the axis.
  Vec3 u = axis.unitOrthogonal(), w = axis.cross(u);
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  std::vector<Vec3> points;
  std::string meshes;
  for (std::size_t k = 0; k < link.d.collisions.size(); ++k) {
    const CollisionShape& s = link.d.collisions[k];
    if (s.kind != ShapeKind::Hull) continue;
    const Mat3 r = rpyRotation(s.origin.rpy);
    for (const Vec3& p : s.points) {
      const Vec3 q = r * p + s.origin.xyz;
      const double c[3] = {axis.dot(q), u.dot(q), w.dot(q)};
      for (int i = 0; i < 3; ++i) lo[i] = std::min(lo[i], c[i]), hi[i] = std::max(hi[i], c[i]);
      points.push_back(q);
    }
    meshes += (meshes.empty() ? "" : ", ") + inQuotes(link.meshNames[k]);
  }
  if (points.empty()) {
    std::string shapes;
    for (const CollisionShape& s : link.d.collisions)
      shapes += std::string(shapes.empty() ? "" : ", ") + (s.kind == ShapeKind::Box ? "a box"
                                                           : s.kind == ShapeKind::Cylinder
                                                               ? "a cylinder not about the axle"
                                                               : "a sphere");
    warn(joint.node, jname + "continuous, but its child link " + inQuotes(link.d.name) +
                         " has no collision a wheel is made from (a cylinder about the axle or a "
                         "mesh)" +
                         (shapes.empty() ? "" : ", only " + shapes) + ": it is not a wheel");
    return fit;
  }
  const double mid[3] = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
  fit.centre = mid[0] * axis + mid[1] * u + mid[2] * w;
  fit.width = hi[0] - lo[0];
  for (const Vec3& q : points)
    fit.radius = std::max(fit.radius, elementary::hypot(u.dot(q) - mid[1], w.dot(q) - mid[2]));
  if (!(fit.radius > 0) || !(fit.width > 0)) {
    warn(joint.node, jname + "the meshes of link " + inQuotes(link.d.name) +
                         " have no extent about the axle (radius " + format(fit.radius) +
                         " m, width " + format(fit.width) + " m): it is not a wheel");
    fit.ok = false;
    return fit;
  }
  fit.ok = true;
  warn(joint.node, jname + "the wheel's size was fitted from its mesh " + meshes + " (" +
                       std::to_string(points.size()) + " hull points): radius " +
                       format(fit.radius, 4) + " m, width " + format(fit.width, 4) +
                       " m about the joint axis");
  return fit;
}

// Moment of inertia about joint j's axis (through its origin) of its child
// link alone or of the child's subtree: kg·m², or for a prismatic joint the
// mass (kg).
double UrdfReader::axisInertia(int j, const std::vector<LinkFrame>& poses,
                               const std::vector<std::vector<int>>& childJoints,
                               bool subtree) const {
  const JointRead& joint = joints_[j];
  const int c = linkIndex_.at(joint.d.child);
  const Vec3 axis = poses[c].rot * joint.d.axis.normalized();
  std::vector<int> stack{c};
  double total = 0;
  while (!stack.empty()) {
    const int l = stack.back();
    stack.pop_back();
    const LinkDescription& link = links_[l].d;
    if (joint.d.kind == JointKind::Prismatic) {
      total += link.mass;
    } else {
      const Vec3 com = poses[l].pos + poses[l].rot * link.com - poses[c].pos;
      const Vec3 off = com - com.dot(axis) * axis;
      total += axis.dot(poses[l].rot * link.inertia * poses[l].rot.transpose() * axis) +
               link.mass * off.squaredNorm();
    }
    if (subtree)
      for (int k : childJoints[l])
        if (!joints_[k].dropped) stack.push_back(linkIndex_.at(joints_[k].d.child));
  }
  return total;
}

void UrdfReader::shiftChildFrame(int j, const Vec3& shift,
                                 const std::vector<std::vector<int>>& childJoints) {
  Origin& origin = joints_[j].d.origin;
  origin.xyz += rpyRotation(origin.rpy) * shift;
  const int c = linkIndex_.at(joints_[j].d.child);
  LinkDescription& link = links_[c].d;
  link.com -= shift;
  for (CollisionShape& s : link.collisions) s.origin.xyz -= shift;
  for (int k : childJoints[c]) joints_[k].d.origin.xyz -= shift;
}

void UrdfReader::makeDrives(RobotDescription& d, std::vector<LinkFrame>& poses,
                            const std::vector<std::vector<int>>& childJoints) {
  double slowest = INFINITY;
  std::vector<const JointRead*> passive;
  std::unordered_map<std::string, const Node*> actuatorNames;
  const auto add = [&](ActuatorDescription a, const JointRead& joint, const Node* at) {
    const auto [it, fresh] = actuatorNames.emplace(a.name, at);
    if (!fresh) {
      error(at, "actuator " + inQuotes(a.name) + " of joint " + inQuotes(joint.d.name) +
                    " has the name of the actuator on line " + std::to_string(lineOf(it->second)) +
                    "; actuator names must differ");
      return false;
    }
    d.actuators.push_back(std::move(a));
    return true;
  };
  for (int j = 0; j < static_cast<int>(joints_.size()); ++j) {
    const JointRead& joint = joints_[j];
    if (joint.dropped) continue;
    const auto drive = drives_.find(joint.d.name);
    const Drive* dr = drive == drives_.end() ? nullptr : &drive->second;
    const double gear = dr ? dr->gear : 1.0;
    const double effort = joint.d.effort > 0 ? joint.d.effort : kDefaultEffort;
    ActuatorDescription a;
    a.name = dr ? dr->actuator : joint.d.name;
    a.joint = joint.d.name;
    a.gearRatio = gear;
    a.limit = effort / gear;

    if (joint.d.kind == JointKind::Continuous) {
      WheelFit fit = fitWheel(joint);
      if (fit.ok) {
        const int c = linkIndex_[joint.d.child];
        WheelDescription w;
        w.joint = joint.d.name;
        w.radius = fit.radius;
        w.width = fit.width;
        d.wheels.push_back(w);
        const Vec3 axis = joint.d.axis.normalized();
        const Vec3 along = fit.centre.dot(axis) * axis;
        if (along.norm() > kCentreTolerance) {
          // The wheel's link frame moves along the axle to the tyre's centre:
          // exact, since a shift along the axis commutes with the turn about it.
          shiftChildFrame(j, along, childJoints);
          poses[c].pos += poses[c].rot * along;
          fit.centre -= along;
          warn(joint.node, "joint " + inQuotes(joint.d.name) + ": the wheel's centre is " +
                               format(along.norm(), 4) + " m along the axle from link " +
                               inQuotes(joint.d.child) +
                               "'s origin; the link's frame is moved there (its mass, shapes "
                               "and child joints stay where they are)");
        }
        if (fit.centre.norm() > kCentreTolerance)
          warn(joint.node, "joint " + inQuotes(joint.d.name) + ": the wheel's centre is " +
                               format(fit.centre.norm(), 4) + " m off the axle in link " +
                               inQuotes(joint.d.child) +
                               "; the wheel is modelled as round about the axle");
        const Vec3 axle = poses[c].rot * axis;
        const bool mimicked = std::any_of(joints_.begin(), joints_.end(), [&](const JointRead& o) {
          return o.d.mimic && o.d.mimic->joint == joint.d.name;
        });
        if (axle.y() < 0 && !joint.d.mimic && !mimicked) {
          // Reversed, the joint turns the other way for the same motion: a
          // positive speed drives forwards on both sides (q is negated; a
          // continuous joint has no limits to follow it).
          joints_[j].d.axis = -joint.d.axis;
          warn(joint.node, "joint " + inQuotes(joint.d.name) + ": the wheel's axle points right (" +
                               format(axle) +
                               " in the base frame); its axis is reversed so that a positive "
                               "speed drives forwards, as on the left");
        } else if (axle.y() < 0) {
          warn(joint.node, "joint " + inQuotes(joint.d.name) + ": the wheel's axle points right (" +
                               format(axle) +
                               " in the base frame) and a mimic ties it: a positive speed turns it "
                               "backwards");
        }
        if (dr && dr->mode && *dr->mode != ActuatorMode::Speed)
          warn(dr->node, dr->source + " drives wheel joint " + inQuotes(joint.d.name) + " by " +
                             modeName(*dr->mode) +
                             "; a wheel is driven by a speed actuator (left and right commands)");
        // Default gains: see the header (time constant ≤ 20 ms).
        const double inertia =
            std::max(axisInertia(j, poses, childJoints, false), kMinDriveInertia);
        a.mode = ActuatorMode::Speed;
        a.gain = kLoopRate * inertia;
        a.integralGain = 10 * a.gain;
        const double y = (poses[c].pos + poses[c].rot * fit.centre).y();
        if (!add(a, joint, dr ? dr->node : joint.node)) continue;
        (y >= 0 ? d.controls.left : d.controls.right).push_back(a.name);
        if (joint.d.velocity > 0) slowest = std::min(slowest, joint.d.velocity);
        continue;
      }
    }
    if (!dr) {
      if (joint.d.kind != JointKind::Fixed && !joint.d.mimic) passive.push_back(&joint);
      continue;
    }
    if (joint.d.kind == JointKind::Fixed) {
      warn(dr->node,
           dr->source + " names joint " + inQuotes(joint.d.name) + ", which is fixed: not used");
      continue;
    }
    a.mode = dr->mode ? *dr->mode
                      : (joint.d.kind == JointKind::Continuous ? ActuatorMode::Speed
                                                               : ActuatorMode::Position);
    const double inertia = std::max(axisInertia(j, poses, childJoints, true), kMinDriveInertia);
    if (a.mode == ActuatorMode::Position) {
      a.gain = inertia * kLoopRate * kLoopRate;
      a.damping = 2 * inertia * kLoopRate;
      if (add(a, joint, dr->node)) d.controls.joints.push_back(a.name);
    } else if (a.mode == ActuatorMode::Speed) {
      a.gain = kLoopRate * inertia;
      a.integralGain = 10 * a.gain;
      if (add(a, joint, dr->node))
        warn(dr->node, "speed actuator " + inQuotes(a.name) + " drives joint " +
                           inQuotes(joint.d.name) +
                           ", which is not a wheel: no scenario command reaches it (its target "
                           "speed stays 0)");
    } else {
      add(a, joint, dr->node);
    }
  }
  if (!passive.empty()) {
    std::string list;
    for (std::size_t k = 0; k < passive.size(); ++k) {
      if (k == kListedLines) {
        list += " and " + std::to_string(passive.size() - k) + " more";
        break;
      }
      list += (k ? ", " : "") + inQuotes(passive[k]->d.name) + " (line " +
              std::to_string(passive[k]->d.line) + ")";
    }
    warnings_.push_back({offsetOf(passive[0]->node->name()),
                         {path_, at(passive[0]->node) +
                                     "joints without a transmission are "
                                     "passive (no actuator): " +
                                     list}});
  }
  d.controls.maxWheelSpeed = std::isfinite(slowest) ? slowest : kDefaultWheelSpeed;
}

// Warnings for every element, attribute and text the reader did not use:
// the outermost unused element of a branch, by the chain of element names
// below <robot>.
void UrdfReader::reportUnused(const Node* robot) {
  struct Item {
    const Node* node;
    std::string chain;
  };
  std::vector<Item> stack{{robot, "<robot>"}};
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    for (const Attribute* a = item.node->first_attribute(); a; a = a->next_attribute()) {
      const std::string n = a->name();
      if (!used(a) && n != "xmlns" && n.rfind("xmlns:", 0) != 0)
        note(item.chain + " attribute " + clipped(n) + " not used", a->name());
    }
    std::vector<Item> next;
    for (const Node* c = item.node->first_node(); c; c = c->next_sibling()) {
      if (c->type() == rapidxml::node_element) {
        const std::string chain =
            (item.node == robot ? "" : item.chain) + "<" + clipped(c->name()) + ">";
        if (used(c))
          next.push_back({c, chain});
        else
          note(chain + " not used", c->name());
      } else if ((c->type() == rapidxml::node_data || c->type() == rapidxml::node_cdata) &&
                 !used(c)) {
        const char* start = c->value();  // the text after the white space before it
        while (*start && std::isspace(static_cast<unsigned char>(*start))) ++start;
        if (*start) note("text in " + item.chain + " not used", start);
      }
    }
    stack.insert(stack.end(), next.rbegin(), next.rend());
  }
  for (const Note& n : notes_) {
    std::string where = n.at.size() == 1 && n.count == 1 ? "line " : "lines ";
    for (std::size_t k = 0; k < n.at.size(); ++k)
      where += (k ? ", " : "") + std::to_string(lineOf(n.at[k]));
    if (n.count > n.at.size()) where += " and " + std::to_string(n.count - n.at.size()) + " more";
    warnings_.push_back({offsetOf(n.at.front()), {path_, where + ": " + n.what}});
  }
}

Expected<UrdfRobot> UrdfReader::failed() { return Expected<UrdfRobot>(capped(errors_)); }

Expected<UrdfRobot> UrdfReader::read() {
  const auto fail = [&](std::size_t offset, const std::string& message) {
    return Expected<UrdfRobot>::failure(
        path_, "line " + std::to_string(lines_.line(offset)) + ": " + message);
  };
  if (const std::size_t nul = text_.find('\0'); nul != std::string::npos)
    return fail(nul, "a NUL byte (byte " + std::to_string(nul) + "): not XML text");
  if (const std::size_t bad = invalidUtf8Offset(text_); bad != std::string::npos)
    return fail(bad, "not UTF-8 (byte " + std::to_string(bad) + "); save the file as UTF-8");
  if (const std::optional<ScanProblem> p = scanMarkup(text_)) return fail(p->offset, p->message);
  if (!parse() || !checkAttributes()) return failed();

  const Node* robot = nullptr;
  for (const Node* n = doc_->first_node(); n; n = n->next_sibling()) {
    if (n->type() != rapidxml::node_element) continue;
    if (robot) {
      error(n, "a second top-level element <" + clipped(n->name()) + ">; a URDF has one, <robot>");
      return failed();
    }
    robot = n;
  }
  if (!robot) return Expected<UrdfRobot>::failure(path_, "no <robot> element: not a URDF");
  if (std::strcmp(robot->name(), "robot") != 0) {
    error(robot,
          "the top-level element is <" + clipped(robot->name()) + ">, not <robot>: not a URDF");
    return failed();
  }
  use(robot);
  int nLinks = 0, nJoints = 0;
  for (const Node* n = robot->first_node(); n; n = n->next_sibling()) {
    if (n->type() != rapidxml::node_element) continue;
    const std::string tag = n->name();
    if (tag.rfind("xacro:", 0) == 0) {
      error(n, "<" + clipped(tag) +
                   "> is xacro markup, not URDF: expand the file first (xacro FILE.urdf.xacro > "
                   "FILE.urdf)");
      return failed();
    }
    nLinks += tag == "link";
    nJoints += tag == "joint";
  }
  if (nLinks > kMaxRobotParts || nJoints > kMaxRobotParts)
    return Expected<UrdfRobot>::failure(
        path_, "the robot has " + std::to_string(nLinks) + " links and " + std::to_string(nJoints) +
                   " joints; the limit is " + std::to_string(kMaxRobotParts) + " of each");
  if (nLinks == 0) {
    error(robot, "the robot has no <link>");
    return failed();
  }

  UrdfRobot out;
  RobotDescription& d = out.description;
  d.name = name(robot);
  readMaterials(robot);
  links_.resize(nLinks);
  joints_.resize(nJoints);
  {
    int l = 0;
    for (const Node* n : children(robot, "link")) {
      readLink(n, links_[l]);
      const std::string& ln = links_[l].d.name;
      if (!ln.empty()) {
        const auto [it, fresh] = linkIndex_.emplace(ln, l);
        if (!fresh)
          error(n, "a second link named " + inQuotes(ln) + " (the first is on line " +
                       std::to_string(links_[it->second].d.line) + ")");
      }
      ++l;
    }
    int j = 0;
    for (const Node* n : children(robot, "joint")) {
      readJoint(n, joints_[j]);
      const std::string& jn = joints_[j].d.name;
      if (!jn.empty()) {
        const auto [it, fresh] = jointIndex_.emplace(jn, j);
        if (!fresh)
          error(n, "a second joint named " + inQuotes(jn) + " (the first is on line " +
                       std::to_string(joints_[it->second].d.line) + ")");
      }
      ++j;
    }
  }
  for (const JointRead& j : joints_)
    if (j.d.mimic && !j.d.mimic->joint.empty() && !jointIndex_.count(j.d.mimic->joint))
      error(j.node, "joint " + inQuotes(j.d.name) + ": <mimic> names joint " +
                        inQuotes(j.d.mimic->joint) + ", which the robot does not have");
  if (collisions_ > kMaxRobotParts * 10)
    error(robot, "the links have " + std::to_string(collisions_) +
                     " collisions in all; the limit is " + std::to_string(kMaxRobotParts * 10));
  if (hullPoints_ > kMaxRobotHullPoints)
    error(robot, "the collision meshes' hulls have " + std::to_string(hullPoints_) +
                     " points in all, more than the limit of " +
                     std::to_string(kMaxRobotHullPoints) + " of a robot description");
  if (!errors_.empty()) return failed();

  std::vector<int> order;
  if (!checkTree(d.base, d.baseKind, order)) return failed();

  // Link frames in the base frame at q = 0.
  std::vector<LinkFrame> poses(links_.size());
  std::vector<std::vector<int>> childJoints(links_.size());
  for (int j = 0; j < static_cast<int>(joints_.size()); ++j)
    childJoints[linkIndex_[joints_[j].d.parent]].push_back(j);
  for (int l : order)
    for (int j : childJoints[l])
      if (!joints_[j].dropped)
        poses[linkIndex_[joints_[j].d.child]] = poses[l].then(joints_[j].d.origin);

  for (const Node* t : children(robot, "transmission")) readTransmission(t);
  for (const Node* r : children(robot, "ros2_control")) readRos2Control(r);
  makeDrives(d, poses, childJoints);
  if (!errors_.empty()) return failed();

  // Tires and joint stops sized to the robot (urdf_reader.h).
  double mass = 0;
  for (const LinkRead& l : links_) mass += l.d.mass;
  if (!d.wheels.empty() && mass > 0) {
    const double share = mass / static_cast<double>(d.wheels.size()), weight = share * 9.81;
    for (WheelDescription& w : d.wheels) {
      const double stiffness = std::clamp(weight / (0.02 * w.radius), 1e3, 1e8);
      const double damping = std::clamp(std::sqrt(stiffness * share), 0.0, 1e6);
      w.tire.stiffness = w.tread.stiffness = stiffness;
      w.tire.damping = w.tread.damping = damping;
      // The wheel's speed loop also drives its share of the robot, m r² at
      // the axle: with it in the gains the loop keeps its 20 ms on the ground.
      for (ActuatorDescription& a : d.actuators)
        if (a.joint == w.joint && a.mode == ActuatorMode::Speed) {
          a.gain += kLoopRate * share * w.radius * w.radius;  // gains act at the joint
          a.integralGain = 10 * a.gain;
        }
    }
  }
  for (int j = 0; j < static_cast<int>(joints_.size()); ++j) {
    JointRead& joint = joints_[j];
    if (joint.dropped || !joint.d.limit) continue;
    const double inertia = std::max(axisInertia(j, poses, childJoints, true), kMinDriveInertia);
    joint.d.limit->stiffness = inertia * kStopRate * kStopRate;
    joint.d.limit->damping = 2 * inertia * kStopRate;
  }

  for (LinkRead& l : links_) {
    const bool dropped = std::any_of(joints_.begin(), joints_.end(), [&](const JointRead& j) {
      return j.dropped && j.d.parent == l.d.name;
    });
    if (!dropped) d.links.push_back(std::move(l.d));
  }
  for (JointRead& j : joints_)
    if (!j.dropped) d.joints.push_back(std::move(j.d));

  reportUnused(robot);
  std::stable_sort(warnings_.begin(), warnings_.end(),
                   [](const Warning& a, const Warning& b) { return a.offset < b.offset; });
  for (Warning& w : warnings_) out.warnings.push_back(std::move(w.issue));
  out.warnings = capped(std::move(out.warnings));
  return out;
}

}  // namespace

Expected<UrdfRobot> readUrdf(const std::string& text, const ScenarioFiles& files,
                             const std::string& path) {
  if (text.size() > kMaxUrdfBytes)  // before the reader indexes the lines
    return Expected<UrdfRobot>::failure(
        path, "the file is " + std::to_string(text.size()) + " bytes; the limit is " +
                  std::to_string(kMaxUrdfBytes) + " bytes (50 MiB)");
  try {
    UrdfReader reader(text, files, path);
    return reader.read();
  } catch (const std::bad_alloc&) {
    return Expected<UrdfRobot>::failure(path, "not enough memory to read the robot");
  }
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
