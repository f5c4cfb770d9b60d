// Honest sign-ups during an SMS-pumping attack (decision 0051): the attacker sends sign-up forms
// for numbers in a few prefixes of his own and never types a code in; honest people, each in a
// prefix of their own, send the form and type the code they got. Prints how many honest sign-ups
// got through, how many code texts the attacker got, and when the service started asking for the
// harder proof-of-work. BENCH_ATTACK=n forms (default 150), one honest person every 10.
import { and, desc, eq } from 'drizzle-orm';
import { messages } from '../../apps/server/src/db/schema';
import { codeTextsUnderAttack } from '../../apps/server/src/services/phone-codes/code-text-budget';
import { OFFLINE_TWILIO, startBenchApp } from './bench-app';

const ATTACK = Number(process.env.BENCH_ATTACK ?? 150);
const HOUR_MS = 3_600_000;

export async function honestDuringAttack(): Promise<void> {
  let now = new Date('2026-06-01T12:00:00Z');
  const { app, config, codeTexts, close } = await startBenchApp({ SIGNUP_PROOF_OF_WORK: 'off', ...OFFLINE_TWILIO }, () => now);
  const form = (phoneNumber: string, i: number) => ({
    email: `person-${i}@example.com`,
    password: 'correct horse battery',
    firstName: 'Pat',
    lastName: 'Doe',
    phoneNumber,
  });
  let honest = 0;
  let honestThrough = 0;
  let hardenedAt: number | null = null;
  const refusals = new Map<string, number>();
  try {
    for (let i = 0; i < ATTACK; i++) {
      now = new Date(Date.parse('2026-06-01T12:00:00Z') + Math.floor((i * HOUR_MS) / ATTACK));
      // The attacker: 10 prefixes of his own (+1628 300..309), a new number and address each time.
      const pumped = `+1628${300 + (i % 10)}${String(1000 + i).padStart(4, '0')}`;
      const res = await app.inject({
        method: 'POST',
        url: '/api/register',
        remoteAddress: `198.18.${i % 200}.${(i % 250) + 1}`,
        payload: form(pumped, i),
      });
      if (res.statusCode !== 202) {
        const key = `${res.statusCode} ${String(res.json<{ message?: string }>().message).replace(/\d+/g, 'N').slice(0, 80)}`;
        refusals.set(key, (refusals.get(key) ?? 0) + 1);
      }
      if (hardenedAt === null && (await codeTextsUnderAttack(app.ctx.db, now, { perHour: config.CODE_TEXTS_PER_HOUR }))) hardenedAt = i + 1;
      if (i % 10 !== 9) continue;
      // An honest person, in a prefix of their own, who types the code in.
      honest++;
      const phone = `+1628${400 + honest}${String(2000 + honest).padStart(4, '0')}`;
      const address = `203.0.113.${honest % 250}`;
      const started = await app.inject({ method: 'POST', url: '/api/register', remoteAddress: address, payload: form(phone, 100_000 + i) });
      if (started.statusCode !== 202) continue;
      const cookie = started.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const [text] = await app.ctx.db
        .select({ body: messages.body })
        .from(messages)
        .where(and(eq(messages.toAddress, phone), eq(messages.kind, 'code')))
        .orderBy(desc(messages.id))
        .limit(1);
      const code = /\b(\d{6})\b/.exec(text?.body ?? '')?.[1];
      if (!code) continue;
      const verified = await app.inject({
        method: 'POST',
        url: '/api/register/verify',
        remoteAddress: address,
        headers: { cookie },
        payload: { phoneNumber: phone, code },
      });
      if (verified.statusCode === 201) honestThrough++;
    }
    const attackTexts = await codeTexts('+16283');
    console.log(
      `\nHonest sign-ups during an attack: ${ATTACK} attacker forms over an hour (10 prefixes, never typed in), one honest person every 10.`,
    );
    console.log(
      `  ${honestThrough} of ${honest} honest sign-ups got their code and finished (before decision 0051: none once CODE_TEXTS_PER_HOUR forms were sent)`,
    );
    console.log(
      `  ${attackTexts} code texts to the attacker's numbers (CODE_TEXTS_PER_PREFIX ${config.CODE_TEXTS_PER_PREFIX} x 10 prefixes per hour at most)`,
    );
    for (const [answer, count] of refusals) console.log(`        ${String(count).padStart(5)} x ${answer}`);
    console.log(
      hardenedAt === null
        ? '  the proof-of-work never hardened'
        : `  from attacker form ${hardenedAt} on, forms asked for the harder proof-of-work (when SIGNUP_PROOF_OF_WORK is on; off in this run)`,
    );
  } finally {
    await close();
  }
}
