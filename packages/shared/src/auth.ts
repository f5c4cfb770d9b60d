import { z } from 'zod';
import { LIMITS, MESSAGING_PREFERENCES, NEWSLETTER_DELIVERIES, type EmailStatus, type NewsletterDelivery } from './constants';
import { toE164 } from './phone';
import { timeZoneSchema } from './time-zone';
import { quotedNameSchema } from './quoted-name';

export const emailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Email is required')
  .max(LIMITS.email, `Email must be at most ${LIMITS.email} characters`)
  .pipe(z.email({ error: 'Email must be a valid email address' }));

export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(LIMITS.passwordMin, `Password must be at least ${LIMITS.passwordMin} characters`)
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters`);

/** A person's first or last name: Loop quotes names in texts, so no links or phone numbers. */
export function personNameSchema(label: string) {
  return quotedNameSchema(label, LIMITS.name);
}

/** A phone number in any common format, normalized to E.164. */
export const phoneNumberSchema = z
  .string({ error: 'Phone number is required' })
  .trim()
  .min(1, 'Phone number is required')
  .max(LIMITS.phone, 'Phone number must be a valid international number, like +1 415 555 0100')
  .transform((value, ctx) => {
    const e164 = toE164(value);
    if (!e164) {
      ctx.addIssue({
        code: 'custom',
        message: 'Phone number must be a valid international number, like +1 415 555 0100',
      });
      return z.NEVER;
    }
    return e164;
  });

export const messagingPreferenceSchema = z.enum(MESSAGING_PREFERENCES, {
  error: 'Messaging preference must be "sms" or "whatsapp"',
});

export const newsletterDeliverySchema = z.enum(NEWSLETTER_DELIVERIES, {
  error: 'Newsletter delivery must be "text", "email" or "both"',
});

/**
 * The solved proof-of-work (ALTCHA) sent with a form that texts a code: base64 of the JSON
 * `{ challenge, solution }`. Required when the server's SIGNUP_PROOF_OF_WORK is on (decision 0030).
 */
export const proofOfWorkField = z.string().max(8_000).optional();

/** GET /api/proof-of-work: a challenge to solve before asking for a code; null when the check is off. */
export interface ProofOfWorkChallenge {
  challenge: { parameters: Record<string, unknown>; signature?: string } | null;
}

export const registerSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  firstName: personNameSchema('First name'),
  lastName: personNameSchema('Last name'),
  phoneNumber: phoneNumberSchema,
  messagingPreference: messagingPreferenceSchema.default('sms'),
  altcha: proofOfWorkField,
});
export type RegisterInput = z.input<typeof registerSchema>;

/** A texted code as a person types it: 6 digits, spaces and dashes allowed. */
export const phoneCodeSchema = z
  .string({ error: 'Code is required' })
  .max(20, 'The code is the 6 digits in the text')
  .transform((v) => v.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'The code is the 6 digits in the text'));

/**
 * The code step of sign-up: the code, and the phone it went to. Without the phone, the one this
 * browser's sign-up was started for (its cookie): the step after a reload knows only a masked phone.
 */
export const verifySignUpSchema = z.object({
  phoneNumber: phoneNumberSchema.optional(),
  code: phoneCodeSchema,
});
export type VerifySignUpInput = z.input<typeof verifySignUpSchema>;

/** "Resend code": without the phone, the one this browser's sign-up was started for (its cookie). */
export const resendSignUpCodeSchema = z.object({
  phoneNumber: phoneNumberSchema.optional(),
  altcha: proofOfWorkField,
});

/** "Forgot password?": the phone number or the email of an account. */
export const loginIdSchema = z
  .string({ error: 'Enter your phone number or email' })
  .trim()
  .min(1, 'Enter your phone number or email')
  .max(LIMITS.email, 'Enter your phone number or email')
  .transform((value, ctx) => {
    if (value.includes('@')) {
      const email = emailSchema.safeParse(value);
      if (email.success) return { email: email.data };
      ctx.addIssue({ code: 'custom', message: 'Email must be a valid email address' });
      return z.NEVER;
    }
    const phone = toE164(value);
    if (phone) return { phoneNumber: phone };
    ctx.addIssue({ code: 'custom', message: 'Phone number must be a valid international number, like +1 415 555 0100' });
    return z.NEVER;
  });

export const requestPasswordResetSchema = z.object({ login: loginIdSchema, altcha: proofOfWorkField });
export type RequestPasswordResetInput = z.input<typeof requestPasswordResetSchema>;

export const resetPasswordSchema = z.object({
  login: loginIdSchema,
  code: phoneCodeSchema,
  password: passwordSchema,
});
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;

/** What POST /api/register answers: the same whether or not the phone or email is known. */
export interface SignUpStarted {
  /** As typed (E.164); masked when a resend did not name it (the phone of this browser's sign-up). */
  phoneNumber: string;
  expiresInSeconds: number;
  resendAfterSeconds: number;
  /** With the Phone Simulator as provider: the text it "sent", shown on the card. Else null. */
  simulatedText: string | null;
}

/**
 * GET /api/register/pending: the sign-up this browser started (its cookie), so that the code step
 * survives a reload; null when none. The phone is masked (`+1 •••••••• 60`): a browser shared with
 * the next person does not show the whole number. Answered from the cookie alone, the same for a
 * form that texted a code and one that was refused (decision 0027).
 */
export interface PendingSignUp {
  signUp: { maskedPhoneNumber: string; expiresInSeconds: number; resendAfterSeconds: number } | null;
}

/** What POST /api/password-reset answers, whether or not an account exists. */
export interface PasswordResetStarted {
  message: string;
  resendAfterSeconds: number;
  simulatedText: string | null;
}

export const loginSchema = z.object({
  email: emailSchema,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(LIMITS.passwordMax),
  /** The code texted to the account's phone, when the answer before asked for one (SignInCodeNeeded). */
  code: phoneCodeSchema.optional(),
});
export type LoginInput = z.input<typeof loginSchema>;

/**
 * What POST /api/login answers (202) instead of signing in, after many failed sign-ins for the
 * email from elsewhere: the same whether or not the password was right, and whether or not a code
 * went out. Sending the form again with the texted code signs in.
 */
export interface SignInCodeNeeded {
  codeRequired: true;
  message: string;
  resendAfterSeconds: number;
  /** With the Phone Simulator as provider: the text it "sent". Else null. */
  simulatedText: string | null;
}

export const updateUserSchema = z
  .object({
    /** The same rules as sign-up (no links or phone numbers: Loop quotes names in its texts). */
    firstName: personNameSchema('First name').optional(),
    lastName: personNameSchema('Last name').optional(),
    email: emailSchema.optional(),
    messagingPreference: messagingPreferenceSchema.optional(),
    /** The zone the person's texts follow, theirs to choose (decision 0036); null: their phone's or each Loop's. */
    timeZone: timeZoneSchema.nullable().optional(),
    /** The newsletter by text, e-mail or both (decision 0047); e-mail needs a confirmed address. */
    newsletterDelivery: newsletterDeliverySchema.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'Send at least one of firstName, lastName, email, messagingPreference, timeZone or newsletterDelivery',
  });
export type UpdateUserInput = z.input<typeof updateUserSchema>;

/** POST /api/user/password: the password in use, and the new one (the same rules as sign-up). */
export const changePasswordSchema = z.object({
  currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(LIMITS.passwordMax),
  newPassword: passwordSchema,
});
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** PUT /api/user/phone-pin: the 4-digit PIN a call from this phone asks for (decision 0067), and the password in use. */
export const setPhonePinSchema = z.object({
  pin: z.string({ error: 'Enter four digits' }).regex(/^[0-9]{4}$/, 'A phone PIN is four digits, such as 4821'),
  currentPassword: z.string({ error: 'Enter your current password' }).min(1, 'Enter your current password').max(LIMITS.passwordMax),
});
export type SetPhonePinInput = z.input<typeof setPhonePinSchema>;

/** POST /api/user/phone: the new number, which gets a code (decision 0044). */
export const changePhoneSchema = z.object({
  phoneNumber: phoneNumberSchema,
  /** The password in use: a session alone cannot move the account's phone (decision 0052). */
  currentPassword: z.string({ error: 'Enter your current password' }).min(1, 'Enter your current password').max(LIMITS.passwordMax),
  altcha: proofOfWorkField,
});
export type ChangePhoneInput = z.input<typeof changePhoneSchema>;

/** POST /api/user/phone/verify: the new number and the code texted to it. */
export const verifyPhoneChangeSchema = z.object({
  phoneNumber: phoneNumberSchema,
  code: phoneCodeSchema,
});
export type VerifyPhoneChangeInput = z.input<typeof verifyPhoneChangeSchema>;

/** What POST /api/user/phone answers: the same whether or not the number is anyone's. */
export type PhoneChangeStarted = SignUpStarted;

/** The signed-in user as GET /api/user answers it. Never carries a password hash. */
export interface User {
  id: number;
  email: string | null;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  messagingPreference: (typeof MESSAGING_PREFERENCES)[number];
  isPrivileged: boolean;
  /** The zone the person chose for their texts, else null (their phone's or each Loop's applies). */
  timeZone: string | null;
  /** The newsletter by text (the link), e-mail or both (decision 0047). */
  newsletterDelivery: NewsletterDelivery;
  /** Where the account's address stands: e-mail goes only to a confirmed one. */
  emailStatus: EmailStatus;
}

/** Every 4xx and 5xx answer of the API has this shape. */
export interface ApiErrorBody {
  message: string;
  errors?: { path: string; message: string }[];
}

/**
 * A cookie the web app can read (the session's own is HttpOnly): set beside the session cookie
 * and cleared with it, it says a session may exist, so a signed-out page does not ask GET
 * /api/user only to be told 401 (which a browser logs as an error in the console).
 */
export const SIGNED_IN_HINT_COOKIE = 'loop_signed_in';
