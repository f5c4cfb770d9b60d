// `npm start`: builds the web app if needed, then runs the whole product in this one process.
import { register } from 'tsx/esm/api';
import { buildWebIfStale } from './web-build.mjs';

process.env.NODE_ENV ??= 'production';
buildWebIfStale();
register();
await import('../apps/server/src/server.ts');
