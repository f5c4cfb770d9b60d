import { loadConfig, loadEnvFile } from '../config';
import { createAppContext } from '../create-context';
import { openDatabase } from '../db/client';
import type { AppContext } from '../context';

export interface CommandResult {
  output: string;
  code: number;
}

/** Whether `moduleUrl` is the file Node started (not a file a test imported). */
export function isStartedModule(moduleUrl: string): boolean {
  const started = process.argv[1];
  return Boolean(started && moduleUrl.endsWith(started.replace(/\\/g, '/')));
}

/**
 * Runs a command-line tool when its file is the one Node started: opens the configured database,
 * hands the command the app's context (its adapters built as buildApp builds them), prints the
 * command's output (to stderr when it failed), sets the exit code, and closes the database.
 */
export function runAsCommand(moduleUrl: string, command: (ctx: AppContext) => Promise<CommandResult>): void {
  if (!isStartedModule(moduleUrl)) return;
  const main = async () => {
    loadEnvFile();
    const config = loadConfig();
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
    try {
      const { output, code } = await command(createAppContext(config, database, { log: console }));
      (code === 0 ? console.log : console.error)(output);
      process.exitCode = code;
    } finally {
      await database.close();
    }
  };
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
