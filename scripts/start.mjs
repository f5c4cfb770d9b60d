// `npm start`: builds the web app if needed, then runs the whole product in this one process.
import { checkNode } from './check-node.mjs';

checkNode();
const { register } = await import('tsx/esm/api');
const { buildWebIfStale } = await import('./web-build.mjs');

process.env.NODE_ENV ??= 'production';
buildWebIfStale();
register();
await import('../apps/server/src/server.ts');
