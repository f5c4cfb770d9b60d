import type { User } from '@loop/shared/auth';
import type { LoopDetail, LoopMember } from '@loop/shared/loops';
import type { Newsletter } from '@loop/shared/newsletters';
import type { ApiConfig } from '@loop/shared/simulator';

export const owner: User = {
  id: 1,
  email: 'ana.owner@example.com',
  firstName: 'Ana',
  lastName: 'Owner',
  phoneNumber: '+14155550100',
  messagingPreference: 'sms',
  isPrivileged: false,
  timeZone: null,
  newsletterDelivery: 'text',
  emailStatus: 'unconfirmed',
};

export const staff: User = { ...owner, id: 9, email: 'sam.staff@example.com', firstName: 'Sam', lastName: 'Staff', isPrivileged: true };

export function member(id: number, overrides: Partial<LoopMember> = {}): LoopMember {
  return {
    id,
    userId: 100 + id,
    context: 'Grandmother, loves the garden and long stories about the old days',
    isCreator: false,
    organizer: false,
    detailsEditable: true,
    state: 'active',
    invitedAt: null,
    resendAt: null,
    lastError: null,
    timeZone: 'Europe/London',
    timeZoneSource: 'phone',
    timeZoneCountry: null,
    ownerTimeZone: null,
    scheduledFor: null,
    deliveryNote: null,
    user: {
      firstName: 'Margaret',
      lastName: 'Walker-Fitzgerald',
      phoneNumber: '+447911123456',
      email: 'gran.walker@example.com',
      newsletterDelivery: 'text',
      emailStatus: 'unconfirmed',
      messagingPreference: 'sms',
    },
    ...overrides,
  };
}

export function loopDetail(overrides: Partial<LoopDetail> = {}): LoopDetail {
  return {
    id: 7,
    name: 'The Walker Family',
    context: 'Cousins spread over three countries',
    vibe: ['family', 'fun'],
    frequency: 'biweekly',
    reminderSchedule: [
      { day: 'thursday', time: '09:00' },
      { day: 'sunday', time: '17:00' },
    ],
    timeZone: 'Europe/London',
    creatorId: owner.id,
    createdAt: '2026-03-01T10:00:00.000Z',
    paused: false,
    newsletterDay: 'sunday',
    newsletterTime: '18:00',
    newsletterReview: false,
    creator: { firstName: owner.firstName, lastName: owner.lastName, email: owner.email },
    memberCount: 2,
    updateCount: 0,
    lastNewsletter: null,
    role: 'owner',
    members: [
      member(1, {
        userId: owner.id,
        isCreator: true,
        detailsEditable: false,
        context: null,
        user: {
          firstName: 'Ana',
          lastName: 'Owner',
          phoneNumber: owner.phoneNumber,
          email: owner.email,
          messagingPreference: 'sms',
          newsletterDelivery: 'text',
          emailStatus: 'unconfirmed',
        },
      }),
      member(2),
    ],
    updates: [],
    ...overrides,
  } as LoopDetail;
}

export const simulatorConfig: ApiConfig = {
  messagingProvider: 'simulator',
  mailTransport: 'simulator',
  quietHours: { start: '21:00', end: '08:00' },
  links: { exampleNewsletter: '/guide#newsletter', demoVideo: '/guide#walkthrough', guide: '/guide' },
};

/** The Loop's draft newsletter 3, not yet scheduled. */
export function newsletterDraft(overrides: Partial<Newsletter> = {}): Newsletter {
  return {
    id: 3,
    loopId: 7,
    kind: 'newsletter',
    status: 'draft',
    urlId: 'aaaaaaaaaaaaaaaaaaaaaa',
    title: 'The Walker Family newsletter',
    content: 'Hello from the Walkers.\n',
    writer: 'template',
    fellBack: false,
    periodStart: null,
    periodEnd: '2026-03-15T18:00:00.000Z',
    createdAt: '2026-03-15T18:00:00.000Z',
    sentAt: null,
    sendAt: null,
    approvedAt: null,
    skippedAt: null,
    ...overrides,
  };
}
