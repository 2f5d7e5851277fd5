// The compiler a native build was made with, from its CMake cache beside the
// executable: its first `--version` line, e.g. "Debian clang version 14.0.6".
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export function nativeCompiler(executable) {
  const cache = fs.readFileSync(path.join(path.dirname(executable), 'CMakeCache.txt'), 'utf8');
  const compiler = /^CMAKE_CXX_COMPILER:[A-Z]+=(.*)$/m.exec(cache)?.[1];
  if (!compiler) throw new Error(`no CMAKE_CXX_COMPILER in the CMake cache beside ${executable}`);
  return execFileSync(compiler, ['--version']).toString().split('\n')[0];
}
