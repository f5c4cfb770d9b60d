import { copyFile, mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { newToken, randomToken } from '../lib/tokens';
import { STORAGE_KEY, type MediaStorage } from './media-storage';

/** Stored files under `root`, spread over subfolders by the key's first two characters. */
export function localDiskStorage(root: string): MediaStorage {
  const fileOf = (key: string) => {
    if (!STORAGE_KEY.test(key)) throw new Error('not a storage key');
    return path.join(root, key.slice(0, 2), key);
  };
  return {
    async put(bytes) {
      const key = newToken('mediaKey');
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written whole, then renamed: a reader never sees half a file.
      const temporary = `${file}.${randomToken(8)}.tmp`;
      await writeFile(temporary, bytes, { mode: 0o600 });
      await rename(temporary, file);
      return key;
    },
    async putFile(source) {
      const key = newToken('mediaKey');
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${randomToken(8)}.tmp`;
      await copyFile(source, temporary);
      await rename(temporary, file);
      return key;
    },
    async getStream(key) {
      if (!STORAGE_KEY.test(key)) return null;
      try {
        // Opened first, so a missing file is a null here and not an error on the stream.
        const handle = await open(fileOf(key), 'r');
        return handle.createReadStream();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async get(key) {
      if (!STORAGE_KEY.test(key)) return null;
      try {
        return await readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      if (!STORAGE_KEY.test(key)) return;
      await rm(fileOf(key), { force: true });
    },
  };
}
