import path from 'node:path';
import type { Config } from '../config';
import { localDiskStorage } from './local-disk';
import type { MediaStorage } from './media-storage';
import { s3Storage } from './s3';

/** The app's media storage: the S3 bucket when S3_BUCKET is set, else local disk under DATA_DIR/media. Built once per app. */
export function createMediaStorage(config: Config): MediaStorage {
  if (!config.S3_BUCKET) return localDiskStorage(path.join(config.dataDir, 'media'));
  return s3Storage({
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
    ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } }
      : {}),
  });
}
