import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, configDefaults, envFileProblems, loadConfig, loadEnvFile } from './config';

const example = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../.env.example'), 'utf8');
const base = { SESSION_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/loop-config-test' };

/** `# NAME=value` lines of .env.example, in order. */
function exampleVariables(): [string, string][] {
  return [...example.matchAll(/^# ([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1] as string, m[2] as string]);
}

describe('.env.example', () => {
  it('lists every variable config.ts reads, and no other', () => {
    const listed = exampleVariables().map(([name]) => name);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it("shows each variable's default (empty where there is none)", () => {
    const defaults = configDefaults() as Record<string, unknown>;
    for (const [name, value] of exampleVariables()) {
      const fallback = defaults[name];
      if (fallback === undefined) {
        expect(value, `${name} has no default: its line should end at "="`).toBe('');
      } else if (!(value === '' && typeof fallback === 'object')) {
        // (An empty list or map is shown as an empty value.)
        const parsed = loadConfig({ ...base, [name]: value }) as unknown as Record<string, unknown>;
        expect(parsed[name], `${name}=${value} in .env.example`).toEqual(fallback);
      }
    }
  });

  it('is a valid .env file: copied as it is, it changes nothing', () => {
    expect(envFileProblems(example)).toEqual([]);
  });
});

describe('.env lines', () => {
  it('accepts comments, blank lines, export, quotes and multi-line quoted values', () => {
    expect(envFileProblems('# c\n\nA=1\nexport B = "two words"\nC=\'x\'\nD="line one\nline two"\nE=`a`\r\nF=x # note\n')).toEqual([]);
  });

  it('names a line that is not NAME=value, without showing its value', () => {
    expect(envFileProblems('PORT=3000\nTWILIO_AUTH_TOKEN secret-value\n=x\n')).toEqual([
      'line 2: not NAME=value (TWILIO_AUTH_TOKEN has no "="); write it as NAME=value, or start it with # to keep it as a comment',
      'line 3: not NAME=value; write it as NAME=value, or start it with # to keep it as a comment',
    ]);
  });

  it('names a quoted value that never closes', () => {
    expect(envFileProblems('A=1\nB="open\nC=2\n')).toEqual([`line 2: the value's opening " is never closed`]);
  });
});

describe('loadEnvFile', () => {
  let dir: string | undefined;
  const names = ['LOOP_ENV_TEST_A', 'LOOP_ENV_TEST_B', 'LOOP_ENV_TEST_C'];
  afterEach(() => {
    for (const name of names) delete process.env[name];
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("reads .env from the folder; the environment's own variables win", () => {
    dir = mkdtempSync(path.join(tmpdir(), 'loop-env-'));
    writeFileSync(path.join(dir, '.env'), 'LOOP_ENV_TEST_A=from-file\nLOOP_ENV_TEST_B="from file"\n# LOOP_ENV_TEST_C=commented\n');
    process.env.LOOP_ENV_TEST_A = 'from-environment';
    expect(loadEnvFile(dir)).toBe(path.join(dir, '.env'));
    expect(process.env.LOOP_ENV_TEST_A).toBe('from-environment');
    expect(process.env.LOOP_ENV_TEST_B).toBe('from file');
    expect(process.env.LOOP_ENV_TEST_C).toBeUndefined();
  });

  it('does nothing without a .env', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'loop-env-'));
    expect(loadEnvFile(dir)).toBeUndefined();
  });

  it('stops at a bad line, naming the file and the line, and reads nothing from it', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'loop-env-'));
    writeFileSync(path.join(dir, '.env'), 'LOOP_ENV_TEST_A=1\nLOOP_ENV_TEST_B: 2\n');
    expect(() => loadEnvFile(dir)).toThrow(ConfigError);
    expect(() => loadEnvFile(dir)).toThrow(`${path.join(dir, '.env')} line 2: not NAME=value (LOOP_ENV_TEST_B has no "=")`);
    expect(process.env.LOOP_ENV_TEST_A).toBeUndefined();
  });
});

describe('metrics and request log settings', () => {
  it('turns metrics on with a token, and asks for one when METRICS=true', () => {
    expect(loadConfig(base).metricsOn).toBe(false);
    expect(loadConfig({ ...base, METRICS_TOKEN: 't'.repeat(16) }).metricsOn).toBe(true);
    expect(loadConfig({ ...base, METRICS_TOKEN: 't'.repeat(16), METRICS: 'false' }).metricsOn).toBe(false);
    expect(() => loadConfig({ ...base, METRICS: 'true' })).toThrow(
      'METRICS_TOKEN: METRICS=true needs METRICS_TOKEN, the Bearer token (16+ characters) Prometheus sends to GET /metrics',
    );
    expect(() => loadConfig({ ...base, METRICS_TOKEN: 'short' })).toThrow(
      'METRICS_TOKEN: METRICS_TOKEN must be at least 16 characters (got "***")',
    );
  });

  it('logs requests except in production, unless LOG_REQUESTS says otherwise', () => {
    expect(loadConfig(base).logRequests).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).logRequests).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'production', LOG_REQUESTS: 'true' }).logRequests).toBe(true);
    expect(() => loadConfig({ ...base, LOG_REQUESTS: 'yes' })).toThrow('LOG_REQUESTS: LOG_REQUESTS must be "true" or "false" (got "yes")');
  });
});
