import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { newToken } from '../lib/tokens';
import { STORAGE_KEY, type MediaStorage } from './media-storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** A folder inside the bucket, so one bucket can hold more than Loop's media. */
  prefix?: string;
}

/**
 * Stored files as objects in an S3-compatible bucket, with the official SDK. The bucket stays
 * private: media are served through Loop's own /media route (decision 0022), never by bucket URLs.
 */
export function s3Storage(options: S3StorageOptions): MediaStorage {
  const client = new S3Client({
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    // A checksum only where S3 requires one: a streamed body (putFile) otherwise goes as
    // aws-chunked with a trailing checksum, which S3-compatible stores do not all understand
    // (s3rver stores the trailer as part of the object).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });
  const prefix = options.prefix ?? 'media/';
  const objectKey = (key: string) => `${prefix}${key}`;
  return {
    async put(bytes) {
      const key = newToken('mediaKey');
      // A PUT is atomic: a reader sees the whole object or none.
      await client.send(
        new PutObjectCommand({ Bucket: options.bucket, Key: objectKey(key), Body: bytes, ContentType: 'application/octet-stream' }),
      );
      return key;
    },
    async putFile(file) {
      const key = newToken('mediaKey');
      // One PUT with a known length, streamed from the file (S3 allows 5 GB that way).
      const { size } = await stat(file);
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: objectKey(key),
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: 'application/octet-stream',
        }),
      );
      return key;
    },
    async getStream(key) {
      if (!STORAGE_KEY.test(key)) return null;
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }));
        return answer.Body instanceof Readable ? answer.Body : null;
      } catch (error) {
        if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)) return null;
        throw error;
      }
    },
    async get(key) {
      if (!STORAGE_KEY.test(key)) return null;
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }));
        if (!answer.Body) return null;
        return Buffer.from(await answer.Body.transformToByteArray());
      } catch (error) {
        if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)) return null;
        throw error;
      }
    },
    async delete(key) {
      if (!STORAGE_KEY.test(key)) return;
      // Deleting a missing object succeeds on S3: delete is idempotent, like rm -f.
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }));
    },
  };
}
