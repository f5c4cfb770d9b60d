import { pathToFileURL } from 'node:url';

// Loop runs on Node.js 22.22 or newer (22 or 24 LTS): react-router 8 declares 22.22, pg-boss 12 22.12.
// `npm start`, `npm run dev` and `npm test` check first, so an older Node stops with a message that
// says what to do instead of a stack trace from deep inside a dependency.
export const MIN_NODE = [22, 22];

export function nodeVersionProblem(version = process.versions.node) {
  const [major, minor] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (!Number.isInteger(major) || !Number.isInteger(minor)) {
    return `Loop cannot tell which Node.js this is (version "${version}"). It needs Node.js 22.22 or newer (22 or 24 LTS).`;
  }
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return undefined;
  return [
    `Loop needs Node.js 22.22 or newer (22 or 24 LTS); this is Node.js ${version}.`,
    'Install Node.js 24 from https://nodejs.org (or with nvm: `nvm install 24`), or, without changing',
    'the system Node, run: npm install --prefix ~/.cache/loop-node node@24 && export PATH=~/.cache/loop-node/node_modules/.bin:$PATH',
    'then run the command again.',
  ].join('\n');
}

/** Stops the process with the message when this Node is too old. */
export function checkNode() {
  const problem = nodeVersionProblem();
  if (problem === undefined) return;
  console.error(problem);
  process.exit(1);
}

// `node scripts/check-node.mjs` (npm's pretest): check and exit.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) checkNode();
