import { setupServer } from 'msw/node';

/** The network edge of every web test: handlers per test with `server.use(...)`. */
export const server = setupServer();
