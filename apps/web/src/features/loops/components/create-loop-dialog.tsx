import { Plus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, type ButtonProps } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';

// The form brings zod and react-hook-form: load them when the dialog first opens, not with "/".
const CreateLoopForm = lazy(async () => ({ default: (await import('./create-loop-form')).CreateLoopForm }));

/** The "Create Loop" button and its dialog: name, vibes and group context (docs/product.md#my-loops-dashboard); then the new Loop opens. */
export function CreateLoopDialog({ size = 'default' }: { size?: ButtonProps['size'] }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size={size}>
          <Plus aria-hidden="true" />
          Create Loop
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create Loop</DialogTitle>
          <DialogDescription>Start a group. You can add members and invite people next.</DialogDescription>
        </DialogHeader>
        <Suspense
          fallback={
            <div className="flex justify-center py-10">
              <Spinner />
            </div>
          }
        >
          <CreateLoopForm
            onCreated={(loopId) => {
              setOpen(false);
              // "You can add members next": the new Loop opens on its Members tab.
              void navigate(`/loops/${loopId}`);
            }}
          />
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}
