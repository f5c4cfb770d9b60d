import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { Frequency } from '@loop/shared/constants';
import { createLoopSchema, type LoopDetail } from '@loop/shared/loops';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useUpdateLoop } from '../api/update-loop';
import { VibePicker, vibeLabel } from './vibe-picker';

export const FREQUENCY_LABELS: Record<Frequency, string> = {
  weekly: 'Weekly',
  biweekly: 'Biweekly (every two weeks)',
  monthly: 'Monthly',
};

const formSchema = createLoopSchema.pick({ name: true, context: true, vibe: true });

/** The Settings tab's main card: read-only, or (owner and staff) an edit form (docs/product.md#loop-detail). */
export function LoopSettings({ loop }: { loop: LoopDetail }) {
  const [editing, setEditing] = useState(false);
  const canEdit = loop.role !== 'member';
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>Loop Settings</CardTitle>
        {canEdit && !editing && (
          <Button variant="outline" onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" />
            Edit Settings
          </Button>
        )}
      </CardHeader>
      <CardContent>{editing ? <SettingsForm loop={loop} onDone={() => setEditing(false)} /> : <SettingsView loop={loop} />}</CardContent>
    </Card>
  );
}

function SettingsView({ loop }: { loop: LoopDetail }) {
  return (
    // The frequency is the Newsletter schedule card's (newsletter-schedule.tsx), shown there once.
    <dl className="grid gap-5">
      <div className="grid gap-1.5">
        <dt className="text-sm font-medium text-muted-foreground">Newsletter Vibe</dt>
        <dd className="flex flex-wrap gap-2">
          {loop.vibe.map((vibe) => (
            <span key={vibe} className="rounded-full bg-secondary px-3 py-1 text-sm font-medium text-secondary-foreground">
              {vibeLabel(vibe)}
            </span>
          ))}
        </dd>
      </div>
      <div className="grid gap-1">
        <dt className="text-sm font-medium text-muted-foreground">Group Context</dt>
        <dd className={loop.context ? 'whitespace-pre-wrap break-words' : 'text-muted-foreground italic'}>
          {loop.context || 'No context provided'}
        </dd>
      </div>
    </dl>
  );
}

function SettingsForm({ loop, onDone }: { loop: LoopDetail; onDone: () => void }) {
  const update = useUpdateLoop(loop.id);
  const saved = { name: loop.name, context: loop.context ?? '', vibe: loop.vibe as never[] };
  const form = useForm({ resolver: zodResolver(formSchema), defaultValues: saved });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      toast({ title: 'Loop settings updated successfully!' });
      onDone();
    } catch (error) {
      toastError(errorText(error), 'Failed to update loop settings');
    }
  });

  function cancel() {
    form.reset(saved);
    onDone();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <FormField id="settings-name" label="Loop Name" error={errors.name?.message}>
        {(control) => <Input {...control} autoComplete="off" {...form.register('name')} />}
      </FormField>
      <div className="grid gap-2">
        <Label id="settings-vibe-label" asChild>
          <span>Newsletter Vibe</span>
        </Label>
        <Controller
          control={form.control}
          name="vibe"
          render={({ field }) => (
            <VibePicker
              id="settings-vibe"
              value={field.value}
              onChange={field.onChange}
              aria-invalid={errors.vibe ? true : undefined}
              aria-describedby={errors.vibe ? 'settings-vibe-error' : undefined}
            />
          )}
        />
        {errors.vibe && (
          <p id="settings-vibe-error" className="text-sm font-medium text-destructive">
            {errors.vibe.message}
          </p>
        )}
      </div>
      <FormField id="settings-context" label="Group Context" error={errors.context?.message}>
        {(control) => <Textarea {...control} rows={4} placeholder="What brings your group together?" {...form.register('context')} />}
      </FormField>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={cancel} disabled={isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" busy={isSubmitting}>
          Save Changes
        </Button>
      </div>
    </form>
  );
}
