import { SIMULATOR_FILE_FIELD, SIMULATOR_FILES_HEADER, simulatorFormFields, type SimulatorSendInput } from '@loop/shared/simulator';

export interface FormFile {
  contentType: string;
  bytes: Buffer;
  name?: string;
}

/**
 * A simulated text with files, as the web app sends it: `multipart/form-data` (the text's fields
 * first, then each file as a `media` part) with the upload header. Serialized by Node's own
 * FormData, so the bytes are what a browser sends. Use as `inject({ ...form, method, url })`.
 */
export async function simulatorForm(
  text: Omit<SimulatorSendInput, 'media'>,
  files: FormFile[],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of simulatorFormFields(text)) form.append(name, value);
  files.forEach((file, i) =>
    form.append(SIMULATOR_FILE_FIELD, new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.name ?? `file-${i + 1}`),
  );
  const request = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '', [SIMULATOR_FILES_HEADER]: '1' },
  };
}
