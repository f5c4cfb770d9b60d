import { uniquePhone } from '../helpers/app';
import { NOW, roleIn, type Actor, type LoopKey, type Person, type World } from './authorization-world';

/** One generated case: who asks, the Loop in the path, the Loop the object belongs to, which of its people. */
export interface Case {
  actor: Actor;
  path: LoopKey;
  object: LoopKey;
  person: Person;
}

export interface RouteCase {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: (w: World, c: Case) => string;
  payload?: (w: World, c: Case) => Record<string, unknown>;
  /** The status the rules of docs/decisions/0003 and docs/security.md#authorization give this case. */
  expected: (c: Case) => number;
  /** The Loop a permitted call changes: it is rebuilt afterwards. */
  changes?: (c: Case) => LoopKey;
}

const id = (w: World, key: LoopKey) => w.loops[key].id;
/** A 2 × 2 PNG: the smallest photo a cover upload takes. */
const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWM4MzPtzMw0BggFADPaBy3JtCzcAAAAAElFTkSuQmCC';

/** A Loop route through loop-access: 401, 404 outside the Loop, 403 for a member where only the owner may act. */
function loopRule(c: Case, options: { manage: boolean; usesObject: boolean; success: number }): number {
  if (c.actor === 'signedOut') return 401;
  const role = roleIn(c.actor, c.path);
  if (!role) return 404;
  if (options.manage && role === 'member') return 403;
  if (options.usesObject && c.object !== c.path) return 404;
  return options.success;
}

/** Staff-only routes: 401, 403 for everyone else before the Loop is even looked at, then 404 for another Loop's object. */
function staffRule(c: Case, options: { usesObject: boolean; success: number }): number {
  if (c.actor === 'signedOut') return 401;
  if (c.actor !== 'staff') return 403;
  if (options.usesObject && c.object !== c.path) return 404;
  return options.success;
}

/**
 * A simulator phone (decision 0015): your own; a text-only member's of a Loop you own; any, for
 * staff. Never another account holder's, even in your own Loop.
 */
function phoneRule(c: Case, success: number): number {
  if (c.actor === 'signedOut') return 401;
  if (c.actor === 'staff') return success;
  const role = roleIn(c.actor, c.object);
  if (role === 'owner' && (c.person === 'owner' || c.person === 'extra')) return success;
  if (role === 'member' && c.person === 'member') return success;
  return 404;
}

/** Your own membership only: the owner's or the member's of the object Loop, as themselves. */
function invitationRule(c: Case, own: number): number {
  if (c.actor === 'signedOut') return 401;
  return c.actor === `${c.person}${c.object}` ? own : 404;
}

const signedIn = (c: Case) => (c.actor === 'signedOut' ? 401 : 200);
const path = (c: Case) => c.path;

export const ROUTES: RouteCase[] = [
  // The person's own lists: nothing of a Loop they are not in.
  { name: 'GET /api/loops', method: 'GET', url: () => '/api/loops', expected: signedIn },
  { name: 'GET /api/simulator/phones', method: 'GET', url: () => '/api/simulator/phones', expected: signedIn },
  {
    name: 'POST /api/loops for another person',
    method: 'POST',
    url: () => '/api/loops',
    payload: (w, c) => ({ name: 'Forged', vibe: ['fun'], creatorId: w.userId(c.object === 'A' ? 'ownerA' : 'ownerB') }),
    expected: (c) => (c.actor === 'signedOut' ? 401 : c.actor === `owner${c.object}` ? 201 : 403),
  },

  // Loop routes (loop-access).
  {
    name: 'GET loop',
    method: 'GET',
    url: (w, c) => `/api/loops/${id(w, c.path)}`,
    expected: (c) => loopRule(c, { manage: false, usesObject: false, success: 200 }),
  },
  {
    name: 'GET loop newsletters',
    method: 'GET',
    url: (w, c) => `/api/loops/${id(w, c.path)}/newsletters`,
    expected: (c) => loopRule(c, { manage: false, usesObject: false, success: 200 }),
  },
  {
    name: 'PUT loop',
    method: 'PUT',
    url: (w, c) => `/api/loops/${id(w, c.path)}`,
    payload: () => ({ name: 'Renamed', context: 'changed', reminderSchedule: [] }),
    expected: (c) => loopRule(c, { manage: true, usesObject: false, success: 200 }),
    changes: path,
  },
  {
    // The Loop's cover photo: its owner, co-organizers and staff; an uploaded photo through the pipeline.
    name: 'PUT loop cover',
    method: 'PUT',
    url: (w, c) => `/api/loops/${id(w, c.path)}/cover`,
    payload: () => ({ photo: TINY_PNG }),
    expected: (c) => loopRule(c, { manage: true, usesObject: false, success: 200 }),
    changes: path,
  },
  {
    name: 'DELETE loop cover',
    method: 'DELETE',
    url: (w, c) => `/api/loops/${id(w, c.path)}/cover`,
    expected: (c) => loopRule(c, { manage: true, usesObject: false, success: 200 }),
    changes: path,
  },
  {
    name: 'DELETE loop',
    method: 'DELETE',
    url: (w, c) => `/api/loops/${id(w, c.path)}`,
    expected: (c) => loopRule(c, { manage: true, usesObject: false, success: 200 }),
    changes: path,
  },
  {
    name: 'GET invite',
    method: 'GET',
    url: (w, c) => `/api/loops/${id(w, c.path)}/invite`,
    expected: (c) => loopRule(c, { manage: true, usesObject: false, success: 200 }),
    changes: path,
  },
  {
    name: 'POST invite',
    method: 'POST',
    url: (w, c) => `/api/loops/${id(w, c.path)}/invite`,
    expected: (c) => loopRule(c, { manage: true, usesObject: false, success: 201 }),
    changes: path,
  },
  {
    name: 'POST member',
    method: 'POST',
    url: (w, c) => `/api/loops/${id(w, c.path)}/members`,
    payload: () => ({ firstName: 'New', lastName: 'Person', phoneNumber: uniquePhone() }),
    expected: (c) => loopRule(c, { manage: true, usesObject: false, success: 201 }),
    changes: path,
  },
  {
    name: 'PUT member',
    method: 'PUT',
    url: (w, c) => `/api/loops/${id(w, c.path)}/members/${w.loops[c.object].memberIds.extra}`,
    payload: () => ({ context: 'Edited by the test' }),
    expected: (c) => loopRule(c, { manage: true, usesObject: true, success: 200 }),
    changes: path,
  },
  {
    name: 'DELETE member',
    method: 'DELETE',
    url: (w, c) => `/api/loops/${id(w, c.path)}/members/${w.loops[c.object].memberIds.extra}`,
    expected: (c) => loopRule(c, { manage: true, usesObject: true, success: 200 }),
    changes: path,
  },
  {
    name: 'DELETE update',
    method: 'DELETE',
    url: (w, c) => `/api/loops/${id(w, c.path)}/updates/${w.loops[c.object].updateIds[c.person]}`,
    expected: (c) => {
      const rule = loopRule(c, { manage: false, usesObject: true, success: 200 });
      // A member deletes their own updates only.
      if (rule === 200 && roleIn(c.actor, c.path) === 'member' && c.person !== 'member') return 403;
      return rule;
    },
    changes: path,
  },

  // Newsletters: the Loop's owner and staff (decision 0040); sneak peeks: staff only.
  {
    name: 'POST generate newsletter',
    method: 'POST',
    url: (w, c) => `/api/loops/${id(w, c.path)}/newsletters/generate`,
    expected: (c) => loopRule(c, { manage: true, usesObject: false, success: 201 }),
    changes: path,
  },
  {
    name: 'GET newsletter preview',
    method: 'GET',
    url: (w, c) => `/api/loops/${id(w, c.path)}/newsletters/${w.loops[c.object].draftId}/preview`,
    expected: (c) => loopRule(c, { manage: true, usesObject: true, success: 200 }),
  },
  {
    name: 'POST render newsletter',
    method: 'POST',
    url: (w, c) => `/api/loops/${id(w, c.path)}/newsletters/${w.loops[c.object].draftId}/render`,
    payload: () => ({ content: 'Drawn for someone' }),
    expected: (c) => loopRule(c, { manage: true, usesObject: true, success: 200 }),
  },
  {
    name: 'PUT newsletter draft',
    method: 'PUT',
    url: (w, c) => `/api/loops/${id(w, c.path)}/newsletters/${w.loops[c.object].draftId}`,
    payload: () => ({ content: 'Edited by someone' }),
    expected: (c) => loopRule(c, { manage: true, usesObject: true, success: 200 }),
    changes: path,
  },
  {
    name: 'POST approve newsletter',
    method: 'POST',
    url: (w, c) => `/api/loops/${id(w, c.path)}/newsletters/${w.loops[c.object].draftId}/approve`,
    // Past the rules, the world's draft has no send time to approve it for: 409, nothing changed.
    expected: (c) => loopRule(c, { manage: true, usesObject: true, success: 409 }),
  },
  {
    name: 'POST move newsletter',
    method: 'POST',
    url: (w, c) => `/api/loops/${id(w, c.path)}/newsletters/${w.loops[c.object].draftId}/move`,
    payload: () => ({ sendAt: new Date(NOW.getTime() + 3 * 86_400_000).toISOString() }),
    expected: (c) => loopRule(c, { manage: true, usesObject: true, success: 200 }),
    changes: path,
  },
  {
    name: 'POST unapprove newsletter',
    method: 'POST',
    url: (w, c) => `/api/loops/${id(w, c.path)}/newsletters/${w.loops[c.object].draftId}/unapprove`,
    expected: (c) => loopRule(c, { manage: true, usesObject: true, success: 200 }),
    changes: path,
  },
  {
    name: 'POST skip newsletter',
    method: 'POST',
    url: (w, c) => `/api/loops/${id(w, c.path)}/newsletters/${w.loops[c.object].draftId}/skip`,
    expected: (c) => loopRule(c, { manage: true, usesObject: true, success: 200 }),
    changes: path,
  },
  {
    name: 'POST send newsletter',
    method: 'POST',
    url: (w, c) => `/api/loops/${id(w, c.path)}/newsletters/${w.loops[c.object].draftId}/send`,
    expected: (c) => loopRule(c, { manage: true, usesObject: true, success: 200 }),
    changes: path,
  },
  {
    // A reaction on a sent issue's page (decision 0056): its members and owner; staff are not in it.
    name: 'POST reaction to a newsletter',
    method: 'POST',
    url: (w, c) => `/api/loops/${id(w, c.path)}/newsletters/${w.loops[c.object].sentId}/reactions`,
    payload: () => ({ emoji: '❤️' }),
    expected: (c) => {
      if (c.actor === 'staff') return 403;
      return loopRule(c, { manage: false, usesObject: true, success: 200 });
    },
    changes: path,
  },
  {
    name: 'POST sneak peek',
    method: 'POST',
    url: (w, c) => `/api/loops/${id(w, c.path)}/sneak-peek`,
    expected: (c) => staffRule(c, { usesObject: false, success: 201 }),
    changes: path,
  },
  {
    name: 'GET public page of a draft',
    method: 'GET',
    url: (w, c) => `/newsletters/${w.loops[c.object].draftUrlId}`,
    // Staff, and the Loop's owner (decision 0040): a draft is theirs to read before it goes.
    expected: (c) => (c.actor === 'staff' || c.actor === `owner${c.object}` ? 200 : 404),
  },

  // /api/admin/*: staff only.
  {
    name: 'GET admin stats',
    method: 'GET',
    url: () => '/api/admin/stats',
    expected: (c) => staffRule(c, { usesObject: false, success: 200 }),
  },
  {
    name: 'GET admin loops',
    method: 'GET',
    url: () => '/api/admin/loops?sort=name',
    expected: (c) => staffRule(c, { usesObject: false, success: 200 }),
  },
  {
    name: 'GET admin newsletters',
    method: 'GET',
    url: () => '/api/admin/newsletters',
    expected: (c) => staffRule(c, { usesObject: false, success: 200 }),
  },
  {
    name: 'GET admin loop',
    method: 'GET',
    url: (w, c) => `/api/admin/loops/${id(w, c.path)}`,
    expected: (c) => staffRule(c, { usesObject: false, success: 200 }),
  },
  {
    name: 'POST admin toggle-pause',
    method: 'POST',
    url: (w, c) => `/api/admin/loops/${id(w, c.path)}/toggle-pause`,
    expected: (c) => staffRule(c, { usesObject: false, success: 200 }),
    changes: path,
  },
  {
    name: 'PUT admin frequency',
    method: 'PUT',
    url: (w, c) => `/api/admin/loops/${id(w, c.path)}/frequency`,
    payload: () => ({ frequency: 'monthly' }),
    expected: (c) => staffRule(c, { usesObject: false, success: 200 }),
    changes: path,
  },
  {
    name: 'POST admin bulk-sms',
    method: 'POST',
    url: (w, c) => `/api/admin/loops/${id(w, c.path)}/bulk-sms`,
    payload: () => ({ message: 'Hello everyone' }),
    expected: (c) => staffRule(c, { usesObject: false, success: 200 }),
    changes: path,
  },

  // Invitations (decision 0035): a membership is answered by the person it belongs to, nobody else
  // (not the Loop's owner, not staff); to everyone else it does not exist. The world's memberships
  // are active: accepting one's own again is a 200 that changes nothing, declining it a 409.
  { name: 'GET /api/invitations', method: 'GET', url: () => '/api/invitations', expected: signedIn },
  {
    name: 'POST accept invitation',
    method: 'POST',
    url: (w, c) => `/api/invitations/${w.loops[c.object].memberIds[c.person]}/accept`,
    expected: (c) => invitationRule(c, 200),
  },
  {
    name: 'POST decline invitation',
    method: 'POST',
    url: (w, c) => `/api/invitations/${w.loops[c.object].memberIds[c.person]}/decline`,
    expected: (c) => invitationRule(c, 409),
  },

  // The phone simulator: the phones of another Loop's people are not yours to read or play.
  {
    name: "GET a simulator phone's thread",
    method: 'GET',
    url: (w, c) => `/api/simulator/phones/${encodeURIComponent(w.loops[c.object].phones[c.person])}/messages`,
    expected: (c) => phoneRule(c, 200),
  },
  {
    name: 'POST a text from a simulator phone',
    method: 'POST',
    url: (w, c) => `/api/simulator/phones/${encodeURIComponent(w.loops[c.object].phones[c.person])}/messages`,
    payload: () => ({ body: 'Typed by someone else' }),
    expected: (c) => phoneRule(c, 202),
  },
];
