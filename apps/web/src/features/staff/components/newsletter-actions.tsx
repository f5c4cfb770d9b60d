import { Newspaper } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useGenerateNewsletter } from '../api/generate-newsletter';
import { SneakPeekDialog } from './sneak-peek-dialog';

/** "Send Sneak Peek..." (shown, then texted when confirmed) and "Generate Newsletter" (a draft, then the editor). */
export function NewsletterActions({ loopId }: { loopId: number }) {
  const navigate = useNavigate();
  const generate = useGenerateNewsletter(loopId);

  function generateNewsletter() {
    generate.mutate(undefined, {
      onSuccess: (newsletterId) => {
        toast({ title: 'Newsletter Generated', description: 'The newsletter has been generated and saved as a draft.' });
        void navigate(`/admin/loops/${loopId}/newsletters/${newsletterId}`);
      },
      onError: (error) => toastError(errorText(error), 'Failed to generate newsletter'),
    });
  }

  return (
    <>
      <SneakPeekDialog loopId={loopId} disabled={generate.isPending} />
      <Button busy={generate.isPending} icon={<Newspaper aria-hidden="true" />} onClick={generateNewsletter}>
        {generate.isPending ? 'Generating...' : 'Generate Newsletter'}
      </Button>
    </>
  );
}
