import { Download } from 'lucide-react';
import { EXPORT_OFFERED_HOURS } from '@loop/shared/account-data';
import { Button } from '@/components/ui/button';
import { toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { useDataExport, useRequestDataExport } from '../api/data-export';

function size(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * "Download my data": a zip of the account, memberships, every update with its photos, voice
 * memos and videos, and the texts Loop sent, gathered in the background and offered for 24 hours.
 */
export function DownloadMyData() {
  const state = useDataExport();
  const request = useRequestDataExport();
  const data = state.data;
  const building = data?.status === 'building';
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">
        A zip file with your account, your Loops, every update you sent with its photos, voice memos and videos, and the texts Loop sent
        you. Loop gathers it now, usually in a few seconds (longer with many photos and videos); this page shows the link when it is ready,
        and it can be downloaded for {EXPORT_OFFERED_HOURS} hours.
      </p>
      <div role="status" className="text-sm">
        {state.isPending && 'Checking for an earlier download…'}
        {building && 'Gathering your data… This page shows the link when it is ready.'}
        {data?.status === 'failed' && 'Your data could not be gathered. Please ask again.'}
        {data?.status === 'ready' && data.expiresAt && (
          <>
            Your data is ready ({size(data.bytes)}). The link works until {formatDateTime(data.expiresAt)}.
          </>
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        {data?.status === 'ready' && data.downloadUrl && (
          <Button asChild>
            <a href={data.downloadUrl} download>
              <Download aria-hidden="true" />
              Download zip
            </a>
          </Button>
        )}
        <Button
          variant={data?.status === 'ready' ? 'outline' : 'default'}
          busy={request.isPending}
          disabled={building}
          onClick={() => request.mutate(undefined, { onError: (error) => toastError(errorText(error), 'Could not start the download') })}
        >
          {data?.status === 'ready' ? 'Gather again' : 'Download my data'}
        </Button>
      </div>
    </div>
  );
}
