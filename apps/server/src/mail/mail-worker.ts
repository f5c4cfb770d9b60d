import { promises as dns } from 'node:dns';
import { Worker } from 'node:worker_threads';
import type { DNSResolver } from 'mailauth';

/**
 * A mail job ended without an answer. `reason`: `budget` (its time ran out), `memory` (the thread
 * ran out of heap), `unreadable` (the library threw on the message: mailparser's "Max allowed
 * child nodes exceeded" for 60,000 parts or 3,000 nested ones, with `code` EMAXLEN) are the
 * message's doing; `crashed` (the thread did not start or died) is Loop's.
 */
export class MailWorkerFailure extends Error {
  constructor(
    message: string,
    readonly reason: 'budget' | 'memory' | 'unreadable' | 'crashed',
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'MailWorkerFailure';
  }
}

/**
 * Threads reading mail at once. The listener takes at most 4 connections; two threads keep a core
 * for HTTP and texts on a small machine, and the rest wait their turn (a job's budget starts when
 * a thread takes it). A thread is kept between jobs: starting one (loading mailauth and
 * mailparser) costs more than most messages.
 */
const THREADS = 2;
/** Heap of one thread: a 25 MiB message, its text and its decoded files fit with room to spare. */
const THREAD_HEAP_MB = 512;

type Reply =
  | { job: number; result: unknown }
  | { job: number; error: { message: string; code: string | null } }
  | { job: number; dns: { id: number; name: string; type: string } };

interface Job {
  id: number;
  kind: 'authenticate' | 'read';
  bytes: Uint8Array<ArrayBuffer>;
  data: Record<string, unknown>;
  budgetMs: number;
  resolve: DNSResolver;
  done: (result: unknown) => void;
  fail: (error: MailWorkerFailure) => void;
}

const idle: Worker[] = [];
const waiting: Job[] = [];
let busy = 0;
let jobs = 0;

/**
 * Runs one job of `mail-thread.mjs` on `raw` in a worker thread (decision 0050), ended after
 * `budgetMs`: the main thread only copies the bytes there and answers the thread's DNS questions
 * with `resolver` (the system's DNS when none is given).
 */
export function inMailWorker<T>(
  kind: Job['kind'],
  raw: Buffer,
  options: { budgetMs: number; data: Record<string, unknown>; resolver?: DNSResolver | undefined },
): Promise<T> {
  const resolve = options.resolver ?? ((name: string, type: string) => dns.resolve(name, type) as Promise<string[][]>);
  return new Promise<T>((done, fail) => {
    jobs += 1;
    const bytes: Uint8Array<ArrayBuffer> = new Uint8Array(raw);
    waiting.push({
      id: jobs,
      kind,
      bytes,
      data: options.data,
      budgetMs: options.budgetMs,
      resolve,
      done: done as (r: unknown) => void,
      fail,
    });
    startWaiting();
  });
}

function startWaiting(): void {
  while (busy < THREADS && waiting.length > 0) {
    const job = waiting.shift();
    if (!job) return;
    busy += 1;
    run(idle.pop() ?? startThread(), job);
  }
}

function startThread(): Worker {
  const worker = new Worker(new URL('./mail-thread.mjs', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
  // An idle thread never keeps the process alive, and one that stopped is not given a job.
  worker.unref();
  worker.once('exit', () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  });
  return worker;
}

function run(worker: Worker, job: Job): void {
  let over = false;
  const finish = (keep: boolean, outcome: () => void) => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
    if (keep) idle.push(worker);
    else void worker.terminate();
    busy -= 1;
    outcome();
    startWaiting();
  };
  const onMessage = (reply: Reply) => {
    if (reply.job !== job.id) return;
    if ('dns' in reply) {
      const { id, name, type } = reply.dns;
      job.resolve(name, type).then(
        (records) => !over && worker.postMessage({ answer: { id, records } }),
        (error: unknown) => !over && worker.postMessage({ answer: { id, error: dnsError(error) } }),
      );
    } else if ('result' in reply) finish(true, () => job.done(reply.result));
    else finish(true, () => job.fail(new MailWorkerFailure(reply.error.message, 'unreadable', reply.error.code)));
  };
  const onError = (error: Error & { code?: string }) =>
    finish(false, () => job.fail(new MailWorkerFailure(error.message, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crashed')));
  const onExit = (code: number) => finish(false, () => job.fail(new MailWorkerFailure(`the mail thread stopped (${code})`, 'crashed')));
  const timer = setTimeout(
    () => finish(false, () => job.fail(new MailWorkerFailure(`reading the message took longer than ${job.budgetMs} ms`, 'budget'))),
    job.budgetMs,
  );
  worker.on('message', onMessage);
  worker.once('error', onError);
  worker.once('exit', onExit);
  worker.postMessage({ job: job.id, kind: job.kind, bytes: job.bytes, options: job.data }, [job.bytes.buffer]);
}

/** What a DNS failure is to mailauth: its code (ENOTFOUND, ENODATA, ESERVFAIL...) decides none or temperror. */
function dnsError(error: unknown): { message: string; code: string | null } {
  const code = (error as { code?: unknown } | null)?.code;
  return { message: error instanceof Error ? error.message : String(error), code: typeof code === 'string' ? code : null };
}
