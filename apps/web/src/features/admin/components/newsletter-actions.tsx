import { Newspaper, Sparkles } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useGenerateNewsletter } from '../api/generate-newsletter';
import { useSendSneakPeek } from '../api/send-sneak-peek';

/** "Generate Sneak Peek" (written and texted at once) and "Generate Newsletter" (a draft, then the editor). */
export function NewsletterActions({ loopId }: { loopId: number }) {
  const navigate = useNavigate();
  const generate = useGenerateNewsletter(loopId);
  const sneakPeek = useSendSneakPeek(loopId);
  const busy = generate.isPending || sneakPeek.isPending;

  function generateNewsletter() {
    generate.mutate(undefined, {
      onSuccess: (newsletterId) => {
        toast({ title: 'Newsletter Generated', description: 'The newsletter has been generated and saved as a draft.' });
        void navigate(`/admin/loops/${loopId}/newsletters/${newsletterId}`);
      },
      onError: (error) => toastError(errorText(error), 'Failed to generate newsletter'),
    });
  }

  function generateSneakPeek() {
    sneakPeek.mutate(undefined, {
      onSuccess: () => toast({ title: 'Sneak Peek Generated', description: 'The sneak peek has been generated and sent to all members.' }),
      onError: (error) => toastError(errorText(error), 'Failed to generate sneak peek'),
    });
  }

  return (
    <>
      <Button
        variant="secondary"
        disabled={busy}
        busy={sneakPeek.isPending}
        icon={<Sparkles aria-hidden="true" />}
        onClick={generateSneakPeek}
      >
        {sneakPeek.isPending ? 'Generating Sneak Peek...' : 'Generate Sneak Peek'}
      </Button>
      <Button disabled={busy} busy={generate.isPending} icon={<Newspaper aria-hidden="true" />} onClick={generateNewsletter}>
        {generate.isPending ? 'Generating...' : 'Generate Newsletter'}
      </Button>
    </>
  );
}
