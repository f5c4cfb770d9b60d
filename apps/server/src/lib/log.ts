/** The part of the app's logger (pino's) that background work writes to: jobs, the scheduler, the transcriber. */
export interface Log {
  info(obj: object, msg: string): void;
  warn: { (msg: string): void; (obj: object, msg: string): void };
  error(obj: object, msg: string): void;
}
