// The fake Twilio of bench/reminder-burst in a process of its own, as the real one is: the
// sender's process does only Loop's work. Started by index.ts over IPC; answers how many texts it
// took, and tells when the first text after a mark arrives.
import { startFakeTwilio } from '../../apps/server/test/helpers/fake-twilio';

type Ask = { type: 'count' } | { type: 'watch' } | { type: 'close' };

const fake = await startFakeTwilio();
let watch: NodeJS.Timeout | undefined;
process.on('message', (ask: Ask) => {
  if (ask.type === 'count') process.send?.({ type: 'count', count: fake.sent.length });
  if (ask.type === 'watch') {
    const from = fake.sent.length;
    clearInterval(watch);
    watch = setInterval(() => {
      if (fake.sent.length === from) return;
      clearInterval(watch);
      process.send?.({ type: 'first' });
    }, 1);
  }
  if (ask.type === 'close') {
    clearInterval(watch);
    void fake.close().then(() => process.exit(0));
  }
});
// The parent went away without saying: do not outlive it.
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready', url: fake.url, accountSid: fake.accountSid, authToken: fake.authToken });
