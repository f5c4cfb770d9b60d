import { count } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { MailLinks } from '../../mail/links';
import { users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';
import { randomToken } from '../../lib/tokens';
import { convertPhoto, type ConvertedPhoto } from '../../media/photo';
import { deleteStoredKeys, putPhoto, storedKeysOf, type StoredMedia } from '../../media/stored-media';
import type { MediaStorage } from '../../storage/media-storage';
import { DEMO_EMAIL, DEMO_LOOPS, DEMO_STAFF, demoScene, type SceneName } from './demo-content';
import { drawDemoPhoto } from './draw-demo-photo';
import { insertDemoLoop, type InsertedDemoLoop } from './insert-demo-loop';

export type DemoResult =
  { status: 'refused'; userCount: number } | { status: 'created'; email: string; password: string; loops: InsertedDemoLoop[] };

class HasUsers extends Error {
  constructor(readonly userCount: number) {
    super('the database has users');
  }
}

async function countUsers(db: Pick<Db, 'select'>): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

/**
 * Fills an empty database with the demo: a staff account with a new random password, two Loops
 * with members, four weeks of updates with photos and a sent newsletter each. All or nothing, and
 * only on a database without users: a demo never mixes with real people.
 */
export async function seedDemo(
  db: Db,
  options: { storage: MediaStorage; now: Date; publicUrl: string; mail?: MailLinks | undefined },
): Promise<DemoResult> {
  const before = await countUsers(db);
  if (before > 0) return { status: 'refused', userCount: before };

  const password = `loop-${randomToken(9)}`;
  const passwordHash = await hashPassword(password);
  const drawn = new Map<SceneName, ConvertedPhoto>();
  const stored: string[] = [];
  const store = async (scene: SceneName) => {
    let photo = drawn.get(scene);
    if (!photo) {
      const converted = await convertPhoto(drawDemoPhoto(demoScene(scene)));
      if (!converted.ok) throw new Error(`the demo photo ${scene} was refused: ${converted.reason}`);
      drawn.set(scene, (photo = converted.photo));
    }
    const put = await putPhoto(options.storage, photo);
    stored.push(...storedKeysOf(put));
    return put;
  };
  const photosByLoop: StoredMedia[][][] = [];
  for (const loop of DEMO_LOOPS) {
    const perUpdate = [];
    for (const update of loop.updates) perUpdate.push(await Promise.all((update.photos ?? []).map(store)));
    photosByLoop.push(perUpdate);
  }

  try {
    const loops = await db.transaction(async (tx) => {
      // Checked again inside: someone may have signed up meanwhile.
      const userCount = await countUsers(tx);
      if (userCount > 0) throw new HasUsers(userCount);
      const [staff] = await tx
        .insert(users)
        .values({
          ...DEMO_STAFF,
          email: DEMO_EMAIL,
          // The staff account reads each demo newsletter by text and by e-mail, so the Mail
          // Simulator shows the e-mail edition from the first start (decision 0047).
          ...(options.mail ? { emailConfirmedAddress: DEMO_EMAIL, newsletterDelivery: 'both' as const } : {}),
          passwordHash,
          isStaff: true,
          createdAt: new Date(options.now.getTime() - 29 * 86_400_000),
        })
        .returning({ id: users.id });
      if (!staff) throw new Error('insert returned no row');
      const inserted: InsertedDemoLoop[] = [];
      for (const [index, loop] of DEMO_LOOPS.entries()) {
        inserted.push(
          await insertDemoLoop(tx, {
            loop,
            staffId: staff.id,
            now: options.now,
            publicUrl: options.publicUrl,
            mail: options.mail,
            photos: (update) => photosByLoop[index]?.[update] ?? [],
          }),
        );
      }
      return inserted;
    });
    return { status: 'created', email: DEMO_EMAIL, password, loops };
  } catch (error) {
    await deleteStoredKeys(options.storage, stored);
    if (error instanceof HasUsers) return { status: 'refused', userCount: error.userCount };
    throw error;
  }
}
