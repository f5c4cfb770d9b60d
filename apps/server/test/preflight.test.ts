import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// `npm test` checks what the tests need before running them (npm's pretest): Node, then ffmpeg.
describe("npm test's check for ffmpeg", () => {
  const check = (PATH: string) =>
    spawnSync(process.execPath, ['scripts/check-ffmpeg.mjs'], { cwd: root, env: { ...process.env, PATH }, encoding: 'utf8' });

  it('runs before the tests', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.pretest).toContain('scripts/check-ffmpeg.mjs');
  });

  it('stops with what to install when ffmpeg is not on PATH', () => {
    const result = check(path.join(root, 'no-such-folder'));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('The tests need ffmpeg and ffprobe on PATH; this machine has no ffmpeg or ffprobe.');
    expect(result.stderr).toContain('sudo apt-get install -y ffmpeg');
    expect(result.stderr).toContain('brew install ffmpeg');
  });

  it('passes quietly where ffmpeg is installed', () => {
    const result = check(process.env.PATH ?? '');
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });
});
