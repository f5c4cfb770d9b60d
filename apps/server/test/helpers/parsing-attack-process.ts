// The parsing attacks, sent from a process of their own (helpers/parsing-attack.ts,
// startAttackProcess) until SIGTERM; then one line of JSON: each attack's answers by status.
import { parsingAttacks, startAttack, type AttackName } from './parsing-attack';

const { baseUrl, attacks, simulator } = JSON.parse(process.env.ATTACK ?? '{}') as {
  baseUrl: string;
  attacks: { name: AttackName; connections: number }[];
  simulator: { cookie: string; phoneNumber: string };
};
const requests = await parsingAttacks(simulator);
const running = attacks.map(({ name, connections }) => startAttack(baseUrl, requests[name], connections));
process.stdout.write('started\n');
process.once('SIGTERM', () => {
  const report = () => {
    process.stdout.write(`${JSON.stringify(running.map((attack) => attack.statuses))}\n`);
    process.exit(0);
  };
  // A 21 MB upload in flight is not waited for long.
  setTimeout(report, 3000).unref();
  void Promise.all(running.map((attack) => attack.stop())).then(report);
});
