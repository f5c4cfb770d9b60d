import { zodResolver } from '@hookform/resolvers/zod';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { addMemberSchema } from '@loop/shared/loops';
import { PersonFields } from '@/components/person-fields';
import { Button } from '@/components/ui/button';
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
import { Textarea } from '@/components/ui/textarea';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { showFieldErrors } from '@/lib/field-errors';
import { useAddMember } from '../api/add-member';

/** "Add Member": a person by name and phone number; they get texts from the Loop (docs/product.md#loop-detail). */
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
          <DialogDescription>
            We text them an invitation. Once they reply YES, they get reminders and newsletters at this number.
          </DialogDescription>
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
    defaultValues: {
      firstName: '',
      lastName: '',
      email: '',
      phoneNumber: '',
      messagingPreference: 'sms',
      newsletterDelivery: 'text',
      context: '',
    },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const added = await addMember.mutateAsync(values);
      // An opted-out phone is added but gets nothing: the owner must know why it stays quiet.
      toast(
        added.notice
          ? { title: 'Member added, but not invited', description: added.notice }
          : { title: 'Member added successfully!', description: 'They will get a text asking them to reply YES to join.' },
      );
      onAdded();
    } catch (error) {
      if (!showFieldErrors(form, error)) toastError(errorText(error), 'Failed to add member');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <PersonFields form={form} idPrefix="member" someoneElse emailOptional newsletterDelivery />
      <FormField
        id="member-context"
        label="Context (Optional)"
        hint="Who they are to the group, for the newsletter."
        error={errors.context?.message}
      >
        {(control) => <Textarea {...control} rows={2} placeholder="Grandma, lives in Lisbon" {...form.register('context')} />}
      </FormField>
      <DialogSubmitFooter busy={isSubmitting} sticky>
        Add Member
      </DialogSubmitFooter>
    </form>
  );
}
