import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { OwnedLoop } from '@loop/shared/account-data';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogClose,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useDeleteAccount, useOwnedLoops } from '../api/delete-account';
import { PasswordField } from './password-field';

/** What the person typed to confirm. */
const CONFIRM_WORD = 'DELETE';

/** "Delete my account": what goes, and the dialog that asks for it. */
export function DeleteAccount() {
  const [open, setOpen] = useState(false);
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">
        Deletes your name, email and phone number, and every update you sent with its photos, voice memos and videos, from every Loop and
        every newsletter, sent ones included. Loop will not text your phone again unless you text START to it.
      </p>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogTrigger asChild>
          <Button variant="destructive" className="justify-self-start">
            Delete my account
          </Button>
        </DialogTrigger>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete your account?</DialogTitle>
            <DialogDescription>This cannot be undone. Download your data first if you want a copy.</DialogDescription>
          </DialogHeader>
          {open && <DeleteAccountForm />}
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** Each Loop the person runs: "delete" or the user id of the member it goes to. */
type Choices = Record<number, string>;

function defaultChoices(loops: OwnedLoop[]): Choices {
  return Object.fromEntries(loops.map((loop) => [loop.id, loop.candidates[0] ? String(loop.candidates[0].userId) : 'delete']));
}

function DeleteAccountForm() {
  const id = useId();
  const owned = useOwnedLoops(true);
  const remove = useDeleteAccount();
  const navigate = useNavigate();
  const [choices, setChoices] = useState<Choices | null>(null);
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const loops = owned.data ?? [];
  const chosen = choices ?? defaultChoices(loops);
  const confirmed = typed.trim() === CONFIRM_WORD;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed || password === '') return;
    setError(undefined);
    const handOver = loops.filter((l) => chosen[l.id] !== 'delete').map((l) => ({ loopId: l.id, toUserId: Number(chosen[l.id]) }));
    const deleteLoops = loops.filter((l) => chosen[l.id] === 'delete').map((l) => l.id);
    try {
      await remove.mutateAsync({ password, handOver, deleteLoops });
      toast({ title: 'Your account is deleted' });
      await navigate('/');
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  if (owned.isPending) return <p role="status">Looking up the Loops you run…</p>;
  if (owned.isError) return <p role="alert">{errorText(owned.error)}</p>;
  return (
    <form className="grid gap-5" onSubmit={(event) => void onSubmit(event)}>
      {loops.length > 0 && (
        <fieldset className="grid gap-3">
          <legend className="mb-2 text-sm font-semibold">
            {loops.length === 1
              ? 'You run this Loop. Hand it to a member, or delete it for everyone:'
              : `You run these ${loops.length} Loops. Hand each to a member, or delete it for everyone:`}
          </legend>
          {loops.map((loop) => (
            <FormField
              key={loop.id}
              id={`${id}-loop-${loop.id}`}
              label={`${loop.name} (${loop.memberCount} ${loop.memberCount === 1 ? 'member' : 'members'})`}
            >
              {(control) => (
                <NativeSelect
                  {...control}
                  value={chosen[loop.id]}
                  onChange={(event) => setChoices({ ...chosen, [loop.id]: event.target.value })}
                >
                  {loop.candidates.map((c) => (
                    <option key={c.userId} value={String(c.userId)}>
                      Hand it to {c.name}
                    </option>
                  ))}
                  <option value="delete">Delete it, with all its updates</option>
                </NativeSelect>
              )}
            </FormField>
          ))}
        </fieldset>
      )}
      <PasswordField id={`${id}-password`} label="Your password" value={password} onChange={setPassword} />
      <FormField id={`${id}-confirm`} label={`Type ${CONFIRM_WORD} to confirm`} error={error}>
        {(control) => (
          <Input {...control} autoComplete="off" autoCapitalize="characters" value={typed} onChange={(e) => setTyped(e.target.value)} />
        )}
      </FormField>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={remove.isPending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" variant="destructive" busy={remove.isPending} disabled={!confirmed || password === ''}>
          Delete my account
        </Button>
      </DialogFooter>
    </form>
  );
}
