import type { APIRequestContext } from 'playwright-core';
import type { AdminLoopDetail } from '@loop/shared/admin';
import type { CreateLoopInput, LoopSummary } from '@loop/shared/loops';
import { SIMULATOR_FILE_FIELD, SIMULATOR_FILES_HEADER, type SimulatorMessage } from '@loop/shared/simulator';

/** Test data made through the real API, as a signed-in person (the request context's cookie). */

/** Polls until `check` answers something (not undefined); works in hooks too, unlike expect.poll. */
async function until<T>(what: string, check: () => Promise<T | undefined>, timeout = 20_000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

async function ok<T>(response: Awaited<ReturnType<APIRequestContext['get']>>, what: string): Promise<T> {
  if (!response.ok()) throw new Error(`${what} failed: ${response.status()} ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function createLoop(request: APIRequestContext, baseUrl: string, input: CreateLoopInput): Promise<LoopSummary> {
  return ok<LoopSummary>(await request.post(`${baseUrl}/api/loops`, { data: input }), `create Loop ${input.name}`);
}

export interface NewMember {
  firstName: string;
  lastName: string;
  phoneNumber: string;
  email?: string;
  context?: string;
  messagingPreference?: 'sms' | 'whatsapp';
}

/**
 * Adds a text-only member and has them say yes: the owner plays the invited phone in the Phone
 * Simulator and replies YES to the invitation, so the membership is active.
 */
export async function addMember(request: APIRequestContext, baseUrl: string, loopId: number, member: NewMember): Promise<void> {
  await ok(
    await request.post(`${baseUrl}/api/loops/${loopId}/members`, { data: { messagingPreference: 'sms', ...member } }),
    `add member ${member.firstName}`,
  );
  await textFromPhone(request, baseUrl, member.phoneNumber, 'YES');
}

/** A member texts Loop from their phone, through the Phone Simulator (the real inbound pipeline). */
export async function textFromPhone(request: APIRequestContext, baseUrl: string, phoneNumber: string, body: string): Promise<void> {
  await ok(
    await request.post(`${baseUrl}/api/simulator/phones/${encodeURIComponent(phoneNumber)}/messages`, { data: { body } }),
    `text from ${phoneNumber}`,
  );
}

/**
 * The request options of a simulated text with photos, voice memos or videos, as the web app sends
 * it: multipart/form-data, the body first, then each file, and the upload header.
 */
export function simulatorFiles(body: string, files: { contentType: string; bytes: Buffer; name: string }[]) {
  const form = new FormData();
  form.append('body', body);
  for (const file of files)
    form.append(SIMULATOR_FILE_FIELD, new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.name);
  return { multipart: form, headers: { [SIMULATOR_FILES_HEADER]: '1' } };
}

/** What a phone has sent and received, oldest first. */
export async function phoneThread(request: APIRequestContext, baseUrl: string, phoneNumber: string): Promise<SimulatorMessage[]> {
  const answer = await ok<{ messages: SimulatorMessage[] }>(
    await request.get(`${baseUrl}/api/simulator/phones/${encodeURIComponent(phoneNumber)}/messages`),
    `thread of ${phoneNumber}`,
  );
  return answer.messages;
}

/** Waits until a text received by the phone matches, and returns it. */
export async function waitForText(
  request: APIRequestContext,
  baseUrl: string,
  phoneNumber: string,
  match: (message: SimulatorMessage) => boolean,
): Promise<SimulatorMessage> {
  return until(`a text to ${phoneNumber}`, async () =>
    (await phoneThread(request, baseUrl, phoneNumber)).find((m) => m.direction === 'outbound' && match(m)),
  );
}

/** The Loop as staff see it (needs a staff session). */
export async function adminLoop(request: APIRequestContext, baseUrl: string, loopId: number): Promise<AdminLoopDetail> {
  return ok<AdminLoopDetail>(await request.get(`${baseUrl}/api/admin/loops/${loopId}`), `admin Loop ${loopId}`);
}

/** Waits until the background worker has turned the texts into this many updates. */
export async function waitForUpdates(request: APIRequestContext, baseUrl: string, loopId: number, count: number): Promise<void> {
  await until(`${count} updates in Loop ${loopId}`, async () =>
    (await adminLoop(request, baseUrl, loopId)).updates.length === count ? true : undefined,
  );
}
