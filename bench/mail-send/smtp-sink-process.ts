// The SMTP sink of bench/mail-send in a process of its own, as a real mail server is: Loop's
// process does only Loop's work. Started by index.ts over IPC; answers how many e-mails it took.
import { startSmtpSink } from '../../apps/server/test/helpers/smtp-sink';

type Ask = { type: 'count' } | { type: 'close' };

const sink = await startSmtpSink({ keep: false });
process.on('message', (ask: Ask) => {
  if (ask.type === 'count') process.send?.({ type: 'count', count: sink.count() });
  if (ask.type === 'close') void sink.close().then(() => process.exit(0));
});
// The parent went away without saying: do not outlive it.
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready', url: sink.url });
