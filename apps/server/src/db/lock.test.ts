import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './lock';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'loop-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('lockDataDir', () => {
  it('refuses a second holder with a clear message, and frees the directory on release', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(`The data directory ${dir} is already in use by another Loop process (pid ${process.pid}).`);
    release();
    lockDataDir(dir)();
  });

  it('takes over a lock left by a process that is gone', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'loop.lock'), '999999999');
    const release = lockDataDir(dir);
    expect(readFileSync(path.join(dir, 'loop.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });
});
