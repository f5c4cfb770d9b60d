import path from 'node:path';
import type { Config } from '../config';
import { localDiskStorage } from './local-disk';
import type { MediaStorage } from './media-storage';
import { s3Storage } from './s3';

const stores = new Map<string, MediaStorage>();

/** The app's media storage: the S3 bucket when S3_BUCKET is set, else local disk under DATA_DIR/media. */
export function mediaStorageFor(config: Config): MediaStorage {
  const id = config.S3_BUCKET ? `s3:${config.S3_ENDPOINT ?? 'aws'}/${config.S3_BUCKET}` : path.join(config.dataDir, 'media');
  let store = stores.get(id);
  if (!store) {
    store = config.S3_BUCKET
      ? s3Storage({
          bucket: config.S3_BUCKET,
          region: config.S3_REGION,
          forcePathStyle: config.S3_FORCE_PATH_STYLE,
          ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
          ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
            ? { credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } }
            : {}),
        })
      : localDiskStorage(id);
    stores.set(id, store);
  }
  return store;
}
