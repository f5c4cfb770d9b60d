/** Query keys of the simulator feature: every thread key starts with the phones key. */
export const simulatorPhonesQueryKey = ['simulator-phones'] as const;

export function phoneThreadQueryKey(phoneNumber: string) {
  return [...simulatorPhonesQueryKey, phoneNumber, 'messages'] as const;
}

/** The path segment of a phone: "+" must be encoded, or it reads as a space. */
export function phonePath(phoneNumber: string): string {
  return `/api/simulator/phones/${encodeURIComponent(phoneNumber)}/messages`;
}

/** The Mail Simulator's list: every e-mail the viewer may read. */
export const simulatorMailQueryKey = ['simulator-mail'] as const;
