// `npm install` runs this (the root package.json's `prepare` script): it points git at .husky/,
// whose pre-commit hook runs lint-staged (Prettier and ESLint on the staged files; the
// `lint-staged` key of package.json). It never fails an install: without a .git folder (an
// unpacked tarball), without git, on CI (`CI` is set), with HUSKY=0, or where git's config cannot
// be written, it says why and installs nothing.
if (process.env.CI || process.env.HUSKY === '0') {
  console.log('git hooks: not installed (CI or HUSKY=0)');
} else {
  try {
    const { default: husky } = await import('husky');
    const problem = husky();
    console.log(problem ? `git hooks: not installed (${problem.trim()})` : 'git hooks: pre-commit runs lint-staged');
  } catch (error) {
    console.log(`git hooks: not installed (${error instanceof Error ? error.message : String(error)})`);
  }
}
