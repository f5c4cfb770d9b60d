import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { AppError } from '../errors';

// OWASP's argon2id minimum: 19 MiB of memory, 2 passes, 1 lane.
const OPTIONS = {
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no hash (unknown email, text-only member) it
 * still spends the same time, so response times do not reveal which emails have accounts.
 */
export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('not-a-real-password-just-equal-work');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}

let common: Set<string> | undefined;

/**
 * Whether a password is among the ~49,000 most common ones (zxcvbn-ts's list, built from leaked
 * password sets and shipped in the package: nothing is downloaded). Compared case-insensitively.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  if (!common) {
    const { dictionary } = await import('@zxcvbn-ts/language-common');
    common = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  }
  return common.has(password.toLowerCase());
}

/** Refuses a new password that is on the common list (length is checked by the shared schema). */
export async function checkNewPassword(password: string): Promise<void> {
  if (await isCommonPassword(password)) {
    throw new AppError(
      'bad_request',
      'This password is one of the most common passwords, which attackers try first. Please choose another.',
      [{ path: 'password', message: 'This password is too common' }],
    );
  }
}
