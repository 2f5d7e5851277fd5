// Grey PNG images for heightmaps: 8- or 16-bit, read with stb_image (Debian's
// libstb-dev, header-only, compiled into the core natively and to WASM).
// Data URLs ("data:image/png;base64,...") are decoded here too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/types.h"

namespace roverlab {

struct GreyImage {
  int width = 0, height = 0;          ///< pixels
  int bits = 8;                       ///< 8 or 16 per sample
  std::vector<std::uint16_t> values;  ///< width·height, row 0 the image's top row
};

/// The bytes of a base64 data URL with a PNG media type; issues at "" (the
/// caller's path).
Expected<std::string> pngDataUrlBytes(const std::string& url);

/// Decodes a grey PNG (a grey-and-alpha image's grey channel) of at most
/// `maxPixels` pixels; a colour image, another format or a larger one is
/// refused before its pixels are decoded.
Expected<GreyImage> decodeGreyPng(const std::string& bytes, long maxPixels);

}  // namespace roverlab
