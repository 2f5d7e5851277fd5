// Citations: the project cites its source papers by the keys of the table in
// docs/references.md ("[GKS2025] eq. 6"), never by the numbers of the folders
// they were once kept in, and never by a path outside the repository. Checks,
// in every text file under core/, web/src/ (not the generated web/src/wasm),
// tests/, terrains/, scripts/, docs/ and in README.md:
//   - no seed or paper number ("seed" or "seeds" followed by a three-digit
//     number from 0, also split over two comment lines; "paper" followed by
//     000-004) and no path into a shared seeds folder;
//   - every key written like [GKS2025] is a row of the table in
//     docs/references.md (a line starting with "| [KEY] |").
// A failure lists each offending place as "file:line: text".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

import { root } from './support.mjs';

const SELF = fileURLToPath(import.meta.url);
const DIRS = ['core', 'web/src', 'tests', 'terrains', 'scripts', 'docs'];
const FILES = ['README.md'];
const SKIP = [path.join(root, 'web/src/wasm')];

/** Old ways of citing a paper, each matched on one line. */
const OLD_CITATIONS = [/\bseeds? ?0\d\d\b/i, /shared\/seeds/, /\bpapers? 00[0-4]\b/i];
/** A citation key as written in the text. */
const KEY = /\[([A-Z]{2,}\d{4})\]/g;

function walk(dir) {
  if (SKIP.includes(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return entry.isFile() ? [full] : [];
  });
}

/** The text files checked, as [path relative to the root, lines]; binary files (a NUL byte) are left out. */
function textFiles() {
  const files = [...DIRS.flatMap((d) => walk(path.join(root, d))), ...FILES.map((f) => path.join(root, f))];
  return files
    .filter((f) => f !== SELF && statSync(f).isFile())
    .map((f) => [f, readFileSync(f)])
    .filter(([, bytes]) => !bytes.includes(0))
    .map(([f, bytes]) => [path.relative(root, f).split(path.sep).join('/'), bytes.toString('utf8').split(/\r?\n/)]);
}

/** "file:line: text" of a place; a long line is cut to a window around `at` (the offending text). */
function place(file, index, line, at = 0) {
  let text = line.trim();
  if (text.length > 160) {
    const start = Math.max(0, at - (line.length - line.trimStart().length) - 60);
    text = `${start > 0 ? '...' : ''}${text.slice(start, start + 160)}${start + 160 < text.length ? '...' : ''}`;
  }
  return `${file}:${index + 1}: ${text}`;
}

/** A line's text after comment markers (//, ///, *, #) and blanks. */
function afterCommentMarker(line) {
  return line.replace(/^\s*(\/\/+|\*|#)?\s*/, '');
}

/** The keys defined by the table of docs/references.md. */
function definedKeys() {
  const table = readFileSync(path.join(root, 'docs/references.md'), 'utf8');
  return new Set([...table.matchAll(/^\| \[([A-Z]{2,}\d{4})\] \|/gm)].map((m) => m[1]));
}

const files = textFiles();

describe('citations by key (docs/references.md)', () => {
  test('the files to check are found', () => {
    const names = files.map(([f]) => f);
    expect(names).toContain('README.md');
    expect(names).toContain('docs/references.md');
    for (const dir of DIRS) expect(names.some((f) => f.startsWith(`${dir}/`)), dir).toBe(true);
    expect(names.some((f) => f.startsWith('web/src/wasm/'))).toBe(false);
  });

  test('docs/references.md defines the keys of the four papers', () => {
    expect([...definedKeys()]).toEqual(expect.arrayContaining(['GKS2025', 'SP2017', 'KJ2025', 'BSTU2019']));
  });

  test('no file cites a paper by a seed or paper number, or by a path to the seeds folder', () => {
    const hits = [];
    for (const [file, lines] of files) {
      lines.forEach((line, i) => {
        const found = OLD_CITATIONS.map((re) => line.search(re)).filter((at) => at >= 0);
        if (found.length) {
          hits.push(place(file, i, line, Math.min(...found)));
        } else if (/\bseeds?$/i.test(line.trimEnd()) && i + 1 < lines.length && /^0\d\d\b/.test(afterCommentMarker(lines[i + 1]))) {
          // A citation split over two lines ("... (seed" / "// 002's ...").
          hits.push(place(file, i, `${line.trim()} / ${lines[i + 1].trim()}`));
        }
      });
    }
    expect(hits, `${hits.length} place(s) cite a paper by number; use the keys of docs/references.md`).toEqual([]);
  });

  test('every citation key is a row of the table in docs/references.md', () => {
    const keys = definedKeys();
    const unknown = [];
    for (const [file, lines] of files) {
      lines.forEach((line, i) => {
        for (const m of line.matchAll(KEY)) {
          if (!keys.has(m[1])) unknown.push(`${place(file, i, line, m.index)} (unknown key [${m[1]}])`);
        }
      });
    }
    expect(unknown, `keys missing from docs/references.md: ${[...new Set(unknown.map((u) => u.match(/unknown key \[(\w+)\]/)[1]))].join(', ')}`).toEqual([]);
  });
});
