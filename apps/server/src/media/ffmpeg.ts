import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** Where ffmpeg and ffprobe are, or null when this machine has none (decision 0023). */
export interface FfmpegTools {
  ffmpeg: string;
  ffprobe: string;
}

/**
 * FFMPEG_PATH when set (ffprobe beside it), else `ffmpeg` and `ffprobe` on PATH (Debian's
 * package), else null: voice memos and videos are then refused with a reply saying so.
 */
export function findFfmpeg(configured: string | undefined, path = process.env.PATH ?? ''): FfmpegTools | null {
  if (configured) {
    const ffprobe = join(dirname(configured), configured.endsWith('.exe') ? 'ffprobe.exe' : 'ffprobe');
    return executable(configured) && executable(ffprobe) ? { ffmpeg: configured, ffprobe } : null;
  }
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const ffmpeg = join(dir, 'ffmpeg');
    const ffprobe = join(dir, 'ffprobe');
    if (executable(ffmpeg) && executable(ffprobe)) return { ffmpeg, ffprobe };
  }
  return null;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The options every ffmpeg and ffprobe run reads its input with: files and pipes only (a playlist
 * inside a file can open no URL and no other protocol), and the demuxer Loop chose from the bytes
 * (`-f`), so no playlist, concat or image-sequence demuxer is ever probed into.
 */
export function inputOptions(format: string): string[] {
  return ['-protocol_whitelist', 'file,pipe', '-f', format];
}

export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const running = new Set<ChildProcess>();
const MAX_OUTPUT = 64 * 1024;

/** How many ffmpeg/ffprobe processes Loop has running now (tests check none is left). */
export function runningTools(): number {
  return running.size;
}

/**
 * Runs ffmpeg or ffprobe with these arguments: never through a shell, no standard input, ended
 * with SIGKILL after `timeoutMs`. Output is kept up to 64 KB (ffprobe's JSON, ffmpeg's errors).
 */
export function runTool(file: string, args: string[], timeoutMs: number): Promise<ToolRun> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { shell: false, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    running.add(child);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-MAX_OUTPUT);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const done = (code: number | null) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, stdout, stderr, timedOut });
    };
    child.once('error', (error) => {
      stderr += error.message;
      done(null);
    });
    child.once('close', (code) => done(code));
  });
}
