import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServer, stopAllServers } from '../helpers/server-process';
import { sendSmtp } from '../helpers/smtp-client';

/** Whether anything listens on 127.0.0.1:port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

// The real server (`npm start`): MAIL_INBOUND_PORT starts the reply listener with it, the start-up
// text says where, and SIGTERM closes it with everything else, the process exiting 0.
describe('the e-mail reply listener in the server process', () => {
  afterAll(() => stopAllServers());

  it('starts with MAIL_INBOUND_PORT, refuses an unknown reply address at RCPT, and stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-mail-in-'));
    try {
      const mailPort = await freePort();
      const server = await startServer({
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'info',
        MAIL_INBOUND_PORT: String(mailPort),
        MAIL_REPLY_DOMAIN: 'replies.example.com',
      });
      expect(server.output()).toContain(`Replies by e-mail: SMTP on 127.0.0.1:${mailPort} for reply+...@replies.example.com`);
      const sent = await sendSmtp(mailPort, {
        from: 'someone@example.net',
        to: [`reply+${'a'.repeat(32)}@replies.example.com`],
        raw: 'Subject: hi\r\n\r\nhello\r\n',
      });
      expect(sent.mailFrom.code).toBe(250);
      expect(sent.rcpt).toEqual([{ code: 550, text: '5.1.1 No such recipient here' }]);
      await server.stop();
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(await listening(mailPort)).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
