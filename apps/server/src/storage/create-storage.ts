import path from 'node:path';
import type { Config } from '../config';
import { localDiskStorage } from './local-disk';
import type { MediaStorage } from './media-storage';

const stores = new Map<string, MediaStorage>();

/** The app's media storage: local disk under DATA_DIR/media. */
export function mediaStorageFor(config: Config): MediaStorage {
  const root = path.join(config.dataDir, 'media');
  let store = stores.get(root);
  if (!store) {
    store = localDiskStorage(root);
    stores.set(root, store);
  }
  return store;
}
