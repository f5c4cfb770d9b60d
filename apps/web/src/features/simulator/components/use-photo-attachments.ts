import { useEffect, useRef, useState } from 'react';
import { photoProblem } from './photo-files';

export interface Attachment {
  id: string;
  file: File;
  /** An object URL for the preview, revoked when the photo leaves. */
  previewUrl: string;
}

let nextId = 0;

/** Photos picked for the next text: checked one by one, previewed, removable. */
export function usePhotoAttachments() {
  const [photos, setPhotos] = useState<Attachment[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  // Previews still shown when the phone view goes away are released then.
  const shown = useRef<Attachment[]>([]);
  useEffect(() => {
    shown.current = photos;
  }, [photos]);
  useEffect(() => () => shown.current.forEach((photo) => URL.revokeObjectURL(photo.previewUrl)), []);

  function add(files: Iterable<File>) {
    const accepted = [...photos];
    const problems: string[] = [];
    for (const file of files) {
      const refused = photoProblem(file, accepted.map((photo) => photo.file.size));
      if (refused) problems.push(refused);
      else accepted.push({ id: `photo-${++nextId}`, file, previewUrl: URL.createObjectURL(file) });
    }
    setPhotos(accepted);
    setProblem(problems.length > 0 ? problems.join(' ') : null);
  }

  function remove(id: string) {
    const photo = photos.find((item) => item.id === id);
    if (photo) URL.revokeObjectURL(photo.previewUrl);
    setPhotos(photos.filter((item) => item.id !== id));
    setProblem(null);
  }

  function clear() {
    photos.forEach((photo) => URL.revokeObjectURL(photo.previewUrl));
    setPhotos([]);
    setProblem(null);
  }

  return { photos, problem, add, remove, clear };
}
