// The few parts of autocannon 8 this benchmark uses (the package ships no types).
declare module 'autocannon' {
  export interface RequestSetup {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    requests?: {
      setupRequest?: (request: RequestSetup, context: Record<string, unknown>) => RequestSetup;
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }[];
  }
  export interface Histogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
  }
  export interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    '2xx': number;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
