#include "scenario/heightmap_reader.h"

#include <algorithm>
#include <cmath>

#include "common/size_optimized.h"
#include "scenario/png_image.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

// Inline heights: an array of rows (along +y), each an array of numbers (m)
// along +x, all rows as long as the first. Stops at the first bad value.
bool readRows(Reader& r, const json& rows, const std::string& path, int& nx, int& ny,
              std::vector<float>& out) {
  if (!rows.is_array() || rows.size() < 2) {
    r.add(path, "must be an array of at least 2 rows (along +y) of heights (m)");
    return false;
  }
  ny = static_cast<int>(std::min<size_t>(rows.size(), 1u << 30));
  nx = rows[0].is_array() ? static_cast<int>(std::min<size_t>(rows[0].size(), 1u << 30)) : 0;
  if (static_cast<long>(nx) * ny > kMaxHeightfieldSamples) {
    r.add(path, "has " + std::to_string(static_cast<long>(nx) * ny) +
                    " samples, more than the limit of " + std::to_string(kMaxHeightfieldSamples));
    return false;
  }
  out.reserve(static_cast<size_t>(nx) * ny);
  for (int j = 0; j < ny; ++j) {
    const json& row = rows[j];
    const std::string p = Reader::at(path, j);
    if (!row.is_array() || static_cast<int>(row.size()) != nx || nx < 2) {
      r.add(p, "must be an array of " + std::to_string(std::max(nx, 2)) +
                   " heights (m), as long as the first row");
      return false;
    }
    for (int i = 0; i < nx; ++i) {
      const json& v = row[i];
      const double z = v.is_number() ? v.get<double>() : NAN;
      if (!std::isfinite(z) || std::abs(z) > 1e5) {
        r.add(Reader::at(p, i), "must be a finite height in [-1e5, 1e5] m, got " +
                                    (v.is_number() ? format(z) : typeName(v)));
        return false;
      }
      out.push_back(static_cast<float>(z));
    }
  }
  return true;
}

// A PNG's grey values as heights, the image's top row the field's last (+y) row.
void imageRows(const GreyImage& image, double scale, double offset, int& nx, int& ny,
               std::vector<float>& out) {
  nx = image.width, ny = image.height;
  out.resize(image.values.size());
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      out[static_cast<size_t>(j) * nx + i] = static_cast<float>(
          offset + scale * image.values[static_cast<size_t>(ny - 1 - j) * nx + i]);
}

// Reads one entry; returns the samples it added to the builder.
long readHeightmap(Reader& r, const json& h, const std::string& p, TerrainBuilder& builder,
                   double terrainBase,
                   const std::function<int(const json&, const std::string&)>& materialOf,
                   const ScenarioFiles& files) {
  if (!r.object(h, p,
                {"origin", "cell", "heights", "png", "file", "height_scale", "height_offset",
                 "material", "color", "base"}))
    return 0;
  const size_t before = r.issues.size();
  HeightfieldSpec spec;
  if (h.contains("origin")) {
    const std::optional<Vec3> o = r.vec3(h["origin"], Reader::at(p, "origin"), 2);
    if (o) spec.originX = o->x(), spec.originY = o->y();
  }
  const std::string cellPath = Reader::at(p, "cell");
  NumberSpec cell = within(1e-3, 1e3, "m", 1);
  if (!h.contains("cell")) {
    r.add(cellPath, "is required: the sample spacing (m), a number or [dx, dy]");
  } else if (h["cell"].is_array()) {
    if (h["cell"].size() != 2) {
      r.add(cellPath, "must be a number or [dx, dy] (m)");
    } else {
      spec.dx = r.numberValue(h["cell"][0], Reader::at(cellPath, 0), cell);
      spec.dy = r.numberValue(h["cell"][1], Reader::at(cellPath, 1), cell);
    }
  } else {
    spec.dx = spec.dy = r.numberValue(h["cell"], cellPath, cell);
  }
  NumberSpec scaleSpec = within(-1e3, 1e3, "m per unit", 1.0);
  const double scale = r.number(h, p, "height_scale", scaleSpec);
  NumberSpec offsetSpec = within(-1e4, 1e4, "m");
  const double offset = r.number(h, p, "height_offset", offsetSpec);
  spec.material = materialOf(h, p);
  spec.color = colour(r, h, p, spec.color);
  const int sources = h.contains("heights") + h.contains("png") + h.contains("file");
  if (sources == 0) {
    r.add(p,
          "needs its heights: \"heights\" (rows of m), \"png\" (a data URL) or \"file\" (a "
          "PNG beside the scenario)");
    return 0;
  }
  if (sources > 1) {  // each one named
    for (const char* key : {"heights", "png", "file"})
      if (h.contains(key))
        r.add(Reader::at(p, key),
              "is one of several sources of the heights; give one of \"heights\", \"png\" and "
              "\"file\"");
    return 0;
  }
  if (h.contains("heights")) {
    if (!readRows(r, h["heights"], Reader::at(p, "heights"), spec.nx, spec.ny, spec.heights))
      return 0;
    if (scale != 1.0 || offset != 0.0)
      for (float& z : spec.heights) z = static_cast<float>(offset + scale * z);
  } else {
    const bool png = h.contains("png");
    const std::string key = png ? "png" : "file";
    const std::string sp = Reader::at(p, key);
    if (!h[key].is_string()) {
      r.add(sp, "must be a string, got " + typeName(h[key]));
      return 0;
    }
    const std::string text = h[key].get<std::string>();
    std::string bytes;
    if (png) {
      Expected<std::string> b = pngDataUrlBytes(text);
      if (!b) {
        r.addAll(sp, b.issues());
        return 0;
      }
      bytes = std::move(b).value();
    } else {
      if (!files) {
        r.add(sp,
              "names a file, which only the command-line tool reads; embed the image "
              "as \"png\" (a data URL) instead");
        return 0;
      }
      std::string error;
      std::optional<std::string> b = files(text, error);
      if (!b) {
        r.add(sp, "cannot read '" + clipped(text) + "': " + error);
        return 0;
      }
      bytes = std::move(*b);
    }
    Expected<GreyImage> image = decodeGreyPng(bytes, kMaxHeightfieldSamples);
    if (!image) {
      r.addAll(sp, image.issues());
      return 0;
    }
    imageRows(image.value(), scale, offset, spec.nx, spec.ny, spec.heights);
  }
  if (r.issues.size() != before) return 0;
  const auto [lowest, highest] = std::minmax_element(spec.heights.begin(), spec.heights.end());
  const float low = *lowest;
  // Scaled heights stay within the bound of typed ones: the robot is lowered
  // onto the terrain from its top, in steps of half a wheel radius.
  if (!(std::abs(low) <= 1e5f && std::abs(*highest) <= 1e5f)) {
    r.add(Reader::at(p, h.contains("height_scale") ? "height_scale" : "height_offset"),
          "makes heights from " + format(static_cast<double>(low)) + " to " +
              format(static_cast<double>(*highest)) + " m; they must lie in [-1e5, 1e5] m");
    return 0;
  }
  spec.base = r.number(h, p, "base", surfaceBaseSpec(std::min(terrainBase, low - 1.0)));
  Expected<Heightfield> field = makeHeightfield(std::move(spec));
  if (!field) {
    r.addAll(p, field.issues());
    return 0;
  }
  const long samples = static_cast<long>(field.value().heights.size());
  builder.addHeightfield(std::move(field).value());
  return samples;
}

}  // namespace

void readHeightmaps(Reader& r, const json& list, TerrainBuilder& builder, double base,
                    const std::function<int(const json&, const std::string&)>& materialOf,
                    const ScenarioFiles& files) {
  const std::string path = "terrain.heightmaps";
  long samples = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string p = Reader::at(path, i);
    if (samples >= kMaxHeightfieldSamples) {
      r.add(p, "the terrain's heightmaps would have more than " +
                   std::to_string(kMaxHeightfieldSamples) +
                   " samples in all, the limit (docs/scenario-format.md, \"Limits\")");
      return;
    }
    const long added = readHeightmap(r, list[i], p, builder, base, materialOf, files);
    if (samples + added > kMaxHeightfieldSamples) {
      r.add(p, "the terrain's heightmaps would have more than " +
                   std::to_string(kMaxHeightfieldSamples) +
                   " samples in all, the limit (docs/scenario-format.md, \"Limits\")");
      return;
    }
    samples += added;
  }
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
