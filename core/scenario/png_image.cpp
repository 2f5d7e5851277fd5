#include "scenario/png_image.h"

// stb_image, PNG only, reading from memory.
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_ASSERT(x) ((void)0)
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace roverlab {
namespace {

int base64Value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

}  // namespace

Expected<std::string> pngDataUrlBytes(const std::string& url) {
  const std::string prefix = "data:image/png;base64,";
  if (url.compare(0, prefix.size(), prefix) != 0)
    return Expected<std::string>::failure(
        "", "must be a data URL of a PNG image, starting \"data:image/png;base64,\"");
  std::string out;
  out.reserve((url.size() - prefix.size()) * 3 / 4);
  unsigned bits = 0;
  int count = 0;
  for (size_t k = prefix.size(); k < url.size(); ++k) {
    const unsigned char c = static_cast<unsigned char>(url[k]);
    if (c == '=') break;
    const int v = base64Value(c);
    if (v < 0)
      return Expected<std::string>::failure(
          "", "has a character that is not base64 at offset " + std::to_string(k));
    bits = (bits << 6) | static_cast<unsigned>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xff));
    }
  }
  return out;
}

Expected<GreyImage> decodeGreyPng(const std::string& bytes, long maxPixels) {
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int size = static_cast<int>(bytes.size());
  int w = 0, h = 0, channels = 0;
  if (bytes.size() > (1u << 30) || !stbi_info_from_memory(data, size, &w, &h, &channels))
    return Expected<GreyImage>::failure("", "is not a PNG image stb_image can read");
  if (channels > 2)
    return Expected<GreyImage>::failure(
        "", "is a colour image (" + std::to_string(channels) +
                " channels); a heightmap is a grey image, 8 or 16 bits per sample");
  if (static_cast<long>(w) * h > maxPixels)
    return Expected<GreyImage>::failure("", "has " + std::to_string(w) + " × " + std::to_string(h) +
                                                " pixels, more than " + std::to_string(maxPixels));
  GreyImage image;
  image.width = w, image.height = h;
  image.bits = stbi_is_16_bit_from_memory(data, size) ? 16 : 8;
  const size_t n = static_cast<size_t>(w) * h;
  image.values.resize(n);
  // One grey channel of 16- or 8-bit samples, widened to 16 bits.
  const auto copy = [&](auto* px) {
    if (!px) return false;
    for (size_t k = 0; k < n; ++k) image.values[k] = px[k];
    stbi_image_free(px);
    return true;
  };
  int cw = 0, ch = 0, cc = 0;
  const bool decoded = image.bits == 16
                           ? copy(stbi_load_16_from_memory(data, size, &cw, &ch, &cc, 1))
                           : copy(stbi_load_from_memory(data, size, &cw, &ch, &cc, 1));
  if (!decoded)
    return Expected<GreyImage>::failure(
        "", std::string("is damaged or truncated: stb_image cannot decode it (") +
                stbi_failure_reason() + ")");
  return image;
}

}  // namespace roverlab
