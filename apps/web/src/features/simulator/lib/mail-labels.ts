import type { SimulatorEmail } from '@loop/shared/simulator';

const KINDS: Record<string, string> = {
  newsletter: 'Newsletter',
  confirm_address: 'Confirm address',
  reply_ack: 'Reply received',
  inbound: 'Reply from a member',
};

const STATUSES: Record<string, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  undelivered: 'Not delivered',
  failed: 'Failed',
  received: 'Received',
  processing: 'Processing',
  processed: 'Processed',
  ignored: 'Ignored',
};

/** What an e-mail is for, in words ("Newsletter"); an unknown kind as it is stored. */
export function emailKindLabel(kind: string): string {
  return KINDS[kind] ?? kind.replaceAll('_', ' ');
}

/** Where an e-mail stands, in words ("Sent"). */
export function emailStatusLabel(status: string): string {
  return STATUSES[status] ?? status;
}

/** Whether the status is one to notice (red): it did not reach the person. */
export function isEmailTrouble(email: Pick<SimulatorEmail, 'status'>): boolean {
  return email.status === 'failed' || email.status === 'undelivered';
}

/** Link to one e-mail: the choice lives in the address, so Back returns to the list on a phone. */
export function emailHref(id: number): string {
  return `/simulator/mail?email=${id}`;
}

export function subjectOf(email: Pick<SimulatorEmail, 'subject'>): string {
  return email.subject.trim() === '' ? '(no subject)' : email.subject;
}
