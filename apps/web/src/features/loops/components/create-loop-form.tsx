import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { createLoopSchema } from '@loop/shared/loops';
import { DialogSubmitFooter } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { ToastAction } from '@/components/ui/toast';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useSignedInUser } from '@/lib/current-user';
import { formatInZone } from '@/lib/format-date';
import { browserTimeZone, timeZoneLabel } from '@/lib/time-zone';
import { useCreateLoop } from '../api/create-loop';
import { VibePicker } from './vibe-picker';

const formSchema = createLoopSchema.pick({ name: true, context: true, vibe: true });

/** Loop Name (required), Newsletter Vibe (one or more) and Group Context; the browser's time zone goes along. */
export function CreateLoopForm({ onCreated }: { onCreated: (loopId: number) => void }) {
  const user = useSignedInUser();
  const createLoop = useCreateLoop();
  const form = useForm({
    resolver: zodResolver(formSchema),
    defaultValues: { name: '', context: '', vibe: [] },
  });
  const { errors, isSubmitting } = form.formState;
  const timeZone = browserTimeZone();

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const loop = await createLoop.mutateAsync({ ...values, creatorId: user.id, timeZone });
      const disabled = loop.smsStatus === 'disabled' ? ' SMS notifications are currently disabled.' : '';
      const simulated = loop.smsStatus === 'simulated';
      const first = `The first newsletter goes out ${formatInZone(loop.nextNewsletterAt, loop.timeZone)} (${timeZoneLabel(loop.timeZone)}).`;
      toast({
        title: `Loop created successfully!${disabled}`,
        // The simulator is not "disabled": texts work, and the Phone Simulator shows them.
        description: simulated ? `${first} Texts to members show up in the Phone Simulator: nothing leaves this computer.` : first,
        action: simulated ? (
          <ToastAction altText="Open the Phone Simulator" asChild>
            <Link to="/simulator">Phone Simulator</Link>
          </ToastAction>
        ) : undefined,
      });
      onCreated(loop.id);
    } catch (error) {
      toastError(errorText(error), 'Something went wrong');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <FormField id="loop-name" label="Loop Name" error={errors.name?.message}>
        {(control) => <Input {...control} autoComplete="off" placeholder="The Parkers" autoFocus {...form.register('name')} />}
      </FormField>
      <div className="grid gap-2">
        <Label id="loop-vibe-label" asChild>
          <span>Newsletter Vibe</span>
        </Label>
        <p id="loop-vibe-hint" className="-mt-0.5 text-sm text-muted-foreground">
          Pick one or more: they set the tone of your newsletters.
        </p>
        <Controller
          control={form.control}
          name="vibe"
          render={({ field }) => (
            <VibePicker
              id="loop-vibe"
              value={field.value}
              onChange={field.onChange}
              aria-invalid={errors.vibe ? true : undefined}
              aria-describedby={errors.vibe ? 'loop-vibe-hint loop-vibe-error' : 'loop-vibe-hint'}
            />
          )}
        />
        {errors.vibe && (
          <p id="loop-vibe-error" className="text-sm font-medium text-destructive">
            {errors.vibe.message}
          </p>
        )}
      </div>
      <FormField id="loop-context" label="Group Context" error={errors.context?.message}>
        {(control) => <Textarea {...control} rows={3} placeholder="What brings your group together?" {...form.register('context')} />}
      </FormField>
      <p className="text-sm text-muted-foreground" data-testid="create-loop-time-zone">
        Time zone: <strong className="font-medium text-foreground">{timeZoneLabel(timeZone)}</strong>, this device’s. Reminders and
        newsletters go by it; you can change it in the Loop’s Settings.
      </p>
      <DialogSubmitFooter busy={isSubmitting}>Create Loop</DialogSubmitFooter>
    </form>
  );
}
