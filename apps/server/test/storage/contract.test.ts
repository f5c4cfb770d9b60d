import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createMediaStorage } from '../../src/storage/create-storage';
import { localDiskStorage } from '../../src/storage/local-disk';
import { STORAGE_KEY, type MediaStorage } from '../../src/storage/media-storage';
import { s3Storage } from '../../src/storage/s3';
import { startTestS3, type TestS3 } from '../helpers/s3-server';

let s3: TestS3;
let folder: string;
beforeAll(async () => {
  s3 = await startTestS3();
  folder = await mkdtemp(path.join(tmpdir(), 'loop-disk-'));
});
afterAll(async () => {
  await s3.stop();
  await rm(folder, { recursive: true, force: true });
});

/**
 * The MediaStorage contract, run against every implementation: local disk, and S3 through the
 * official @aws-sdk/client-s3 against a real S3 protocol server on 127.0.0.1 (PutObject,
 * GetObject, DeleteObject: https://docs.aws.amazon.com/AmazonS3/latest/API/API_Operations_Amazon_Simple_Storage_Service.html).
 */
const implementations: [string, () => MediaStorage][] = [
  ['local disk', () => localDiskStorage(folder)],
  [
    'S3 (s3rver on 127.0.0.1)',
    () => s3Storage({ bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: s3.credentials }),
  ],
];

describe.each(implementations)('MediaStorage contract: %s', (_name, make) => {
  it('stores bytes under a new unguessable key and gives them back unchanged', async () => {
    const storage = make();
    const bytes = Buffer.from([0, 1, 2, 3, 255, 254]);
    const key = await storage.put(bytes);
    expect(key).toMatch(STORAGE_KEY);
    expect(await storage.get(key)).toEqual(bytes);
    const other = await storage.put(bytes);
    expect(other).not.toBe(key);
  });

  it('holds a 5 MB photo byte for byte', async () => {
    const storage = make();
    const bytes = Buffer.alloc(5 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 997) bytes[i] = i % 251;
    const key = await storage.put(bytes);
    expect((await storage.get(key))?.equals(bytes)).toBe(true);
    await storage.delete(key);
  });

  it('answers null for a key it never stored, and for anything that is not a key', async () => {
    const storage = make();
    expect(await storage.get('A'.repeat(43))).toBeNull();
    for (const bad of ['', '../../etc/passwd', 'a/b', 'A'.repeat(44)]) expect(await storage.get(bad)).toBeNull();
    await expect(storage.delete('../../etc/passwd')).resolves.toBeUndefined();
  });

  it('deletes: afterwards the key answers null, and deleting again is fine', async () => {
    const storage = make();
    const key = await storage.put(Buffer.from('photo'));
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('stores a file streamed from disk (putFile) and streams it back (getStream) byte for byte', async () => {
    const storage = make();
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 0);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 251;
    const file = path.join(folder, `file-${Math.random().toString(36).slice(2)}.bin`);
    await writeFile(file, bytes);
    const key = await storage.putFile(file);
    expect(key).toMatch(STORAGE_KEY);
    const stream = await storage.getStream(key);
    if (!stream) throw new Error('no stream');
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    expect(await storage.getStream('A'.repeat(43))).toBeNull();
    expect(await storage.getStream('../../etc/passwd')).toBeNull();
    await storage.delete(key);
    expect(await storage.getStream(key)).toBeNull();
  });
});

describe('createMediaStorage', () => {
  it('uses the S3 bucket when S3_BUCKET is set, and the objects land in that bucket', async () => {
    const config = loadConfig({ DATA_DIR: folder, SESSION_SECRET: 'x'.repeat(32), ...s3.env });
    const storage = createMediaStorage(config);
    const key = await storage.put(Buffer.from('in the bucket'));
    expect(await s3.listKeys()).toContain(`media/${key}`);
    await storage.delete(key);
    expect(await s3.listKeys()).not.toContain(`media/${key}`);
  });

  it('refuses half an S3 configuration at start, naming the variables', () => {
    expect(() => loadConfig({ SESSION_SECRET: 'x'.repeat(32), S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/,
    );
    expect(() => loadConfig({ SESSION_SECRET: 'x'.repeat(32), S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_BUCKET is required/);
    expect(() => loadConfig({ SESSION_SECRET: 'x'.repeat(32), S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://x' })).toThrow(
      /S3_ENDPOINT must be an http/,
    );
  });
});
