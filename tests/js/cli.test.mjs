// The native command-line tool (build/native/roverlab): validate, run with
// overrides and CSV telemetry, and its exit statuses.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(root, 'build/native/roverlab');
const terrains = path.join(root, 'terrains');
let tmp;

function roverlab(...args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build it with scripts/build-native.sh`);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-cli-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('validate', () => {
  const files = readdirSync(terrains).filter((f) => f.endsWith('.json'));

  test('every scenario in terrains/ is valid', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const f of files) {
      const r = roverlab('validate', path.join(terrains, f));
      expect(r.status, `${f}: ${r.stdout}`).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ ok: true, warnings: [] });
    }
  });

  test('an unknown version names the versions understood', () => {
    const doc = JSON.parse(readFileSync(path.join(terrains, 'flat-wheel-rig.json'), 'utf8'));
    doc.version = 7;
    const file = path.join(tmp, 'v7.json');
    writeFileSync(file, JSON.stringify(doc));
    const r = roverlab('validate', file);
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.ok).toBe(false);
    expect(out.issues).toEqual([
      { path: 'version', message: 'unsupported scenario version 7; this build reads version 1' },
    ]);
  });

  test('--set reaches the validator and every problem is listed with its path', () => {
    const r = roverlab(
      'validate',
      path.join(terrains, 'step-articulated6.json'),
      '--set', 'robot.params.wheel_radius=-1',
      '--set', 'terrain.boxes[1].size[2]=-3',
      '--set', 'simulation.slip="sideways"',
    );
    expect(r.status).toBe(1);
    const paths = JSON.parse(r.stdout).issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining(['terrain.boxes[1].size[2]', 'simulation.slip', 'robot.params.wheel_radius']),
    );
  });

  test('a wheel starting inside the ground is refused', () => {
    const at = (z) => {
      const r = roverlab('validate', path.join(terrains, 'flat-wheel-rig.json'), '--set', `robot.pose.position=[0,0,${z}]`);
      expect(r.status).toBe(1);
      const [issue] = JSON.parse(r.stdout).issues;
      expect(issue.path).toBe('robot.pose.position');
      return issue.message;
    };
    expect(at(-0.05)).toMatch(/wheel 'wheel' starts with its centre inside terrain piece 0 \(0.05 m deep\)/);
    expect(at(0.05)).toMatch(/wheel 'wheel' starts pressed 0.14 m into terrain piece 0/);
  });

  test('malformed JSON and usage errors', () => {
    const file = path.join(tmp, 'broken.json');
    writeFileSync(file, '{"format": "roverlab-scenario", "version": 1,');
    const r = roverlab('validate', file);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).issues[0].message).toMatch(/^not valid JSON/);
    expect(roverlab('validate').status).toBe(2);
    expect(roverlab('fly', file).status).toBe(2);
    expect(roverlab('run', file, '--dt').status).toBe(2);
    expect(roverlab('run', path.join(tmp, 'missing.json')).status).toBe(2);
  });
});

describe('run', () => {
  test('summary and CSV telemetry', () => {
    const csv = path.join(tmp, 'rig.csv');
    const r = roverlab('run', path.join(terrains, 'flat-wheel-rig.json'), '--duration', '1', '--csv', csv);
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.ok).toBe(true);
    expect(summary.steps).toBe(2500);  // 1 s at 0.4 ms
    expect(summary.time_s).toBeCloseTo(1, 9);
    expect(summary.base.position_m[0]).toBeGreaterThan(0.3);  // 3 rad/s × 0.19 m for ~1 s, from rest
    expect(summary.wheels).toHaveLength(1);
    expect(summary.wheels[0].in_contact).toBe(true);
    expect(summary.steps_per_s).toBeGreaterThan(0);
    expect(summary.real_time_factor).toBeGreaterThan(0);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    const header = lines[0].split(',');
    expect(header).toEqual(
      expect.arrayContaining(['time_s', 'base_x_m', 'base_z_m', 'base_pitch_rad', 'wheel_x_m', 'wheel_z_m',
        'wheel_contacts', 'wheel_normal_N', 'wheel_tangential_N', 'wheel_slip']),
    );
    expect(lines.length - 1).toBe(101);  // a row at t = 0, then 100 samples per simulated second by default
    const first = lines[1].split(',').map(Number);
    expect(first[header.indexOf('time_s')]).toBe(0);
    expect(first[header.indexOf('base_x_m')]).toBe(0);  // the scenario's start pose
    const last = lines.at(-1).split(',').map(Number);
    expect(last[header.indexOf('time_s')]).toBeCloseTo(1, 9);
    expect(last[header.indexOf('wheel_normal_N')]).toBeCloseTo(55 * 9.81, -1);  // carries the rig's weight
  });

  test('a step too large for the tire stiffness is refused before it can blow up', () => {
    const r = roverlab('run', path.join(terrains, 'flat-wheel-rig.json'), '--set', 'robot.params.tire_stiffness=1e8',
      '--dt', '0.01');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).issues[0].path).toBe('simulation.dt');
  });

  test('a tire damping the step cannot resolve is refused at its parameter, with the bound', () => {
    // Once: rocker8 launched to z = 1502 m in 0.5 s and the summary said ok.
    const r = roverlab('run', path.join(terrains, 'flat-rocker8.json'), '--set', 'robot.params.tire_damping=1e6');
    expect(r.status).toBe(1);
    const [issue] = JSON.parse(r.stdout).issues;
    expect(issue.path).toBe('robot.params.tire_damping');
    expect(issue.message).toMatch(/^too large for the step of 0.0004 s: .* at this step use at most [0-9.e+]+ N·s\/m$/);
  });

  test('a robot that falls off the terrain ends the run: exit 4, ok false, outcome left_terrain', () => {
    // Once: 120 s of depression-rocker8 ended at z = -43 km with ok: true.
    const r = roverlab('run', path.join(terrains, 'depression-rocker8.json'), '--duration', '120');
    expect(r.status).toBe(4);
    const summary = JSON.parse(r.stdout);
    expect(summary.ok).toBe(false);
    expect(summary.outcome).toBe('left_terrain');
    expect(summary.error).toMatch(/^left the terrain at t = \d+\.\d{4} s: /);
    expect(summary.time_s).toBeLessThan(40);  // the quads end at x = 8.4 m
    expect(summary.base.position_m[2]).toBeGreaterThan(-5);
    // It tipped over the edge nose first: upside down (pitch −117°) when it fell clear,
    // though not yet flipped over (tilted more than 120°) at a sampled time.
    expect(summary.base.upside_down).toBe(true);
    expect(summary.flipped).toBe(false);
    expect(r.stderr).toMatch(/^roverlab: left the terrain at t = /m);
  });

  test('a step far above the default runs with a warning in the summary and on stderr', () => {
    // A wheel rig soft enough for a 10 ms step (heavy wheel, soft tire and tread).
    const soft = ['wheel_inertia=1', 'tire_stiffness=1e5', 'tread_stiffness=4e4', 'tread_damping=1500']
      .flatMap((s) => ['--set', `robot.params.${s}`]);
    const r = roverlab('run', path.join(terrains, 'flat-wheel-rig.json'), '--dt', '0.01', '--duration', '1', ...soft);
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.ok).toBe(true);
    expect(summary.outcome).toBe('ok');
    expect(summary.warnings).toHaveLength(1);
    expect(summary.warnings[0].path).toBe('simulation.dt');
    expect(summary.warnings[0].message).toMatch(/25× the default step of 0.0004 s/);
    expect(r.stderr).toMatch(/^roverlab: warning: simulation.dt: /m);
    const validated = JSON.parse(roverlab('validate', path.join(terrains, 'flat-wheel-rig.json'), '--dt', '0.01', ...soft).stdout);
    expect(validated.warnings).toEqual(summary.warnings);
  });

  test('summary: tilt angles, the flip flag and the outcome of a good run', () => {
    const r = roverlab('run', path.join(terrains, 'flat-rocker8.json'), '--duration', '1');
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ ok: true, outcome: 'ok', flipped: false, flipped_at_s: null, warnings: [] });
    expect(summary.base.upside_down).toBe(false);
    expect(Math.abs(summary.base.pitch_rad)).toBeLessThan(0.05);
  });
});

describe('presets', () => {
  test('every preset with its parameters; a parameter\'s default is its value', () => {
    const r = roverlab('presets');
    expect(r.status).toBe(0);
    const presets = JSON.parse(r.stdout);
    expect(presets.map((p) => p.preset)).toContain('articulated6');
    const radius = presets.find((p) => p.preset === 'articulated6').params.find((p) => p.name === 'wheel_radius');
    expect(radius).toEqual({ name: 'wheel_radius', value: 0.19, min: 0.02, max: 2, unit: 'm', description: 'free wheel radius r' });
  });
});

describe('robot', () => {
  test('a preset with its parameters set, as a description a scenario runs as robot.model', () => {
    const r = roverlab('robot', 'wheel-rig', '--set', 'robot.params.wheel_radius=0.25');
    expect(r.status, r.stderr).toBe(0);
    const model = JSON.parse(r.stdout);
    expect(model.name).toBe('wheel-rig');
    expect(model.wheels).toHaveLength(1);
    expect(model.wheels[0].radius).toBe(0.25);
    const bad = roverlab('robot', 'wheel-rig', '--set', 'robot.params.wheel_radius=-1');
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout).issues[0].path).toBe('robot.params.wheel_radius');
    expect(roverlab('robot', 'wheel-rig', '--set', 'terrain.boxes=[]').status).toBe(2);
  });

  test('a URDF robot as a description, what was not used on stderr with its lines', () => {
    const r = roverlab('robot', path.join(root, 'tests/data/robots/husky/husky.urdf'));
    expect(r.status, r.stderr).toBe(0);
    const model = JSON.parse(r.stdout);
    expect(model.wheels).toHaveLength(4);
    expect(r.stderr).toMatch(/warning: robot\.file: lines [0-9, ]+.*<gazebo> not used/);
  });
});

describe('hostile use', () => {
  const flat = () => path.join(terrains, 'flat-wheel-rig.json');

  test('a file named in a scenario stays inside the scenario\'s folder', () => {
    const scenario = JSON.parse(readFileSync(flat(), 'utf8'));
    for (const name of ['../husky.urdf', '/etc/passwd.urdf', 'a/../../b.urdf', 'file:///etc/x.urdf']) {
      const file = path.join(tmp, 'outside.json');
      writeFileSync(file, JSON.stringify({ ...scenario, robot: { file: name } }));
      const r = roverlab('validate', file);
      expect(r.status, name).toBe(1);
      const issue = JSON.parse(r.stdout).issues[0];
      expect(issue.path).toBe('robot.file');
      expect(issue.message).toMatch(/stays inside the scenario's folder/);
    }
  });

  test('a CSV that cannot be written is exit status 2 with the reason', () => {
    const r = roverlab('run', flat(), '--duration', '0.5', '--csv', '/dev/full');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^roverlab: cannot write \/dev\/full: No space left on device$/m);
  });

  test('--csv-rate outside [0.001, 1e6] is a usage error', () => {
    for (const rate of ['1e-300', '0', '-1', '1e7', 'nan', 'inf']) {
      const r = roverlab('run', flat(), '--csv-rate', rate);
      expect(r.status, rate).toBe(2);
      expect(r.stderr).toMatch(/--csv-rate must be a number of samples per simulated second in \[0.001, 1e6\]/);
    }
  });

  test('bytes that are not UTF-8 and huge indices in --set are issues, not aborts', () => {
    // Raw bytes in an argument: through the shell's $'\xff'.
    const bytes = spawnSync('bash', ['-c', `"$0" validate "$1" --set $'name=\\xff'`, cli, flat()], { encoding: 'utf8' });
    expect(bytes.status).toBe(1);
    expect(JSON.parse(bytes.stdout).issues[0]).toEqual({ path: '--set', message: 'not UTF-8 at byte 5 of the assignment' });
    const huge = roverlab('validate', flat(), '--set', 'terrain.boxes[999999999999]=1');
    expect(huge.status).toBe(1);
    const far = roverlab('validate', flat(), '--set', 'terrain.boxes[99999999]=1');
    expect(far.status).toBe(1);
    expect(JSON.parse(far.stdout).issues[0].message).toMatch(/past the end of an array of \d+/);
  });

  test('a file over the size limit is refused without reading it whole', () => {
    const file = path.join(tmp, 'big.json');
    writeFileSync(file, Buffer.alloc(17 * 1024 * 1024, 0x20));
    const r = roverlab('validate', file);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).issues[0].message).toMatch(/larger than the limit of 16777216 bytes/);
  });

  test('Ctrl-C ends a long run with the summary of what was simulated, status 130', async () => {
    const { spawn } = await import('node:child_process');
    // The wheel stands still: the run would go on for 1e5 simulated seconds.
    const child = spawn(cli, ['run', flat(), '--duration', '1e5', '--set', 'control.wheel_speed=0', '--csv', path.join(tmp, 'long.csv')]);
    const closed = new Promise((resolve) => child.on('close', resolve));
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    await new Promise((resolve) => setTimeout(resolve, 700));
    child.kill('SIGINT');
    const status = await closed;
    expect(status).toBe(130);
    const summary = JSON.parse(stdout);
    expect(summary.steps).toBeGreaterThan(0);
    const rows = readFileSync(path.join(tmp, 'long.csv'), 'utf8').trim().split('\n');
    expect(rows.length).toBeGreaterThan(1);  // the header and the samples taken
  });
});
