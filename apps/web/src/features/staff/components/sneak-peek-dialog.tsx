import { Sparkles } from 'lucide-react';
import { useState } from 'react';
import { TextCost } from '@/components/text-cost';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useSendSneakPeek, useSneakPeekPreview } from '../api/send-sneak-peek';

/**
 * "Send Sneak Peek...": shows the exact text, who gets it and how many texts it costs, and sends
 * only when confirmed (decision 0042; the SPEC's button texted everyone at one click).
 */
export function SneakPeekDialog({ loopId, disabled }: { loopId: number; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const preview = useSneakPeekPreview(loopId, open);
  const send = useSendSneakPeek(loopId);

  function confirm() {
    send.mutate(undefined, {
      onSuccess: () => {
        toast({ title: 'Sneak Peek Generated', description: 'The sneak peek has been generated and sent to all members.' });
        setOpen(false);
      },
      onError: (error) => toastError(errorText(error), 'Failed to generate sneak peek'),
    });
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !send.isPending && setOpen(next)}>
      <DialogTrigger asChild>
        <Button variant="secondary" disabled={disabled} icon={<Sparkles aria-hidden="true" />}>
          Send Sneak Peek...
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Send a sneak peek?</DialogTitle>
          <DialogDescription>A teaser of the updates so far goes to every member at once, by text.</DialogDescription>
        </DialogHeader>
        {preview.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : preview.isError ? (
          <p role="alert" className="rounded-lg bg-muted p-4 text-sm">
            {errorText(preview.error) || 'The sneak peek could not be prepared.'}
          </p>
        ) : (
          <TextCost cost={preview.data} note="The link is made when you send it." />
        )}
        <DialogFooter>
          <Button type="button" variant="outline" disabled={send.isPending} onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            type="button"
            disabled={!preview.isSuccess || preview.data.recipients === 0}
            busy={send.isPending}
            icon={<Sparkles aria-hidden="true" />}
            onClick={confirm}
          >
            {send.isPending
              ? 'Generating Sneak Peek...'
              : preview.isSuccess
                ? `Send to ${preview.data.recipients} ${preview.data.recipients === 1 ? 'person' : 'people'}`
                : 'Send'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
