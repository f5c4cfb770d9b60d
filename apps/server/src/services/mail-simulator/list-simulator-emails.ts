import { and, desc, eq } from 'drizzle-orm';
import type { SimulatorEmail } from '@loop/shared/simulator';
import type { Db } from '../../db/client';
import { messages } from '../../db/schema';
import { emailsVisibleTo, type SimulatorViewer } from '../simulator-access';

const MAX_EMAILS = 200;

/**
 * The last e-mails Loop sent and received that the viewer may read (services/simulator-access.ts),
 * newest first, as the Mail Simulator shows them: rows of `messages` with channel 'email'.
 */
export async function listSimulatorEmails(db: Db, viewer: SimulatorViewer, options: { mailFrom: string }): Promise<SimulatorEmail[]> {
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.channel, 'email'), emailsVisibleTo(db, viewer)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(MAX_EMAILS);
  return rows.map((row) => {
    const raw: Record<string, unknown> = row.raw ?? {};
    return {
      id: row.id,
      direction: row.direction,
      // A queued e-mail gets its From when it is sent: MAIL_FROM's.
      from: row.fromAddress || options.mailFrom,
      to: row.toAddress,
      subject: typeof raw.subject === 'string' ? raw.subject : '',
      date: (row.sentAt ?? row.createdAt).toISOString(),
      status: row.status,
      kind: row.kind,
      headers: headersOf(raw),
      text: row.body,
      // The outbox keeps '' for an e-mail without an HTML part.
      html: typeof raw.html === 'string' && raw.html !== '' ? raw.html : null,
    };
  });
}

/**
 * An outbound e-mail keeps its header lines as a JSON string (raw.headers); an inbound one keeps
 * its Message-ID and what its authentication checks said.
 */
function headersOf(raw: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (typeof raw.headers === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw.headers);
      if (parsed && typeof parsed === 'object') {
        for (const [name, value] of Object.entries(parsed)) {
          if (typeof value === 'string') headers[name] = value;
          else if (Array.isArray(value)) headers[name] = value.join(', ');
        }
      }
    } catch {
      // A row written by hand or by an older Loop: shown without headers.
    }
  }
  if (typeof raw.messageId === 'string') headers['Message-ID'] ??= raw.messageId;
  if (typeof raw.auth === 'string') headers['Authentication-Results'] ??= raw.auth;
  return headers;
}
