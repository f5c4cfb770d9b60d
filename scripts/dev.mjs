// `npm run dev`: the API server restarting on change (port 3000) and Vite with hot reload (port 5173).
import { spawn } from 'node:child_process';
import { checkNode } from './check-node.mjs';

checkNode();

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'apps/server/src/server.ts'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@loop/web'], { stdio: 'inherit' }),
];
console.log('\n  Open http://localhost:5173 (Vite, proxying /api to the server on :3000)\n');
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
