import type { Node as PMNode, ResolvedPos } from 'prosemirror-model';
import { NodeSelection, TextSelection, type Command, type EditorState, type Transaction } from 'prosemirror-state';
import { nodes } from './newsletter-markdown';

const { gallery, heading, rule, media } = nodes;

/**
 * Sections of a newsletter: each top-level heading (levels 1 and 2, one per member in a written
 * newsletter) and what follows it, up to the next such heading or a rule. The opening before the
 * first heading and the closing after a rule stay where they are.
 */
export interface Section {
  title: string;
  /** Top-level child indexes [start, end). */
  start: number;
  end: number;
  /** Document positions of the section. */
  from: number;
  to: number;
}

const startsSection = (node: PMNode) => node.type === heading && Number(node.attrs.level) <= 2;

export function sectionsOf(doc: PMNode): Section[] {
  const sections: Section[] = [];
  let current: Section | null = null;
  doc.forEach((node, offset, index) => {
    if (startsSection(node) || node.type === rule) {
      if (current) sections.push({ ...current, end: index, to: offset });
      current = startsSection(node)
        ? { title: node.textContent || 'Untitled section', start: index, end: index, from: offset, to: offset }
        : null;
    }
  });
  if (current) sections.push({ ...(current as Section), end: doc.childCount, to: doc.content.size });
  return sections;
}

/** Puts section `from` where section `to` is (both indexes into sectionsOf), keeping the cursor inside it. */
export function moveSection(state: EditorState, from: number, to: number): Transaction | null {
  const sections = sectionsOf(state.doc);
  const moving = sections[from];
  const target = sections[to];
  if (!moving || !target || from === to) return null;
  const slice = state.doc.slice(moving.from, moving.to);
  const tr = state.tr.delete(moving.from, moving.to);
  const insertAt = to < from ? target.from : tr.mapping.map(target.to);
  tr.insert(insertAt, slice.content);
  tr.setSelection(TextSelection.near(tr.doc.resolve(insertAt + 1)));
  return tr.scrollIntoView();
}

/** The section the cursor is in, as an index into sectionsOf, or -1. */
export function sectionAt(state: EditorState): number {
  const pos = state.selection.from;
  return sectionsOf(state.doc).findIndex((s) => pos >= s.from && pos < s.to);
}

/**
 * Moves one block a step up (-1) or down (+1): a photo, voice memo or video within its gallery
 * and out of it into its own place; any other block past its neighbour at the top level.
 */
export function moveBlock(state: EditorState, pos: number, dir: -1 | 1): Transaction | null {
  const $pos = state.doc.resolve(pos);
  const node = $pos.nodeAfter;
  if (!node) return null;
  if (node.type === media) return moveMedia(state, $pos, node, dir);
  if ($pos.depth !== 0) return null;
  const index = $pos.index();
  const other = index + dir;
  if (other < 0 || other >= state.doc.childCount) return null;
  const neighbour = state.doc.child(other);
  const tr = state.tr.delete(pos, pos + node.nodeSize);
  const insertAt = dir < 0 ? pos - neighbour.nodeSize : pos + neighbour.nodeSize;
  tr.insert(insertAt, node);
  tr.setSelection(node.isAtom ? NodeSelection.create(tr.doc, insertAt) : TextSelection.near(tr.doc.resolve(insertAt + 1)));
  return tr.scrollIntoView();
}

function moveMedia(state: EditorState, $pos: ResolvedPos, node: PMNode, dir: -1 | 1): Transaction | null {
  const parent = $pos.parent;
  const index = $pos.index();
  const pos = $pos.pos;
  const tr = state.tr;
  let insertAt: number;
  const sibling = parent.maybeChild(index + dir);
  if (sibling) {
    // Within the gallery: past the neighbour.
    tr.delete(pos, pos + node.nodeSize);
    insertAt = dir < 0 ? pos - sibling.nodeSize : pos + sibling.nodeSize;
    tr.insert(insertAt, node);
  } else {
    // Out of the gallery's end: into its own place before or after it, or past the next block.
    const galleryPos = $pos.before();
    const galleryEnd = $pos.after();
    const alone = parent.childCount === 1;
    const outside = dir < 0 ? galleryPos : galleryEnd;
    const $out = state.doc.resolve(outside);
    const neighbour = dir < 0 ? $out.nodeBefore : $out.nodeAfter;
    if (alone && !neighbour) return null;
    tr.delete(alone ? galleryPos : pos, alone ? galleryEnd : pos + node.nodeSize);
    let target = tr.mapping.map(outside, dir < 0 ? -1 : 1);
    if (alone && neighbour) target = dir < 0 ? target - neighbour.nodeSize : target + neighbour.nodeSize;
    tr.insert(target, gallery.create(null, node));
    insertAt = target + 1;
  }
  tr.setSelection(NodeSelection.create(tr.doc, insertAt));
  return tr.scrollIntoView();
}

/** Removes a photo, voice memo or video, and its gallery when it was the last one in it. */
export function removeMedia(state: EditorState, pos: number): Transaction | null {
  const $pos = state.doc.resolve(pos);
  const node = $pos.nodeAfter;
  if (!node || node.type !== media) return null;
  const tr = $pos.parent.childCount === 1 ? state.tr.delete($pos.before(), $pos.after()) : state.tr.delete(pos, pos + node.nodeSize);
  return tr.scrollIntoView();
}

export function setCaption(state: EditorState, pos: number, title: string): Transaction | null {
  const node = state.doc.nodeAt(pos);
  if (!node || node.type !== media) return null;
  return state.tr.setNodeMarkup(pos, undefined, { ...node.attrs, title });
}

/** Alt+ArrowUp / Alt+ArrowDown: the selected picture, or the block the cursor is in. */
export function moveSelectedBlock(dir: -1 | 1): Command {
  return (state, dispatch) => {
    const { selection } = state;
    let pos: number;
    if (selection instanceof NodeSelection && selection.node.type === media) pos = selection.from;
    else if (selection.$from.depth >= 1) pos = selection.$from.before(1);
    else return false;
    const tr = moveBlock(state, pos, dir);
    if (!tr) return false;
    dispatch?.(tr);
    return true;
  };
}
