import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SIMULATOR_FILE_FIELD, SIMULATOR_FILES_HEADER, simulatorFormFields, type SimulatorSendInput } from '@loop/shared/simulator';
import { api } from '@/lib/api-client';
import { phonePath, phoneThreadQueryKey, simulatorPhonesQueryKey } from './simulator-keys';

/** A photo, voice memo or video to send, with the content type the API takes for it. */
export interface SimulatorUpload {
  file: Blob;
  name: string;
  contentType: string;
}

export type SimulatorSend = Omit<SimulatorSendInput, 'media'> & { files?: SimulatorUpload[] };

/**
 * POST /api/simulator/phones/{phone}/messages: the text enters Loop's inbound pipeline (202). Its
 * fields, then its files, go as multipart/form-data, which the browser streams as they are (no
 * base64, no JSON), with the header that tells the server our own page sent it.
 */
export function sendSimulatedText(phoneNumber: string, input: SimulatorSend): Promise<{ id: number; status: 'received' }> {
  const form = new FormData();
  for (const [name, value] of simulatorFormFields(input)) form.append(name, value);
  for (const upload of input.files ?? []) {
    form.append(SIMULATOR_FILE_FIELD, new Blob([upload.file], { type: upload.contentType }), upload.name);
  }
  return api.postForm(phonePath(phoneNumber), form, { headers: { [SIMULATOR_FILES_HEADER]: '1' } });
}

export function useSendSimulatedText(phoneNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SimulatorSend) => sendSimulatedText(phoneNumber, input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: phoneThreadQueryKey(phoneNumber) }),
        // STOP and START change the phone's opted-out flag in the member list.
        queryClient.invalidateQueries({ queryKey: simulatorPhonesQueryKey, exact: true }),
      ]),
  });
}
