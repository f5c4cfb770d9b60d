import type { Frequency, Vibe } from '@loop/shared/constants';
import type { DemoScene } from './draw-demo-photo';

/** The demo's staff account. Its Loops are the demo: GET /api/config finds the example newsletter by it. */
export const DEMO_EMAIL = 'demo@example.com';

export interface DemoPerson {
  firstName: string;
  lastName: string;
  /** 555-01xx: numbers reserved for fiction, never a real phone. */
  phoneNumber: string;
  messagingPreference: 'sms' | 'whatsapp';
}

export const DEMO_STAFF: DemoPerson = { firstName: 'Maya', lastName: 'Rivera', phoneNumber: '+14155550100', messagingPreference: 'sms' };

const SCENES = {
  sunset: {
    sky: [
      [255, 183, 120],
      [255, 236, 200],
    ],
    sun: { x: 0.7, y: 0.55, r: 0.09, color: [255, 120, 60] },
    layers: [
      { color: [140, 110, 150], base: 0.62, amp: 0.06, freq: 1.3, phase: 0.4 },
      { color: [86, 120, 90], base: 0.78, amp: 0.05, freq: 2.1, phase: 1.2 },
    ],
  },
  beach: {
    sky: [
      [120, 190, 240],
      [215, 238, 255],
    ],
    sun: { x: 0.2, y: 0.2, r: 0.07, color: [255, 244, 190] },
    layers: [
      { color: [40, 130, 190], base: 0.55, amp: 0.005, freq: 6, phase: 0 },
      { color: [80, 170, 210], base: 0.68, amp: 0.012, freq: 5, phase: 1 },
      { color: [240, 214, 160], base: 0.8, amp: 0.03, freq: 1.5, phase: 2 },
    ],
    dots: { color: [255, 250, 240], count: 14 },
  },
  garden: {
    sky: [
      [170, 215, 245],
      [235, 247, 255],
    ],
    sun: { x: 0.82, y: 0.18, r: 0.08, color: [255, 236, 150] },
    layers: [
      { color: [120, 170, 100], base: 0.5, amp: 0.05, freq: 1.1, phase: 0.3 },
      { color: [74, 140, 70], base: 0.66, amp: 0.04, freq: 2.4, phase: 2.2 },
    ],
    dots: { color: [235, 70, 110], count: 60 },
  },
  mountains: {
    sky: [
      [90, 150, 220],
      [205, 228, 250],
    ],
    sun: { x: 0.3, y: 0.25, r: 0.06, color: [255, 255, 235] },
    layers: [
      { color: [120, 130, 160], base: 0.5, amp: 0.16, freq: 2.2, phase: 0.6 },
      { color: [70, 110, 90], base: 0.7, amp: 0.08, freq: 3.1, phase: 2.6 },
      { color: [50, 90, 60], base: 0.86, amp: 0.04, freq: 2, phase: 0.2 },
    ],
  },
  autumn: {
    sky: [
      [250, 210, 160],
      [255, 240, 220],
    ],
    sun: { x: 0.5, y: 0.35, r: 0.1, color: [250, 150, 70] },
    layers: [
      { color: [190, 110, 60], base: 0.6, amp: 0.05, freq: 1.6, phase: 1.5 },
      { color: [150, 70, 40], base: 0.76, amp: 0.04, freq: 2.7, phase: 0.1 },
    ],
    dots: { color: [250, 190, 60], count: 50 },
  },
  lake: {
    sky: [
      [40, 50, 110],
      [120, 110, 170],
    ],
    sun: { x: 0.75, y: 0.22, r: 0.06, color: [245, 240, 215] },
    layers: [
      { color: [30, 40, 70], base: 0.55, amp: 0.08, freq: 1.4, phase: 2 },
      { color: [60, 80, 140], base: 0.66, amp: 0.004, freq: 8, phase: 0 },
    ],
  },
} satisfies Record<string, DemoScene>;

export type SceneName = keyof typeof SCENES;
export const demoScene = (name: SceneName): DemoScene => SCENES[name];

export interface DemoUpdate {
  /** Index into the Loop's people; 0 is the staff account, the Loop's creator. */
  by: number;
  /** Days before now (fractions are hours). */
  daysAgo: number;
  text: string;
  photos?: SceneName[];
}

export interface DemoLoop {
  name: string;
  context: string;
  vibe: Vibe[];
  frequency: Frequency;
  /** Besides the staff account; `context` is what the member is up to. */
  members: (DemoPerson & { context: string })[];
  updates: DemoUpdate[];
  /** The newsletter already sent, this many days ago: it covers every update before it. */
  newsletterDaysAgo: number;
  /** The Loop's review setting (decision 0040): the demo shows one of each. */
  newsletterReview: boolean;
}

export const DEMO_LOOPS: DemoLoop[] = [
  {
    name: 'The Rivera Family',
    context: 'Three generations on two coasts, and one group chat that never keeps up.',
    vibe: ['family', 'fun'],
    frequency: 'biweekly',
    members: [
      {
        firstName: 'Luis',
        lastName: 'Rivera',
        phoneNumber: '+14155550101',
        messagingPreference: 'sms',
        context: 'Dad, retired and gardening full time',
      },
      {
        firstName: 'Sofia',
        lastName: 'Rivera',
        phoneNumber: '+16175550102',
        messagingPreference: 'whatsapp',
        context: 'Sophomore at college in Boston',
      },
      { firstName: 'Carmen', lastName: 'Ortiz', phoneNumber: '+13055550103', messagingPreference: 'sms', context: 'Abuela, Miami' },
      {
        firstName: 'Diego',
        lastName: 'Rivera',
        phoneNumber: '+14155550104',
        messagingPreference: 'sms',
        context: 'Youngest, 12, soccer obsessed',
      },
    ],
    newsletterDaysAgo: 3,
    newsletterReview: true,
    updates: [
      { by: 1, daysAgo: 24.6, text: 'The tomatoes are finally turning red! First salsa of the summer this weekend.', photos: ['garden'] },
      { by: 2, daysAgo: 23.2, text: 'Survived my first chemistry midterm. Celebrating with a very large burrito.' },
      { by: 3, daysAgo: 21.9, text: 'Walked on the beach this morning with my friend Rosa. The water was perfect.', photos: ['beach'] },
      { by: 4, daysAgo: 20.3, text: 'We won 3-1!!! I scored the second goal with my left foot.' },
      { by: 0, daysAgo: 18.5, text: 'Booked the cabin for Thanksgiving week. Everyone bring a board game.' },
      { by: 1, daysAgo: 15.8, text: 'Sunset from the back porch. Your mother says hi.', photos: ['sunset'] },
      { by: 2, daysAgo: 13.1, text: 'Joined the climbing club. My arms have never been this tired.' },
      { by: 3, daysAgo: 11.4, text: 'Made pasteles for the church fair and they sold out in an hour.' },
      { by: 4, daysAgo: 8.2, text: 'Got a B+ on my science project about volcanoes. The baking soda one.' },
      { by: 1, daysAgo: 6.7, text: 'The maple in the front yard turned overnight.', photos: ['autumn'] },
      { by: 3, daysAgo: 4.3, text: 'Practising a new flan recipe. Tasters needed!' },
      { by: 0, daysAgo: 2.5, text: 'Cabin menu so far: Abuela on flan, Dad on the turkey, Diego on "snacks".' },
      {
        by: 2,
        daysAgo: 1.2,
        text: 'Weekend trip to the mountains with my roommates. No signal, lots of trail mix.',
        photos: ['mountains', 'lake'],
      },
    ],
  },
  {
    name: 'Sunday Trail Runners',
    context: 'A running club that trades trail reports and post-run pastries.',
    vibe: ['friends', 'funny'],
    frequency: 'weekly',
    members: [
      {
        firstName: 'Priya',
        lastName: 'Shah',
        phoneNumber: '+14155550105',
        messagingPreference: 'sms',
        context: 'Training for her first half marathon',
      },
      {
        firstName: 'Tom',
        lastName: 'Becker',
        phoneNumber: '+14155550106',
        messagingPreference: 'whatsapp',
        context: 'Route planner and coffee snob',
      },
      {
        firstName: 'Aisha',
        lastName: 'Okafor',
        phoneNumber: '+14155550107',
        messagingPreference: 'sms',
        context: 'Fastest on the hills, slowest to the car',
      },
    ],
    newsletterDaysAgo: 5,
    newsletterReview: false,
    updates: [
      {
        by: 2,
        daysAgo: 20.4,
        text: 'New loop mapped: 8 miles along the ridge, one very steep bit. You are welcome.',
        photos: ['mountains'],
      },
      { by: 1, daysAgo: 17.6, text: 'Did 10 miles without stopping! Half marathon, here I come.' },
      { by: 3, daysAgo: 13.5, text: 'Spotted a deer at mile 3 and totally lost my pace. Worth it.' },
      { by: 0, daysAgo: 10.2, text: 'Pastry report: the new bakery by the trailhead does a cardamom bun that is worth the hills.' },
      { by: 2, daysAgo: 7.5, text: 'Lake loop at dusk. Bring headlamps next time, trust me.', photos: ['lake'] },
      { by: 1, daysAgo: 3.6, text: 'Bought real trail shoes. My ankles thank me.' },
      { by: 3, daysAgo: 1.8, text: 'Hill repeats on Saturday. Who is in?' },
    ],
  },
];
