import { loadConfig, loadEnvFile, type Config } from '../config';
import { openDatabase, type Db } from '../db/client';

export interface CommandResult {
  output: string;
  code: number;
}

/**
 * Runs a command-line tool when its file is the one Node started: opens the configured database,
 * prints the command's output (to stderr when it failed), sets the exit code, and closes the database.
 */
export function runAsCommand(
  moduleUrl: string,
  command: (db: Db, config: Config) => Promise<CommandResult>,
): void {
  const started = process.argv[1];
  if (!started || !moduleUrl.endsWith(started.replace(/\\/g, '/'))) return;
  const main = async () => {
    loadEnvFile();
    const config = loadConfig();
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
    try {
      const { output, code } = await command(database.db, config);
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
