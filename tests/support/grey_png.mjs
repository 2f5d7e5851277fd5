// Grey PNG images for tests: heightmaps to import, to embed and to share.
import { deflateSync } from 'node:zlib';

import { greyPngFile } from '../../web/src/common/png_file.js';

/**
 * A grey PNG (a Buffer) of w × h pixels, value(i, j) per pixel (row 0 the top): 0…255 at
 * `bits` 8, 0…65535 at 16.
 */
export function greyPng(w, h, value, { bits = 8 } = {}) {
  const bytes = bits / 8;
  const stride = 1 + w * bytes;  // a filter byte (0: none) before each row
  const raw = Buffer.alloc(h * stride);
  for (let j = 0; j < h; j++)
    for (let i = 0; i < w; i++) {
      const at = j * stride + 1 + i * bytes;
      if (bytes === 2) raw.writeUInt16BE(value(i, j), at);
      else raw[at] = value(i, j);
    }
  return Buffer.from(greyPngFile({ width: w, height: h, bits }, deflateSync(raw)));
}
