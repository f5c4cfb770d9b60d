/**
 * `npm run admin -- sample-texts` prints the texts an operator registers with a 10DLC campaign as
 * sample messages: the real invitation, YES confirmation and HELP answer, with this server's
 * SUPPORT_CONTACT: the campaign's `message_samples`, `opt_in_message` and `help_message`
 * (https://www.twilio.com/docs/messaging/services/api/us-a2p-campaign-resource), worded as CTIA
 * Messaging Principles and Best Practices 5.1.3 asks. Then the WhatsApp templates to submit, with
 * their variables and samples (Twilio Content API, https://www.twilio.com/docs/content/using-variables-with-content-api;
 * decision 0060).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { replies } from '../../src/messaging/replies';
import { WHATSAPP_TEMPLATES } from '../../src/messaging/whatsapp-templates';

const run = promisify(execFile);

describe('npm run admin -- sample-texts', () => {
  it('prints the real invitation, confirmation and HELP texts, without opening the database', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-samples-'));
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', 'sample-texts'], {
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(32), SUPPORT_CONTACT: 'help@loop.example.com' },
        cwd: path.resolve(import.meta.dirname, '../..'),
        timeout: 60_000,
      });
      const invitation = replies.invitation({
        loopName: 'Smith Family',
        adderName: 'Alice Abbot',
        viaLink: false,
        frequency: 'about 3 msgs/wk',
      });
      expect(stdout).toContain(`1 SMS segment:\n${invitation}\n`);
      expect(stdout).toContain(`${replies.joined(['Smith Family'], 'about 3 msgs/wk')}\n`);
      expect(stdout).toContain(`1 SMS segment:\n${replies.help('help@loop.example.com')}\n`);
      // Every WhatsApp template, its body and each variable with its sample.
      for (const [kind, template] of Object.entries(WHATSAPP_TEMPLATES)) {
        expect(stdout).toContain(
          `WhatsApp template ${template.name} (category UTILITY, language en; TWILIO_WHATSAPP_TEMPLATES ${kind}=HX...):\n${template.body}\n`,
        );
        for (const [key, variable] of Object.entries(template.variables))
          expect(stdout).toContain(`{{${key}}}: ${variable.holds}; sample: ${variable.sample}`);
      }
      // No database opened (it may run beside a server that holds the data directory).
      expect(readdirSync(dataDir)).toEqual([]);
      expect(invitation).toMatch(/^Loop: .*Msg & data rates may apply\. Reply YES to join, HELP for help, STOP to opt out\.$/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
