import { useId, useState, type ChangeEvent } from 'react';
import { ImageIcon, Trash2, Upload } from 'lucide-react';
import type { LoopDetail } from '@loop/shared/loops';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useRemoveLoopCover, useSetLoopCover } from '../api/loop-cover';

/** The largest photo the server takes as a cover, as texts may carry. */
const MAX_BYTES = 5 * 1024 * 1024;
/** How many of the newest updates' photos are offered to choose from. */
const CHOICES = 12;

/** A file's bytes as base64, without the data: URL's prefix. */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(new Error('The photo could not be read.'));
    reader.readAsDataURL(file);
  });
}

/**
 * Settings tab: the Loop's cover photo, shown at the top of each newsletter's page, its e-mail and
 * its print view. The owner, co-organizers and staff choose one of the updates' photos or upload
 * one, describe it and remove it; members see it.
 */
export function LoopCoverSetting({ loop }: { loop: LoopDetail }) {
  const id = useId();
  const set = useSetLoopCover(loop.id);
  const remove = useRemoveLoopCover(loop.id);
  const [alt, setAlt] = useState(loop.cover?.alt ?? '');
  const canEdit = loop.role !== 'member';
  const busy = set.isPending || remove.isPending;
  const cover = loop.cover ?? null;
  const photos = loop.updates.flatMap((u) => u.photos).slice(0, CHOICES);
  const described = alt.trim() ? { alt: alt.trim() } : {};

  async function choose(input: { mediaUrl: string } | { photo: string }) {
    try {
      await set.mutateAsync({ ...input, ...described });
      toast({ title: 'Cover photo saved', description: 'It shows at the top of each newsletter.' });
    } catch (error) {
      toastError(errorText(error), 'Could not set the cover photo');
    }
  }
  async function describe() {
    try {
      await set.mutateAsync({ alt: alt.trim() });
      toast({ title: 'Description saved' });
    } catch (error) {
      toastError(errorText(error), 'Could not save the description');
    }
  }
  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > MAX_BYTES) {
      toastError('The photo is larger than 5 MB: choose a smaller one.', 'Could not set the cover photo');
      return;
    }
    await choose({ photo: await readBase64(file) });
  }
  async function takeAway() {
    try {
      await remove.mutateAsync();
      setAlt('');
      toast({ title: 'Cover photo removed' });
    } catch (error) {
      toastError(errorText(error), 'Could not remove the cover photo');
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Cover photo</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {cover ? (
          <img
            src={cover.url}
            width={cover.width}
            height={cover.height}
            alt={cover.alt}
            className="max-h-56 w-full rounded-xl object-cover"
          />
        ) : (
          <p className="flex items-center gap-2 rounded-lg bg-muted p-4 text-sm text-muted-foreground">
            <ImageIcon aria-hidden="true" className="size-5 shrink-0" />
            No cover photo yet. It shows at the top of each newsletter: on its page, in the e-mail and when printed.
          </p>
        )}
        {canEdit && (
          <>
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-alt`}>Description (for people who can’t see the photo)</Label>
              <Input
                id={`${id}-alt`}
                value={alt}
                maxLength={200}
                placeholder={`Cover photo of ${loop.name}`}
                onChange={(event) => setAlt(event.target.value)}
              />
            </div>
            {photos.length > 0 && (
              <fieldset className="grid gap-2">
                <legend className="mb-1 text-sm font-medium">Choose one of the updates’ photos</legend>
                <ul className="grid grid-cols-3 gap-2 sm:grid-cols-6">
                  {photos.map((photo, i) => (
                    <li key={photo.url}>
                      <button
                        type="button"
                        disabled={busy}
                        aria-pressed={cover?.url === photo.url}
                        aria-label={`Use photo ${i + 1} as the cover`}
                        onClick={() => void choose({ mediaUrl: photo.url })}
                        className="block aspect-square w-full overflow-hidden rounded-lg border-2 border-transparent focus-visible:border-ring aria-pressed:border-primary disabled:opacity-60"
                      >
                        <img src={`${photo.url}/${photo.widths[0] ?? ''}`} alt="" loading="lazy" className="size-full object-cover" />
                      </button>
                    </li>
                  ))}
                </ul>
              </fieldset>
            )}
            <div className="flex flex-wrap gap-2">
              <Button asChild variant="outline" disabled={busy}>
                <label htmlFor={`${id}-file`} className="cursor-pointer">
                  <Upload aria-hidden="true" />
                  Upload a photo
                </label>
              </Button>
              <input
                id={`${id}-file`}
                type="file"
                accept="image/*"
                className="sr-only"
                disabled={busy}
                onChange={(event) => void upload(event)}
              />
              {cover && (
                <>
                  <Button variant="outline" disabled={busy} onClick={() => void describe()}>
                    Save description
                  </Button>
                  <Button variant="outline" disabled={busy} onClick={() => void takeAway()}>
                    <Trash2 aria-hidden="true" />
                    Remove cover
                  </Button>
                </>
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
