// The parts of autocannon 8 the fault tests use (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface RequestSetup {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface RequestDefinition extends RequestSetup {
    setupRequest?: (request: RequestSetup, context: Record<string, unknown>) => RequestSetup;
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    overallRate?: number;
    /** How often (ms) it samples, and so how soon stop() takes effect; default 1000. */
    sampleInt?: number;
    requests?: RequestDefinition[];
  }
  export interface Result {
    '2xx': number;
    non2xx: number;
    errors: number;
    timeouts: number;
    statusCodeStats: Record<string, { count: number }>;
    requests: { total: number; average: number };
    latency: { average: number; p99: number; max: number };
  }
  /** Emits 'response' (client, status, bytes, ms) and 'reqError' (error); `await` gives the result. */
  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop: () => void;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
