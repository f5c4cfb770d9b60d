import { loadConfig, loadEnvFile } from '../config';
import type { Db } from '../db/client';
import { isStartedModule, runAsCommand, type CommandResult } from './run-command';
import { sampleTexts } from './sample-texts';
import { setStaff } from '../services/users/set-staff';

const USAGE = 'Usage: npm run admin -- grant <email>   |   npm run admin -- revoke <email>   |   npm run admin -- sample-texts';

/** Runs one admin command and returns what to print and the exit code. */
export async function runAdminCommand(db: Db, args: readonly string[]): Promise<CommandResult> {
  const [action, email, ...rest] = args;
  if ((action !== 'grant' && action !== 'revoke') || !email || rest.length > 0) {
    return { output: USAGE, code: 2 };
  }
  const grant = action === 'grant';
  const result = await setStaff(db, email, grant);
  if (!result) {
    return { output: `No account has the email ${email}. The person must sign up first.`, code: 1 };
  }
  const who = result.email ?? email;
  if (result.wasStaff === grant) {
    return { output: `${who} ${grant ? 'already has' : 'did not have'} staff rights: nothing changed.`, code: 0 };
  }
  return { output: grant ? `${who} is now staff (isPrivileged).` : `${who} is no longer staff.`, code: 0 };
}

if (isStartedModule(import.meta.url) && process.argv[2] === 'sample-texts' && process.argv.length === 3) {
  // Needs the configuration only: no database, so it runs beside a server holding the data directory.
  loadEnvFile();
  console.log(sampleTexts(loadConfig()));
} else {
  runAsCommand(import.meta.url, ({ db }) => runAdminCommand(db, process.argv.slice(2)));
}
