import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { updateMemberSchema, type LoopMember } from '@loop/shared/loops';
import { NamedActionButton } from '@/components/named-action-button';
import { PersonFields } from '@/components/person-fields';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogSubmitFooter,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { timeZoneLabel, timeZoneOptions } from '@/lib/time-zone';
import { useUpdateMember } from '../api/update-member';

/**
 * "Edit" on a member row: their context and time zone, and their name, phone number and messaging
 * preference when the owner may change them. A new number is asked again (pending until it replies
 * YES): how an owner fixes a number that can't receive texts.
 */
export function EditMemberDialog({ loopId, member }: { loopId: number; member: LoopMember }) {
  const [open, setOpen] = useState(false);
  const name = `${member.user.firstName} ${member.user.lastName}`;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <NamedActionButton icon={<Pencil aria-hidden="true" />} label="Edit" name={name} />
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit {name}</DialogTitle>
          <DialogDescription>
            {member.detailsEditable
              ? 'Changes show in the Members list and in the next newsletter. A new phone number gets the invitation and must reply YES.'
              : `${member.user.firstName} manages their own name and messaging preference. You can change their context for this loop.`}
          </DialogDescription>
        </DialogHeader>
        <EditMemberForm loopId={loopId} member={member} onSaved={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function EditMemberForm({ loopId, member, onSaved }: { loopId: number; member: LoopMember; onSaved: () => void }) {
  const update = useUpdateMember(loopId, member.id);
  const locked = !member.detailsEditable;
  const form = useForm({
    resolver: zodResolver(updateMemberSchema),
    mode: 'onTouched',
    defaultValues: {
      firstName: member.user.firstName,
      lastName: member.user.lastName,
      messagingPreference: member.user.messagingPreference,
      phoneNumber: member.user.phoneNumber ?? '',
      context: member.context ?? '',
      timeZone: member.ownerTimeZone,
    },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      // Only what the owner may change: the person's own details are not sent when locked.
      const { timeZone, phoneNumber, ...rest } = values;
      // The zone only when it changed, so saving a name never moves the member's reminders; the
      // phone number only when it changed: a new number is invited again.
      const zone = timeZone === member.ownerTimeZone ? {} : { timeZone };
      const phone = phoneNumber === member.user.phoneNumber ? {} : { phoneNumber };
      await update.mutateAsync(locked ? { context: values.context, ...zone } : { ...rest, ...zone, ...phone });
      toast({ title: 'Member updated successfully' });
      onSaved();
    } catch (error) {
      toastError(errorText(error), 'Failed to update member');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <PersonFields form={form} idPrefix="edit-member" someoneElse noEmail disabled={locked} />
      <FormField
        id="edit-member-context"
        label="Context (Optional)"
        hint="Who they are to the group, for the newsletter."
        error={errors.context?.message}
      >
        {(control) => (
          <Textarea {...control} rows={2} autoFocus={locked} placeholder="Grandma, lives in Lisbon" {...form.register('context')} />
        )}
      </FormField>
      <Controller
        control={form.control}
        name="timeZone"
        render={({ field }) => (
          <FormField id="edit-member-time-zone" label="Time Zone" hint={timeZoneHint(member)} error={errors.timeZone?.message}>
            {(control) => (
              <NativeSelect
                {...control}
                name={field.name}
                value={field.value ?? ''}
                onChange={(event) => field.onChange(event.target.value || null)}
              >
                <option value="">Automatic (their phone number's, else the loop's)</option>
                {timeZoneOptions(field.value ?? undefined).map((zone) => (
                  <option key={zone} value={zone}>
                    {timeZoneLabel(zone)}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
        )}
      />
      <DialogSubmitFooter busy={isSubmitting}>Save Changes</DialogSubmitFooter>
    </form>
  );
}

/** Which zone their texts follow now, and why: reminders and quiet hours go by it. */
function timeZoneHint(member: LoopMember): string {
  const zone = timeZoneLabel(member.timeZone);
  if (member.timeZoneSource === 'member') return `${member.user.firstName} chose ${zone} themselves, and that applies.`;
  const why = {
    owner: 'as chosen here',
    phone: 'from their phone number',
    loop: "the loop's: their phone number doesn't tell",
    country: "the loop's: their phone number names a country with several time zones, so texts wait for daytime in all of them",
  }[member.timeZoneSource];
  return `Reminders reach them at the loop's times in their own zone: now ${zone} (${why}).`;
}
