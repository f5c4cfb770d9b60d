import { Trash2 } from 'lucide-react';
import { useNavigate } from 'react-router';
import type { LoopDetail } from '@loop/shared/loops';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useDeleteLoop } from '../api/delete-loop';

/** Delete Loop, after a confirmation; then back to "/" (docs/product.md#loop-detail). */
export function DeleteLoopCard({ loop }: { loop: LoopDetail }) {
  const deleteLoop = useDeleteLoop(loop.id);
  const navigate = useNavigate();
  return (
    <Card className="border-destructive/30">
      <CardHeader>
        <CardTitle>Delete Loop</CardTitle>
        <p className="text-sm text-muted-foreground">
          Deletes the loop with its members, updates, photos and newsletters. This cannot be undone.
        </p>
      </CardHeader>
      <CardContent>
        <ConfirmDialog
          trigger={
            <Button variant="destructive">
              <Trash2 aria-hidden="true" />
              Delete Loop
            </Button>
          }
          title={`Delete ${loop.name}?`}
          description="The loop, its members, updates, photos and newsletters are deleted for good. Members get no more reminders."
          confirmLabel="Delete Loop"
          onConfirm={() =>
            deleteLoop.mutateAsync().then(
              async () => {
                toast({ title: 'Loop deleted successfully' });
                await navigate('/', { replace: true });
              },
              (error: unknown) => {
                toastError(errorText(error), 'Failed to delete loop');
                throw error;
              },
            )
          }
        />
      </CardContent>
    </Card>
  );
}
