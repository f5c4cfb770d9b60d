import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, stopAllServers } from './helpers/server-process';

// What `npm start` prints is read by a person: one block, no JSON log line inside it, and it says
// plainly when voice memos and videos are off for want of ffmpeg.
describe('the start-up text', () => {
  afterAll(() => stopAllServers());

  async function startUpText(env: Record<string, string>): Promise<string> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-start-'));
    try {
      const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info', ...env });
      await server.stop();
      return server.output();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  it('is one readable block, with no JSON log line before or inside it and no ffmpeg warning where ffmpeg is', async () => {
    const output = await startUpText({});
    const block = output.slice(0, output.indexOf('Where to go first'));
    expect(block).toContain('Loop is running at');
    expect(block).not.toMatch(/^\{"level"/m);
    expect(output).not.toContain('Server listening at');
    expect(output).not.toContain('Voice memos and videos are off');
    // Without SMTP_URL the e-mail edition stops in the Mail Simulator (decision 0047): say where.
    expect(output).toMatch(/\/simulator\/mail +the Mail Simulator: every e-mail Loop would have sent/);
  }, 180_000);

  it('says voice memos and videos are off on a machine without ffmpeg', async () => {
    const without = await startUpText({ FFMPEG_PATH: path.join(tmpdir(), 'no-such-folder', 'ffmpeg') });
    expect(without).toMatch(/Voice memos and videos are off: this machine has no ffmpeg/);
    expect(without).toContain('apt-get install -y ffmpeg');
  }, 180_000);
});
