import type { FastifyRequest } from 'fastify';
import { SIMULATOR_FILE_FIELD, SIMULATOR_LIMITS, SIMULATOR_REFUSALS } from '@loop/shared/simulator';
import { AppError } from '../../../errors';
import {
  simulatorFileLimit,
  simulatorFilesTooLarge,
  type ClipMaxBytes,
  type SimulatorFile,
} from '../../../services/phone-simulator/send-simulated-text';

const TEXT_FIELDS = new Set(['body', 'channel', 'attachments', 'latitude', 'longitude']);
/** The body (1,600 characters of up to 4 bytes) and the small fields, with room to spare. */
const FIELD_BYTES = 16 * 1024;
const MALFORMED = 'The files could not be read: the form is cut off or malformed. Send it again.';

/**
 * A simulated text sent as `multipart/form-data` (decision 0032): its fields first, then each file
 * as a `media` part. Files are read as they stream in and the reading stops at the first byte past
 * a limit (per file, by the channel as Twilio and WhatsApp hold real media, and for all together),
 * so a large upload costs no more than its bytes: no JSON, no base64. Answers the text's fields,
 * as the JSON route takes them, and the files.
 */
export async function readSimulatorForm(
  request: FastifyRequest,
  options: { defaultChannel: 'sms' | 'whatsapp'; clipMaxBytes: ClipMaxBytes },
): Promise<{ fields: Record<string, unknown>; files: SimulatorFile[] }> {
  const fields: Record<string, string> = {};
  const attachments: string[] = [];
  const files: SimulatorFile[] = [];
  let total = 0;
  const parts = request.parts({
    limits: {
      fields: 2 * SIMULATOR_LIMITS.files,
      fieldSize: FIELD_BYTES,
      files: SIMULATOR_LIMITS.files,
      // A backstop past the largest: each file is held to its own limit below, with its own message.
      fileSize: Math.max(SIMULATOR_LIMITS.photoBytes, options.clipMaxBytes.sms, options.clipMaxBytes.whatsapp) + 1,
      parts: 3 * SIMULATOR_LIMITS.files,
      headerPairs: 20,
    },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (!TEXT_FIELDS.has(part.fieldname)) throw unknownField(part.fieldname);
        // The channel decides how large a clip may be: it has to be known before the first file.
        if (files.length > 0) throw new AppError('bad_request', 'Send the text’s fields (body, channel...) before its files.');
        const value = String(part.value);
        if (part.fieldname === 'attachments') attachments.push(value);
        else fields[part.fieldname] = value;
        continue;
      }
      if (part.fieldname !== SIMULATOR_FILE_FIELD) throw unknownField(part.fieldname);
      const channel = fields.channel === 'sms' || fields.channel === 'whatsapp' ? fields.channel : options.defaultChannel;
      const limit = simulatorFileLimit(part.mimetype, files.length, channel, options.clipMaxBytes);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        total += chunk.length;
        if (size > limit.maxBytes) throw limit.tooLarge();
        if (total > SIMULATOR_LIMITS.totalBytes) throw simulatorFilesTooLarge();
        chunks.push(chunk);
      }
      files.push({ contentType: part.mimetype, bytes: Buffer.concat(chunks, size) });
    }
  } catch (error) {
    throw formError(error);
  }
  return { fields: textFields(fields, attachments), files };
}

/** The form's fields in the JSON route's shape, for the same schema (simulatorSendSchema). */
function textFields(fields: Record<string, string>, attachments: string[]): Record<string, unknown> {
  const number = (value: string | undefined) => (value !== undefined && value.trim() !== '' ? Number(value) : value);
  const { latitude, longitude, ...rest } = fields;
  return {
    ...rest,
    attachments,
    ...(latitude !== undefined || longitude !== undefined
      ? { location: { latitude: number(latitude), longitude: number(longitude) } }
      : {}),
  };
}

function unknownField(name: string): AppError {
  return new AppError(
    'bad_request',
    `"${name.slice(0, 40)}" is not a field of a simulated text: send body, channel, attachments, latitude, longitude and ${SIMULATOR_FILE_FIELD} files.`,
  );
}

/** @fastify/multipart's and busboy's errors, in words a person can act on. */
function formError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT') return new AppError('bad_request', SIMULATOR_REFUSALS.tooMany);
  if (code === 'FST_REQ_FILE_TOO_LARGE') return simulatorFilesTooLarge();
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new AppError('payload_too_large', 'The form has too many parts: a text, its settings and at most 10 files.');
  return new AppError('bad_request', MALFORMED);
}
