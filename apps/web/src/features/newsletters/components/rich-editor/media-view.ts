import type { Node as PMNode } from 'prosemirror-model';
import type { EditorView, NodeView } from 'prosemirror-view';
import type { RenderNewsletterAnswer } from '@loop/shared/newsletters';
import { guessMediaKind, type MediaKind } from './newsletter-markdown';
import { moveBlock, removeMedia, setCaption } from './editor-commands';

export type MediaInfo = RenderNewsletterAnswer['media'];

/** What the server said each picture is, shared by the editor's media views; they redraw their frame when it changes. */
export class MediaInfoStore {
  current: MediaInfo | undefined = undefined;
  private listeners = new Set<() => void>();
  set(next: MediaInfo | undefined) {
    this.current = next;
    for (const listener of this.listeners) listener();
  }
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

const KIND_NAME: Record<MediaKind, string> = { photo: 'Photo', audio: 'Voice memo', video: 'Video' };

/**
 * A photo, voice memo or video in the editor, drawn as itself (the picture, or a player as on the
 * page) with its caption field and buttons to move it up or down and remove it. Built by hand, so
 * ProseMirror keeps the element; the buttons and field are ordinary controls for keyboards and
 * screen readers.
 */
export class MediaView implements NodeView {
  dom: HTMLElement;
  private caption: HTMLInputElement;
  private node: PMNode;

  private frame: HTMLElement;
  private captionLabel: HTMLLabelElement;
  private actions: HTMLElement;
  private drawn = '';
  private unsubscribe: () => void;

  constructor(
    node: PMNode,
    private view: EditorView,
    private getPos: () => number | undefined,
    private store: MediaInfoStore,
  ) {
    this.node = node;
    const dom = el('figure', 'rich-media');
    dom.setAttribute('role', 'group');
    dom.contentEditable = 'false';
    this.frame = el('div', 'rich-media-frame');
    this.frame.draggable = true;
    this.frame.title = 'Drag to move';
    dom.append(this.frame);

    const captionId = `caption-${Math.random().toString(36).slice(2)}`;
    this.captionLabel = el('label', 'rich-media-label');
    this.captionLabel.htmlFor = captionId;
    this.caption = document.createElement('input');
    this.caption.id = captionId;
    this.caption.type = 'text';
    this.caption.className = 'rich-media-caption';
    this.caption.value = String(node.attrs.title ?? '');
    this.caption.placeholder = 'Add a caption';
    this.caption.maxLength = 300;
    this.caption.addEventListener('input', () => this.run((pos) => setCaption(this.view.state, pos, this.caption.value)));

    this.actions = el('div', 'rich-media-actions');
    const under = el('figcaption', 'rich-media-under');
    under.append(this.captionLabel, this.caption, this.actions);
    dom.append(under);
    this.dom = dom;
    this.draw();
    // The server's answer may come later (or change): only the picture is redrawn, the caption field stays.
    this.unsubscribe = store.subscribe(() => this.draw());
  }

  /** The picture or player, its group name and its buttons, from what is known about it now. */
  private draw() {
    const src = String(this.node.attrs.src);
    const alt = String(this.node.attrs.alt ?? '');
    const media = this.store.current;
    const known = media?.[src];
    // A /media/ picture the server does not know (deleted, another Loop's) is left out of the page: say so.
    const missing = media !== undefined && src.startsWith('/media/') && !known;
    const kind = known?.kind ?? guessMediaKind(src, alt);
    const key = JSON.stringify([src, alt, kind, missing, known?.poster ?? null, known?.preview ?? null]);
    if (key === this.drawn) return;
    this.drawn = key;
    const name = alt || KIND_NAME[kind];
    this.dom.setAttribute('aria-label', `${KIND_NAME[kind]}: ${name}`);
    this.dom.dataset.kind = kind;
    this.frame.replaceChildren();
    if (missing) {
      this.frame.append(
        el('p', 'rich-media-missing', `This ${KIND_NAME[kind].toLowerCase()} is no longer available and will be left out.`),
      );
    } else if (kind === 'audio') {
      const audio = document.createElement('audio');
      audio.controls = true;
      audio.preload = 'none';
      audio.src = src;
      audio.setAttribute('aria-label', name);
      this.frame.append(audio);
    } else if (kind === 'video') {
      const video = document.createElement('video');
      video.controls = true;
      video.preload = 'none';
      video.playsInline = true;
      video.src = src;
      if (known?.poster) video.poster = known.poster;
      video.setAttribute('aria-label', name);
      this.frame.append(video);
    } else {
      const img = document.createElement('img');
      // One of the photo's stored smaller sizes, never the largest: until the server says which, none.
      const shown = src.startsWith('/media/') ? known?.preview : src;
      if (shown) img.src = shown;
      img.alt = alt;
      img.loading = 'lazy';
      this.frame.append(img);
    }
    this.captionLabel.textContent = `Caption for ${name}`;
    // A sent newsletter is read-only: its captions can be read, nothing moves.
    this.caption.readOnly = !this.view.editable;
    if (!this.view.editable) {
      this.actions.replaceChildren();
      return;
    }
    this.actions.replaceChildren(
      button(`Move ${name} up`, '↑', () => this.run((pos) => moveBlock(this.view.state, pos, -1), true)),
      button(`Move ${name} down`, '↓', () => this.run((pos) => moveBlock(this.view.state, pos, 1), true)),
      button(`Remove ${name}`, 'Remove', () => this.run((pos) => removeMedia(this.view.state, pos))),
    );
  }

  destroy() {
    this.unsubscribe();
  }

  private run(make: (pos: number) => ReturnType<typeof setCaption>, refocus = false) {
    const pos = this.getPos();
    if (pos === undefined) return;
    const tr = make(pos);
    if (!tr) return;
    this.view.dispatch(tr);
    if (refocus) {
      // Keep the keyboard on the moved item's same button, wherever it went.
      const label = (document.activeElement as HTMLElement | null)?.getAttribute('aria-label');
      const moved = this.view.nodeDOM(this.view.state.selection.from) as HTMLElement | null;
      const again = [...(moved?.querySelectorAll('button') ?? [])].find((b) => b.getAttribute('aria-label') === label);
      again?.focus();
    }
  }

  update(node: PMNode): boolean {
    if (node.type !== this.node.type || node.attrs.src !== this.node.attrs.src || node.attrs.alt !== this.node.attrs.alt) return false;
    this.node = node;
    const title = String(node.attrs.title ?? '');
    if (this.caption.value !== title) this.caption.value = title;
    return true;
  }

  /** The caption field and buttons handle their own events; the frame can be dragged. */
  stopEvent(event: Event): boolean {
    const target = event.target as HTMLElement | null;
    if (event.type.startsWith('drag')) return !target?.closest('.rich-media-frame');
    return Boolean(target?.closest('input, button, audio, video'));
  }

  ignoreMutation(): boolean {
    return true;
  }
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text) node.textContent = text;
  return node;
}

function button(label: string, text: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', 'rich-media-button', text);
  b.type = 'button';
  b.setAttribute('aria-label', label);
  b.addEventListener('click', onClick);
  return b;
}
