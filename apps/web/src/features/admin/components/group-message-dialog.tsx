import { MessageSquare } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { LIMITS } from '@loop/shared/constants';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useSendGroupMessage } from '../api/send-group-message';

interface GroupMessageDialogProps {
  loopId: number;
  loopName: string;
  memberCount: number;
}

/** "Send Group Message": one text to every member of the Loop. Closing the dialog clears it. */
export function GroupMessageDialog({ loopId, loopName, memberCount }: GroupMessageDialogProps) {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const send = useSendGroupMessage(loopId);
  const fieldId = useId();
  const blank = message.trim() === '';

  function changeOpen(next: boolean) {
    if (send.isPending) return;
    setOpen(next);
    if (!next) setMessage('');
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // docs/product.md#input-rules: a message that is blank once trimmed sends nothing.
    const text = message.trim();
    if (!text || send.isPending) return;
    send.mutate(text, {
      onSuccess: ({ queued }) => {
        toast({ title: 'Messages sent successfully!', description: `${queued} ${queued === 1 ? 'text is' : 'texts are'} on the way.` });
        setOpen(false);
        setMessage('');
      },
      onError: (error) => toastError(errorText(error), 'Failed to send messages'),
    });
  }

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <MessageSquare aria-hidden="true" />
          Send Group Message
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Send Message to All Members</DialogTitle>
          <DialogDescription>
            This message will be sent to all {memberCount} members of {loopName}.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-5">
          <div className="grid gap-2">
            <Label htmlFor={fieldId}>Message</Label>
            <Textarea
              id={fieldId}
              required
              rows={5}
              maxLength={LIMITS.message}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              placeholder="Type the text every member will get"
            />
            <p className="text-right text-xs text-muted-foreground tabular-nums">
              {message.length} / {LIMITS.message}
            </p>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={send.isPending} onClick={() => changeOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={blank} busy={send.isPending}>
              {send.isPending ? 'Sending...' : 'Send Message'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
