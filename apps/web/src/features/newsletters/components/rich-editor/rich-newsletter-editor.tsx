import { ArrowDown, ArrowUp, Bold, GripVertical, Heading2, Italic, Link2, List, ListOrdered, Redo2, Undo2 } from 'lucide-react';
import { baseKeymap, setBlockType, toggleMark } from 'prosemirror-commands';
import { dropCursor } from 'prosemirror-dropcursor';
import { history, redo, undo } from 'prosemirror-history';
import { keymap } from 'prosemirror-keymap';
import type { MarkType } from 'prosemirror-model';
import { liftListItem, sinkListItem, splitListItem, wrapInList } from 'prosemirror-schema-list';
import { EditorState, type Command } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { isAllowedNewsletterUrl } from '@loop/shared/newsletter-paths';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';
import { moveSection, moveSelectedBlock, sectionAt, sectionsOf, type Section } from './editor-commands';
import { MediaInfoStore, MediaView, type MediaInfo } from './media-view';
import { marks, nodes, parseNewsletter, serializeNewsletter } from './newsletter-markdown';
import 'prosemirror-view/style/prosemirror.css';
import './rich-editor.css';

const { strong, em, link } = marks;
const { heading, paragraph, bulletList, orderedList, listItem } = nodes;

export interface RichNewsletterEditorProps {
  /** The stored Markdown it starts from; later changes of it are not applied (the editor owns the text). */
  initialMarkdown: string;
  /** Called with the Markdown after every change. */
  onChange: (markdown: string) => void;
  /** What each /media/ picture is (from the preview call), to draw voice memos and videos as players. */
  media?: MediaInfo;
  readOnly?: boolean;
  /** The editable area's accessible name. */
  label: string;
}

/**
 * The visual newsletter editor (decision 0041): ProseMirror over the stored Markdown, with a
 * toolbar (headings, bold, italic, lists, links, undo), a list of sections to reorder by drag or
 * by buttons, photos, voice memos and videos drawn as themselves, and Alt+ArrowUp/Down to move
 * the block the cursor is in. Loaded lazily: none of it is in the public pages' JavaScript.
 */
export default function RichNewsletterEditor({ initialMarkdown, onChange, media, readOnly = false, label }: RichNewsletterEditorProps) {
  const mountRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const [mediaStore] = useState(() => new MediaInfoStore());
  const [state, setState] = useState<EditorState | null>(null);
  const doc = state?.doc ?? null;
  const [announcement, setAnnouncement] = useState('');
  const [linkOpen, setLinkOpen] = useState(false);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const mount = mountRef.current;
    if (!mount) return;
    const state = EditorState.create({
      doc: parseNewsletter(initialMarkdown),
      plugins: [
        history(),
        keymap({
          'Mod-z': undo,
          'Shift-Mod-z': redo,
          'Mod-y': redo,
          'Mod-b': toggleMark(strong),
          'Mod-i': toggleMark(em),
          'Alt-ArrowUp': moveSelectedBlock(-1),
          'Alt-ArrowDown': moveSelectedBlock(1),
          Enter: splitListItem(listItem),
          Tab: sinkListItem(listItem),
          'Shift-Tab': liftListItem(listItem),
        }),
        keymap(baseKeymap),
        dropCursor(),
      ],
    });
    const view = new EditorView(mount, {
      state,
      editable: () => !readOnly,
      nodeViews: { media: (node, v, getPos) => new MediaView(node, v, getPos, mediaStore) },
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        class: 'rich-editor-content content',
        spellcheck: 'true',
      },
      dispatchTransaction(tr) {
        const next = view.state.apply(tr);
        view.updateState(next);
        setState(next);
        if (tr.docChanged) onChangeRef.current(serializeNewsletter(next.doc));
      },
    });
    viewRef.current = view;
    setState(view.state);
    return () => {
      view.destroy();
      viewRef.current = null;
    };
    // The editor is made once per mount: the Markdown it starts from is not followed afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Once the server says what each picture is, the pictures redraw themselves (a voice memo as its player).
  const mediaKey = JSON.stringify(media ?? null);
  useEffect(() => {
    mediaStore.set(media);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mediaKey, mediaStore]);

  function run(command: Command) {
    const view = viewRef.current;
    if (!view) return;
    command(view.state, view.dispatch);
    view.focus();
  }

  function moveSectionTo(from: number, to: number) {
    const view = viewRef.current;
    const sections = doc ? sectionsOf(doc) : [];
    if (!view || to < 0 || to >= sections.length) return;
    const tr = moveSection(view.state, from, to);
    if (!tr) return;
    view.dispatch(tr);
    setAnnouncement(`${sections[from]?.title ?? 'Section'} moved to position ${to + 1} of ${sections.length}.`);
  }

  const markActive = (type: MarkType) => {
    if (!state) return false;
    const { from, $from, to, empty } = state.selection;
    return empty ? Boolean(type.isInSet(state.storedMarks ?? $from.marks())) : state.doc.rangeHasMark(from, to, type);
  };
  const headingActive = state?.selection.$from.parent.type === heading;
  const sections = doc ? sectionsOf(doc) : [];
  const current = state ? sectionAt(state) : -1;

  return (
    <div className="rich-editor grid gap-3">
      {!readOnly && (
        <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-1 rounded-lg border bg-muted/40 p-1">
          <ToolButton
            label="Heading"
            pressed={headingActive}
            onClick={() => run(headingActive ? setBlockType(paragraph) : setBlockType(heading, { level: 2 }))}
          >
            <Heading2 />
          </ToolButton>
          <ToolButton label="Bold" pressed={markActive(strong)} onClick={() => run(toggleMark(strong))}>
            <Bold />
          </ToolButton>
          <ToolButton label="Italic" pressed={markActive(em)} onClick={() => run(toggleMark(em))}>
            <Italic />
          </ToolButton>
          <ToolButton label="Bulleted list" onClick={() => run(wrapInList(bulletList))}>
            <List />
          </ToolButton>
          <ToolButton label="Numbered list" onClick={() => run(wrapInList(orderedList))}>
            <ListOrdered />
          </ToolButton>
          <ToolButton label="Link" pressed={markActive(link)} expanded={linkOpen} onClick={() => setLinkOpen((open) => !open)}>
            <Link2 />
          </ToolButton>
          <ToolButton label="Move block up (Alt+Up)" onClick={() => run(moveSelectedBlock(-1))}>
            <ArrowUp />
          </ToolButton>
          <ToolButton label="Move block down (Alt+Down)" onClick={() => run(moveSelectedBlock(1))}>
            <ArrowDown />
          </ToolButton>
          <ToolButton label="Undo" onClick={() => run(undo)}>
            <Undo2 />
          </ToolButton>
          <ToolButton label="Redo" onClick={() => run(redo)}>
            <Redo2 />
          </ToolButton>
        </div>
      )}
      {linkOpen && !readOnly && (
        <LinkForm
          onApply={(href) => {
            run(href ? toggleLink(href) : removeLink);
            setLinkOpen(false);
          }}
          onCancel={() => {
            setLinkOpen(false);
            viewRef.current?.focus();
          }}
        />
      )}
      <div ref={mountRef} className="rich-editor-mount" />
      {!readOnly && sections.length > 1 && <SectionList sections={sections} current={current} onMove={moveSectionTo} />}
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
    </div>
  );
}

function ToolButton({
  label,
  pressed,
  expanded,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  expanded?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      aria-expanded={expanded}
      className={cn('size-9', pressed && 'bg-accent text-accent-foreground')}
      // Keep the editor's selection: the press acts on it.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

/** Links are checked as the page checks them (isAllowedNewsletterUrl): the web, or our own /media. */
function LinkForm({ onApply, onCancel }: { onApply: (href: string) => void; onCancel: () => void }) {
  const id = useId();
  const [href, setHref] = useState('');
  const [error, setError] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    const value = href.trim();
    if (value && !isAllowedNewsletterUrl(value)) {
      setError('A link must start with https:// or http:// (or be one of this newsletter’s /media/ files).');
      return;
    }
    onApply(value);
  }
  return (
    <div className="grid gap-2 rounded-lg border p-3">
      <Label htmlFor={id}>Link address</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={id}
          type="url"
          inputMode="url"
          autoFocus
          placeholder="https://"
          value={href}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setHref(event.target.value);
            setError('');
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') onCancel();
            if (event.key === 'Enter') submit(event);
          }}
        />
        <div className="flex gap-2">
          <Button size="sm" onClick={submit}>
            Apply Link
          </Button>
          <Button size="sm" variant="outline" onClick={() => onApply('')}>
            Remove Link
          </Button>
          <Button size="sm" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

const toggleLink =
  (href: string): Command =>
  (state, dispatch) => {
    const { from, to, empty } = state.selection;
    if (empty) {
      dispatch?.(state.tr.insertText(href, from).addMark(from, from + href.length, link.create({ href })));
      return true;
    }
    dispatch?.(state.tr.removeMark(from, to, link).addMark(from, to, link.create({ href })));
    return true;
  };

const removeLink: Command = (state, dispatch) => {
  const { from, to } = state.selection;
  dispatch?.(state.tr.removeMark(from, to, link));
  return true;
};

/** The newsletter's sections: drag a row, or use its buttons, to reorder them. */
function SectionList({ sections, current, onMove }: { sections: Section[]; current: number; onMove: (from: number, to: number) => void }) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const headingId = useId();
  const listRef = useRef<HTMLOListElement>(null);
  // The keyboard stays on the moved section's button (or its other arrow at the end of the list).
  function move(from: number, to: number, label: string, other: string) {
    onMove(from, to);
    requestAnimationFrame(() => {
      const find = (name: string) =>
        [...(listRef.current?.querySelectorAll('button') ?? [])].find((b) => b.getAttribute('aria-label') === name);
      const again = find(label);
      (again && !again.disabled ? again : find(other))?.focus();
    });
  }
  return (
    <section aria-labelledby={headingId} className="grid gap-2 rounded-lg border p-3">
      <h2 id={headingId} className="text-sm font-semibold">
        Sections <span className="font-normal text-muted-foreground">(drag, or use the arrows, to reorder)</span>
      </h2>
      <ol ref={listRef} className="grid gap-1">
        {sections.map((section, index) => (
          <li
            key={`${section.title}-${section.from}`}
            draggable
            onDragStart={(event) => {
              setDragging(index);
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', section.title);
            }}
            onDragOver={(event) => {
              if (dragging === null) return;
              event.preventDefault();
              setOver(index);
            }}
            onDragLeave={() => setOver(null)}
            onDrop={(event) => {
              event.preventDefault();
              if (dragging !== null) onMove(dragging, index);
              setDragging(null);
              setOver(null);
            }}
            onDragEnd={() => {
              setDragging(null);
              setOver(null);
            }}
            aria-current={index === current ? 'true' : undefined}
            className={cn(
              'flex min-w-0 items-center gap-2 rounded-md border bg-card px-2 py-1 text-sm',
              index === current && 'border-primary',
              over === index && 'ring-2 ring-ring',
            )}
          >
            <GripVertical aria-hidden="true" className="size-4 shrink-0 cursor-grab text-muted-foreground" />
            <span className="min-w-0 flex-1 truncate">{section.title}</span>
            <Button
              variant="ghost"
              size="icon"
              className="size-9"
              aria-label={`Move ${section.title} up`}
              disabled={index === 0}
              onClick={() => move(index, index - 1, `Move ${section.title} up`, `Move ${section.title} down`)}
            >
              <ArrowUp />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              className="size-9"
              aria-label={`Move ${section.title} down`}
              disabled={index === sections.length - 1}
              onClick={() => move(index, index + 1, `Move ${section.title} down`, `Move ${section.title} up`)}
            >
              <ArrowDown />
            </Button>
          </li>
        ))}
      </ol>
    </section>
  );
}
