import { Check, Copy, Link2 } from 'lucide-react';
import { useRef, useState } from 'react';
import type { InviteAnswer } from '@loop/shared/loops';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { inputClassName } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { useCreateInvite } from '../api/create-invite';
import { InviteJoins } from './invite-joins';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

interface Invite {
  url: string;
  expiresAt: string;
}

/** "Generate Invite Link": makes a link, copies it, and shows it in a dialog (docs/product.md#loop-detail). */
export function InviteButton({ loopId, loopName }: { loopId: number; loopName: string }) {
  const createInvite = useCreateInvite(loopId);
  const [invite, setInvite] = useState<Invite | null>(null);
  const [open, setOpen] = useState(false);

  async function generate() {
    let answer: InviteAnswer;
    try {
      answer = await createInvite.mutateAsync();
    } catch (error) {
      toastError(errorText(error), 'Failed to generate invite link');
      return;
    }
    const url = new URL(answer.inviteUrl, window.location.origin).href;
    const copied = await copyText(url);
    toast({ title: copied ? 'Link copied to clipboard!' : 'Link is ready to share!' });
    setInvite({ url, expiresAt: answer.expiresAt });
    setOpen(true);
  }

  return (
    <>
      <Button onClick={() => void generate()} busy={createInvite.isPending} icon={<Link2 aria-hidden="true" />}>
        Generate Invite Link
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          onOpenAutoFocus={(event) => {
            // Focus the copy button: selecting the whole link at once looks alarming.
            const copyButton = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>('[data-autofocus]');
            if (copyButton) {
              event.preventDefault();
              copyButton.focus();
            }
          }}
        >
          {invite && (
            <InviteDetails
              invite={invite}
              loopId={loopId}
              loopName={loopName}
              renewing={createInvite.isPending}
              onRenew={() => void generate()}
            />
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}

function InviteDetails({
  invite,
  loopId,
  loopName,
  renewing,
  onRenew,
}: {
  invite: Invite;
  loopId: number;
  loopName: string;
  renewing: boolean;
  onRenew: () => void;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'selected'>('idle');

  async function copy() {
    if (await copyText(invite.url)) {
      setCopyState('copied');
      return;
    }
    // No clipboard (permissions, an old browser): select the text for Ctrl+C instead.
    inputRef.current?.focus();
    inputRef.current?.select();
    setCopyState('selected');
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Invite people to {loopName}</DialogTitle>
        <DialogDescription>
          Anyone with this link can join the loop. Share it with the people you want in. A new link replaces the old one, which stops
          working.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <label htmlFor="invite-link" className="text-sm font-medium">
          Invite link
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            ref={inputRef}
            id="invite-link"
            readOnly
            value={invite.url}
            onFocus={(event) => event.currentTarget.select()}
            className={`${inputClassName} font-mono text-sm sm:text-sm`}
          />
          <Button variant={copyState === 'idle' ? 'default' : 'secondary'} onClick={() => void copy()} className="sm:w-36" data-autofocus>
            {copyState === 'copied' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            {copyState === 'copied' ? 'Copied!' : copyState === 'selected' ? 'Link Selected' : 'Copy Link'}
          </Button>
        </div>
        <p aria-live="polite" className="text-sm font-medium text-secondary-foreground empty:hidden">
          {copyState === 'selected' && 'Press Ctrl+C (or ⌘+C) to copy the selected link.'}
        </p>
        <p className="text-sm text-muted-foreground">This link expires on {formatDateTime(invite.expiresAt)}.</p>
      </div>
      <InviteJoins loopId={loopId} />
      <DialogFooter>
        <Button variant="outline" busy={renewing} onClick={onRenew}>
          Make a new link
        </Button>
        <DialogClose asChild>
          <Button variant="outline">Done</Button>
        </DialogClose>
      </DialogFooter>
    </>
  );
}
