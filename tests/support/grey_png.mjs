// Grey PNG images for tests: heightmaps to import, to embed and to share.
import { crc32, deflateSync } from 'node:zlib';

/**
 * A grey PNG (a Buffer) of w × h pixels, value(i, j) per pixel (row 0 the top): 0…255 at
 * `bits` 8, 0…65535 at 16.
 */
export function greyPng(w, h, value, { bits = 8 } = {}) {
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header[8] = bits;  // bits per sample, grey (colour type 0), the rest 0
  const bytes = bits / 8;
  const stride = 1 + w * bytes;  // a filter byte (0: none) before each row
  const raw = Buffer.alloc(h * stride);
  for (let j = 0; j < h; j++)
    for (let i = 0; i < w; i++) {
      const at = j * stride + 1 + i * bytes;
      if (bytes === 2) raw.writeUInt16BE(value(i, j), at);
      else raw[at] = value(i, j);
    }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
