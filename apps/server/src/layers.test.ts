import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/**
 * The server's layers and the ban on import cycles are lint rules (eslint.config.js,
 * docs/architecture.md#who-may-import-whom). `npm run lint` keeps the tree clean; this shows that
 * the rules bite: an upward import and a cycle, linted as if they were files of the tree.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
// The files below are not on disk, so TypeScript's project knows nothing of them: the type-aware rules stay off.
const eslint = new ESLint({ cwd: ROOT, overrideConfig: tseslint.configs.disableTypeChecked });

async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('server layers', () => {
  it('refuses an import upward: messaging reaching into services', async () => {
    const found = await problems(
      'apps/server/src/messaging/upward.ts',
      "import { getLoopAccess } from '../services/loop-access';\nexport const access = getLoopAccess;\n",
    );
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*messaging may import only media, storage/)]);
  });

  it('refuses the paper edition reaching into services or routes (decision 0069)', async () => {
    for (const upper of ['../services/loop-access', '../routes/newsletters/visibility']) {
      const found = await problems('apps/server/src/paper/upward.ts', `import * as upper from '${upper}';\nexport const x = upper;\n`);
      expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*paper may import only publishing, media/)]);
    }
  });

  it('refuses services importing routes, plugins, jobs or scheduling', async () => {
    for (const upper of [
      '../../routes/api/loops/index',
      '../../plugins/session',
      '../../jobs/boss',
      '../../scheduling/run-scheduler-tick',
    ]) {
      const found = await problems(
        'apps/server/src/services/loops/upward.ts',
        `import * as upper from '${upper}';\nexport const x = upper;\n`,
      );
      expect(found, upper).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*services may import only/)]);
    }
  });

  it('lets a layer import the ones below it', async () => {
    const found = await problems(
      'apps/server/src/services/loops/downward.ts',
      "import { insertOutbound } from '../../messaging/outbox';\nimport { AppError } from '../../errors';\nexport const x = [insertOutbound, AppError];\n",
    );
    expect(found).toEqual([]);
  });

  it('refuses an import cycle', async () => {
    // quote.ts imports text-limits.ts: text-limits importing quote closes a loop.
    const found = await problems(
      'apps/server/src/messaging/text-limits.ts',
      "import { quoted } from './quote';\nexport const TEXT_MAX_CHARS = 1600;\nexport const q = quoted;\n",
    );
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-cycle: Dependency cycle/)]);
  });
});
