import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PageAsset {
  /** Carries a hash of the content, so browsers may keep it for good. */
  path: string;
  type: string;
  body: Buffer;
}

const ASSETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
export const ASSET_PREFIX = '/newsletter-assets/';

function load(file: string, type: string): PageAsset {
  const body = readFileSync(path.join(ASSETS_DIR, file));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  const { name, ext } = path.parse(file);
  return { path: `${ASSET_PREFIX}${name}-${hash}${ext}`, type, body };
}

/** The page's own stylesheet, its small scripts (photo viewer, print button, reactions) and its icon, read once at start. */
export const pageAssets = {
  css: load('newsletter.css', 'text/css; charset=utf-8'),
  js: load('lightbox.js', 'text/javascript; charset=utf-8'),
  print: load('print.js', 'text/javascript; charset=utf-8'),
  react: load('react.js', 'text/javascript; charset=utf-8'),
  icon: load('icon.svg', 'image/svg+xml'),
};
