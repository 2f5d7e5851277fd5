// The README as a front door: the command lines of its tour run and exit 0
// (with the native tool, build/native/roverlab), and every relative link in
// README.md, CONTRIBUTING.md and docs/ reaches a file, and with #anchor a
// heading of that file.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { root } from './support.mjs';

const cli = path.join(root, 'build/native/roverlab');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** The fenced code blocks of a Markdown text, as arrays of lines. */
function fencedBlocks(markdown) {
  const blocks = [];
  let block = null;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      if (block) blocks.push(block);
      block = block ? null : [];
    } else if (block) {
      block.push(line);
    }
  }
  return blocks;
}

/** Shell words of one command line: spaces split, single and double quotes group, `#` starts a comment. */
function shellWords(line) {
  const words = [];
  let word = null;
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === '#' && word === null) {
      break;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote) throw new Error(`unclosed quote in: ${line}`);
  if (word !== null) words.push(word);
  return words;
}

/** The README's command lines for the CLI: lines of a fenced block that start with `roverlab ` or
 * `build/native/roverlab`, a trailing `\` joining the next line; each as its shell words. */
export function tourCommands(markdown) {
  const commands = [];
  for (const block of fencedBlocks(markdown)) {
    for (let i = 0; i < block.length; i++) {
      let line = block[i].trim();
      if (!/^(roverlab |build\/native\/roverlab(\s|$))/.test(line)) continue;
      while (line.endsWith('\\') && i + 1 < block.length) line = `${line.slice(0, -1)} ${block[++i].trim()}`;
      commands.push(shellWords(line));
    }
  }
  return commands;
}

/** The arguments to run a tour command with: output files (`--csv FILE`) in `outDir`, input paths
 * that name a file of the repository made absolute (the command runs with `outDir` as its cwd). */
function runnableArgs(words, outDir) {
  return words.slice(1).map((word, k, args) => {
    if (k > 0 && (args[k - 1] === '--csv' || args[k - 1] === '--out')) return path.join(outDir, path.basename(word));
    if (!word.startsWith('-') && !path.isAbsolute(word) && existsSync(path.join(root, word))) return path.join(root, word);
    return word;
  });
}

describe("the README's tour of the command line", () => {
  const commands = tourCommands(readme);
  let tmp;
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build it with scripts/build-native.sh`);
    tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-readme-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  test('has 3 to 6 command lines, each naming the tool', () => {
    expect(commands.length).toBeGreaterThanOrEqual(3);
    expect(commands.length).toBeLessThanOrEqual(6);
    for (const words of commands) expect(['roverlab', 'build/native/roverlab']).toContain(words[0]);
  });

  test.each(commands.map((words) => [words.join(' '), words]))('%s exits 0', (_, words) => {
    const args = runnableArgs(words, tmp);
    const r = spawnSync(cli, args, { cwd: tmp, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, `${words.join(' ')}\nstdout: ${r.stdout?.slice(0, 2000)}\nstderr: ${r.stderr?.slice(0, 2000)}`).toBe(0);
    if (words[1] === 'run') {
      const summary = JSON.parse(r.stdout);
      expect(summary.ok).toBe(true);
      const csv = args[args.indexOf('--csv') + 1];
      if (args.includes('--csv')) expect(readFileSync(csv, 'utf8').split('\n')[0]).toMatch(/^time_s,/);
    }
    if (words[1] === 'study') {
      // A threshold study: its answers in --out, one row per combination, each found or saying why not.
      const out = readFileSync(args[args.indexOf('--out') + 1], 'utf8').trim().split('\n');
      expect(out[0]).toContain(',found,threshold,lower,upper,');
      expect(out.length).toBeGreaterThan(1);
    }
  }, 60_000);

  test('the shell words of a command line', () => {
    expect(shellWords("roverlab run a.json --set 'name=\"x y\"' --csv run.csv   # comment")).toEqual([
      'roverlab', 'run', 'a.json', '--set', 'name="x y"', '--csv', 'run.csv',
    ]);
    expect(tourCommands('```sh\nbuild/native/roverlab run a.json \\\n    --duration 2\nnpm test\n```\n')).toEqual([
      ['build/native/roverlab', 'run', 'a.json', '--duration', '2'],
    ]);
  });
});

/** The Markdown files whose links are checked: README.md, CONTRIBUTING.md and every .md under docs/. */
function markdownFiles() {
  const files = ['README.md', 'CONTRIBUTING.md'];
  const walk = (dir) => {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      const rel = path.posix.join(dir, name);
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.md')) files.push(rel);
    }
  };
  walk('docs');
  return files;
}

/** The text outside fenced code blocks and inline code spans. */
function prose(markdown) {
  return markdown
    .split(/^\s*```.*$/m)
    .filter((_, k) => k % 2 === 0)
    .join('\n')
    .replace(/(`+)[^`]*?\1/g, '');
}

/** GitHub's anchor of a heading: the text as shown (no code marks, emphasis or link targets), lower
 * case, without punctuation but `-` and `_`, spaces as `-`; a repeated one gets -1, -2, .... */
export function headingAnchors(markdown) {
  const anchors = new Set();
  const seen = new Map();
  const withoutCode = markdown.split(/^\s*```.*$/m).filter((_, k) => k % 2 === 0).join('\n');
  for (const [, heading] of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  return anchors;
}

describe('links in README.md, CONTRIBUTING.md and docs/', () => {
  test.each(markdownFiles())('%s: every relative link reaches a file and its anchor', (file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    const broken = [];
    let links = 0;
    for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;  // https:, mailto:
      links += 1;
      const [linkPath, anchor] = target.split('#');
      const resolved = linkPath ? path.resolve(path.dirname(path.join(root, file)), decodeURI(linkPath)) : path.join(root, file);
      if (!existsSync(resolved)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) {
        broken.push(`${target}: no heading with that anchor`);
      }
    }
    expect(broken).toEqual([]);
    if (file === 'README.md') expect(links).toBeGreaterThan(10);
  });

  test('the README is a front page: at most about 120 lines, its picture present', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(125);
    const [, image] = /!\[[^\]]*\]\(([^)]+)\)/.exec(readme) ?? [];
    expect(image).toMatch(/^docs\/images\/app\.(png|jpg)$/);
    expect(statSync(path.join(root, image)).size).toBeLessThan(400 * 1024);
  });

  test('GitHub anchors of headings', () => {
    const anchors = headingAnchors('# A b\n## The union law (`core/contact/union_law.h`)\n```\n# not a heading\n```\n## `body-contact.json`: what body contact costs\n## A b\n');
    expect([...anchors]).toEqual(['a-b', 'the-union-law-corecontactunion_lawh', 'body-contactjson-what-body-contact-costs', 'a-b-1']);
  });
});
