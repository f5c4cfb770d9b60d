import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { addMemberSchema } from '@loop/shared/loops';
import { MessagingPreferenceField } from '@/components/messaging-preference-field';
import { PhoneInput } from '@/components/phone-input';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useAddMember } from '../api/add-member';

/** "Add Member": a person by name and phone number; they get texts from the Loop (SPEC §2). */
export function AddMemberDialog({ loopId }: { loopId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden="true" />
          Add Member
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Member</DialogTitle>
          <DialogDescription>They will get reminders and newsletters by text at this number.</DialogDescription>
        </DialogHeader>
        <AddMemberForm loopId={loopId} onAdded={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function AddMemberForm({ loopId, onAdded }: { loopId: number; onAdded: () => void }) {
  const addMember = useAddMember(loopId);
  const form = useForm({
    resolver: zodResolver(addMemberSchema),
    mode: 'onBlur',
    defaultValues: { firstName: '', lastName: '', email: '', phoneNumber: '', messagingPreference: 'sms', context: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await addMember.mutateAsync(values);
      toast({ title: 'Member added successfully!' });
      onAdded();
    } catch (error) {
      toastError(errorText(error), 'Failed to add member');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="member-first-name" label="First Name" error={errors.firstName?.message}>
          {(control) => <Input {...control} autoComplete="off" autoFocus {...form.register('firstName')} />}
        </FormField>
        <FormField id="member-last-name" label="Last Name" error={errors.lastName?.message}>
          {(control) => <Input {...control} autoComplete="off" {...form.register('lastName')} />}
        </FormField>
      </div>
      <FormField id="member-email" label="Email (Optional)" error={errors.email?.message}>
        {(control) => <Input {...control} type="email" autoComplete="off" {...form.register('email')} />}
      </FormField>
      <FormField id="member-phone" label="Phone Number" error={errors.phoneNumber?.message}>
        {(control) => (
          <Controller
            control={form.control}
            name="phoneNumber"
            render={({ field }) => (
              <PhoneInput
                {...control}
                ref={field.ref}
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
              />
            )}
          />
        )}
      </FormField>
      <Controller
        control={form.control}
        name="messagingPreference"
        render={({ field }) => (
          <MessagingPreferenceField name={field.name} value={field.value ?? 'sms'} onChange={field.onChange} />
        )}
      />
      <FormField
        id="member-context"
        label="Context (Optional)"
        hint="Who they are to the group, for the newsletter."
        error={errors.context?.message}
      >
        {(control) => <Textarea {...control} rows={2} placeholder="Grandma, lives in Lisbon" {...form.register('context')} />}
      </FormField>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
          {isSubmitting && <LoaderCircle aria-hidden="true" className="animate-spin" />}
          Add Member
        </Button>
      </DialogFooter>
    </form>
  );
}
