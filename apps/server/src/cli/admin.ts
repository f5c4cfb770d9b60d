import type { Db } from '../db/client';
import { runAsCommand, type CommandResult } from './run-command';
import { setPrivileged } from '../services/users/set-privileged';

const USAGE = 'Usage: npm run admin -- grant <email>   |   npm run admin -- revoke <email>';

/** Runs one admin command and returns what to print and the exit code. */
export async function runAdminCommand(db: Db, args: readonly string[]): Promise<CommandResult> {
  const [action, email, ...rest] = args;
  if ((action !== 'grant' && action !== 'revoke') || !email || rest.length > 0) {
    return { output: USAGE, code: 2 };
  }
  const grant = action === 'grant';
  const result = await setPrivileged(db, email, grant);
  if (!result) {
    return { output: `No account has the email ${email}. The person must sign up first.`, code: 1 };
  }
  const who = result.email ?? email;
  if (result.wasPrivileged === grant) {
    return { output: `${who} ${grant ? 'already has' : 'did not have'} staff rights: nothing changed.`, code: 0 };
  }
  return { output: grant ? `${who} is now staff (isPrivileged).` : `${who} is no longer staff.`, code: 0 };
}

runAsCommand(import.meta.url, ({ db }) => runAdminCommand(db, process.argv.slice(2)));
