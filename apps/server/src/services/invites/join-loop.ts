import type { z } from 'zod';
import type { JoinAnswer, joinLoopSchema } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { insertMembership } from '../members/add-member';
import { findInvite } from './find-invite';

/** Joins a Loop through an invite link. Joining twice is still a success, with one membership. */
export async function joinLoop(db: Db, options: { code: string; input: z.output<typeof joinLoopSchema>; now: Date }): Promise<JoinAnswer> {
  return db.transaction(async (tx) => {
    const { loop } = await findInvite(tx, options.code, options.now);
    const added = await insertMembership(tx, {
      loopId: loop.id,
      loopName: loop.name,
      person: options.input,
      context: null,
      now: options.now,
    });
    return { ok: true, loopId: loop.id, loopName: loop.name, alreadyMember: added === null };
  });
}
