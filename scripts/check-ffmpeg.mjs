import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

// Voice memos and videos are converted by the system's ffmpeg and ffprobe (decision 0023), and the
// tests make their fixtures with them: `npm test` stops at once with what to install, instead of
// failing a few dozen tests ten minutes in. `npm start` runs without it and says so itself.
export function ffmpegProblem(run = (tool) => execFileSync(tool, ['-version'], { stdio: 'ignore' })) {
  const missing = ['ffmpeg', 'ffprobe'].filter((tool) => {
    try {
      run(tool);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return undefined;
  return [
    `The tests need ffmpeg and ffprobe on PATH; this machine has no ${missing.join(' or ')}.`,
    'Install it (Debian/Ubuntu: sudo apt-get install -y ffmpeg; macOS: brew install ffmpeg), then run the command again.',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problem = ffmpegProblem();
  if (problem !== undefined) {
    console.error(problem);
    process.exit(1);
  }
}
