import { useEffect, useRef, useState } from 'react';
import { attachmentKind, attachmentProblem, type AttachmentKind } from '../lib/media-files';

export interface Attachment {
  id: string;
  file: File;
  kind: AttachmentKind;
  /** A photo's object URL for the preview, revoked when the photo leaves; null for audio and video. */
  previewUrl: string | null;
  /** A recording's length in seconds, when known. */
  seconds?: number;
}

let nextId = 0;

/** Photos, voice memos and videos picked (or recorded) for the next text: checked one by one, previewed, removable. */
export function useAttachments() {
  const [items, setItems] = useState<Attachment[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  // Previews still shown when the phone view goes away are released then.
  const shown = useRef<Attachment[]>([]);
  useEffect(() => {
    shown.current = items;
  }, [items]);
  useEffect(() => () => shown.current.forEach(release), []);

  function add(files: Iterable<File>, seconds?: number) {
    const accepted = [...items];
    const problems: string[] = [];
    for (const file of files) {
      const refused = attachmentProblem(
        file,
        accepted.map((item) => item.file.size),
      );
      const kind = attachmentKind(file);
      if (refused || !kind) problems.push(refused ?? `“${file.name}” cannot be attached.`);
      else
        accepted.push({
          id: `attachment-${++nextId}`,
          file,
          kind,
          previewUrl: kind === 'photo' ? URL.createObjectURL(file) : null,
          ...(seconds === undefined ? {} : { seconds }),
        });
    }
    setItems(accepted);
    setProblem(problems.length > 0 ? problems.join(' ') : null);
  }

  function remove(id: string) {
    const item = items.find((candidate) => candidate.id === id);
    if (item) release(item);
    setItems(items.filter((candidate) => candidate.id !== id));
    setProblem(null);
  }

  function clear() {
    items.forEach(release);
    setItems([]);
    setProblem(null);
  }

  return { items, problem, setProblem, add, remove, clear };
}

function release(item: Attachment) {
  if (item.previewUrl) URL.revokeObjectURL(item.previewUrl);
}
