import { MessageSquareText, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import type { LoopDetail, LoopUpdate } from '@loop/shared/loops';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useIsSimulatorMode } from '@/lib/app-config';
import { useSignedInUser } from '@/lib/current-user';
import { formatDateTime } from '@/lib/format-date';
import { useDeleteUpdate } from '../api/delete-update';
import { ClipPlayer } from '@/components/clip-player';
import { PhotoTile } from '@/components/photo-tile';

/** How wide a grid tile is drawn: half a phone's width, a third from sm, a quarter from lg. */
const GRID_SIZES = '(min-width: 64rem) 15rem, (min-width: 40rem) 30vw, 50vw';

/** The Updates tab: what members texted in, newest first. */
export function UpdateList({ loop }: { loop: LoopDetail }) {
  const user = useSignedInUser();
  const simulatorMode = useIsSimulatorMode();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent Updates</CardTitle>
        <p className="text-sm text-muted-foreground">Members text their news and photos to Loop at any time.</p>
      </CardHeader>
      <CardContent>
        {loop.updates.length === 0 ? (
          <div className="grid gap-2 rounded-lg bg-muted p-4 text-muted-foreground">
            <p className="flex items-center gap-2">
              <MessageSquareText aria-hidden="true" className="size-5" />
              No updates yet.
            </p>
            {simulatorMode && (
              <p className="pl-7 text-sm">
                Try it without a real phone:{' '}
                <Link to="/simulator" className="font-semibold text-primary underline-offset-4 hover:underline">
                  text as a member in the Phone Simulator
                </Link>
                .
              </p>
            )}
          </div>
        ) : (
          <ul className="grid gap-4">
            {loop.updates.map((update) => (
              <UpdateItem
                key={update.id}
                loopId={loop.id}
                update={update}
                canDelete={loop.role !== 'member' || update.userId === user.id}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function UpdateItem({ loopId, update, canDelete }: { loopId: number; update: LoopUpdate; canDelete: boolean }) {
  const deleteUpdate = useDeleteUpdate(loopId);
  const author = `${update.user.firstName} ${update.user.lastName}`;
  return (
    <li className="grid gap-3 rounded-xl border p-4">
      <div className="flex items-start justify-between gap-3">
        <div className="grid min-w-0 gap-0.5">
          <p className="font-semibold break-words">{author}</p>
          <time dateTime={update.createdAt} className="text-sm text-muted-foreground">
            {formatDateTime(update.createdAt)}
          </time>
        </div>
        {canDelete && (
          <ConfirmDialog
            trigger={
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Delete update from ${author}`}
                className="-mt-1 -mr-2 text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
              >
                <Trash2 aria-hidden="true" />
              </Button>
            }
            title="Delete this update?"
            description={
              update.clips.length > 0
                ? 'The update, its photos, voice memos and videos (with their transcripts) are deleted for good and will not appear in newsletters.'
                : 'The update and its photos are deleted for good and will not appear in newsletters.'
            }
            confirmLabel="Delete"
            onConfirm={() =>
              deleteUpdate.mutateAsync(update.id).then(
                () => toast({ title: 'Update deleted successfully' }),
                (error: unknown) => {
                  toastError(errorText(error), 'Failed to delete update');
                  throw error;
                },
              )
            }
          />
        )}
      </div>
      {update.content && <p className="whitespace-pre-wrap break-words">{update.content}</p>}
      {update.clips.map((clip) => (
        <ClipPlayer key={clip.url} clip={clip} author={author} />
      ))}
      {update.photos.length > 0 && (
        <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4">
          {update.photos.map((photo, index) => (
            <li key={photo.url}>
              <PhotoTile photo={photo} sizes={GRID_SIZES} label={`Photo ${index + 1} from ${author}`} />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
