import { useId } from 'react';
import type { LoopDetail } from '@loop/shared/loops';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useUpdateLoop } from '../api/update-loop';

const CHOICES = [
  {
    value: 'auto',
    label: 'Send automatically',
    hint: 'You get a text with the draft 24 hours before; it goes out at its time unless you change, move or skip it.',
  },
  {
    value: 'review',
    label: 'Let me approve it first',
    hint: 'It goes out only once you approve it. You get a text 24 hours before and another 2 hours before.',
  },
] as const;

/** Settings tab: "Newsletter: send automatically / let me approve it first" (decision 0040). Members read it. */
export function NewsletterReviewSetting({ loop }: { loop: LoopDetail }) {
  const update = useUpdateLoop(loop.id);
  const id = useId();
  const canEdit = loop.role !== 'member';
  async function choose(value: string) {
    try {
      await update.mutateAsync({ newsletterReview: value === 'review' });
      toast({ title: value === 'review' ? 'Newsletters now wait for your approval' : 'Newsletters now send automatically' });
    } catch (error) {
      toastError(errorText(error), 'Could not change the newsletter setting');
    }
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle id={`${id}-title`}>Newsletter</CardTitle>
      </CardHeader>
      <CardContent>
        <RadioGroup
          aria-labelledby={`${id}-title`}
          value={loop.newsletterReview ? 'review' : 'auto'}
          onValueChange={(value) => void choose(value)}
          disabled={!canEdit || update.isPending}
          className="gap-4"
        >
          {CHOICES.map((choice) => (
            <div key={choice.value} className="flex items-start gap-3">
              <RadioGroupItem
                value={choice.value}
                id={`${id}-${choice.value}`}
                aria-describedby={`${id}-${choice.value}-hint`}
                className="mt-0.5"
              />
              <div className="grid gap-0.5">
                <Label htmlFor={`${id}-${choice.value}`}>{choice.label}</Label>
                <p id={`${id}-${choice.value}-hint`} className="text-sm text-muted-foreground">
                  {choice.hint}
                </p>
              </div>
            </div>
          ))}
        </RadioGroup>
      </CardContent>
    </Card>
  );
}
