import { vibeQuestions } from '@loop/shared/reminder-questions';

export interface PickedQuestion {
  text: string;
  /** The owner's own question (texts quote it: someone typed it) or one of Loop's for the vibe. */
  own: boolean;
}

/**
 * The question a Loop's reminder asks at one slot (decision 0043): every other reminder, about, one
 * of the owner's own questions when there are any, else one of the vibes' questions; never the one
 * the last reminder asked. Chosen from the Loop and the slot, not at random: the same slot always
 * asks the same question (a retried sweep, a test), and slots in turn walk the whole list.
 */
export function pickQuestion(input: {
  loopId: number;
  slot: Date;
  vibes: readonly string[];
  own: readonly string[];
  last: string | null;
}): PickedQuestion {
  const fresh = (list: readonly string[]) => list.filter((q) => q !== input.last);
  const own = fresh(input.own);
  const vibe = fresh(vibeQuestions(input.vibes));
  const seed = hash(`${input.loopId}:${input.slot.toISOString()}`);
  const useOwn = own.length > 0 && (vibe.length === 0 || seed % 2 === 0);
  const list = useOwn ? own : vibe;
  return { text: list[Math.floor(seed / 2) % list.length] ?? "What's new?", own: useOwn };
}

/** FNV-1a, 32 bits: a stable number from a string. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
