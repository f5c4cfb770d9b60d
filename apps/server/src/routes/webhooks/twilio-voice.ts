import formbody from '@fastify/formbody';
import { and, eq, like } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { z } from 'zod';
import { LIMITS } from '@loop/shared/constants';
import { media } from '../../db/schema';
import { AppError } from '../../errors';
import { findFfmpeg } from '../../media/ffmpeg';
import { PHONE_AUDIO_CONTENT_TYPE, toPhoneAudio } from '../../media/phone-audio';
import { findCaller, type Caller } from '../../services/calls/find-caller';
import { findIssue } from '../../services/calls/find-issue';
import { checkPhonePin, clearPinFailures, PIN_TRIES_PER_CALL } from '../../services/calls/phone-pin';
import { stopCalls } from '../../services/calls/stop-calls';
import { storeRecordedNews } from '../../services/calls/store-recorded-news';
import { STORAGE_KEY } from '../../storage/media-storage';
import { readState, START_STATE, stateQuery, type CallState } from '../../voice/call-state';
import { callMediaPath, validMediaLink } from '../../voice/media-link';
import { newsletterSpeech } from '../../voice/newsletter-speech';
import { askPin, CALL_WORDS, chooseLoop, readSection, recordNews, sayAndHangUp, sayThenGo, sayThenMenu } from '../../voice/twiml';
import { verifiedParams } from './verify-signature';

/** STIR/SHAKEN full attestation (https://www.twilio.com/docs/voice/trusted-calling-with-shakenstir): the carrier vouches the caller holds the number. */
export const FULL_ATTESTATION = 'TN-Validation-Passed-A';

const twilioForm = (description: string): RouteShorthandOptions => ({
  schema: {
    description,
    consumes: ['application/x-www-form-urlencoded'],
    body: z.record(z.string(), z.string()).describe("Twilio's form parameters, signed in the X-Twilio-Signature header"),
  },
  validatorCompiler: () => () => true,
});

type Step = 'pin' | 'loop' | 'play' | 'menu' | 'recorded';

/**
 * The phone line (decision 0067): Twilio's voice webhook and the steps its TwiML leads to, under
 * /api/webhooks/twilio/voice. Every step checks Twilio's signature, reads where the call is from
 * its URL (tagged for this CallSid), and looks the caller up again, so STOP, a removed
 * membership or "press 9" counts from the next step on.
 */
const twilioVoice: FastifyPluginAsync = async (app) => {
  await app.register(formbody, { bodyLimit: LIMITS.webhookBytes });
  const pending = new Set<Promise<unknown>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pending]);
  });

  const secret = () => app.ctx.config.SESSION_SECRET;
  const url = (step: Step, callSid: string, state: CallState) =>
    `${app.ctx.config.PUBLIC_URL}/api/webhooks/twilio/voice/${step}?${stateQuery(secret(), callSid, state)}`;
  const twiml = (reply: FastifyReply, body: string) => reply.type('text/xml').send(body);

  /** The verified caller's next step: pick a Loop, or hear the chosen one. */
  const proceed = async (callSid: string, caller: Caller, state: CallState): Promise<string> => {
    const names = caller.loops.map((loop) => loop.name);
    if (state.loopId === undefined && caller.loops.length > 1) return chooseLoop(url('loop', callSid, state), names);
    const loopId = state.loopId ?? caller.loops[0]?.id;
    if (loopId === undefined) return sayAndHangUp(CALL_WORDS.unknown);
    return play(callSid, caller, { ...state, loopId });
  };

  const play = async (callSid: string, caller: Caller, state: CallState): Promise<string> => {
    const loop = caller.loops.find((l) => l.id === state.loopId);
    if (!loop) return sayAndHangUp(CALL_WORDS.unknown);
    const menuAction = url('menu', callSid, state);
    const issue = await findIssue(app.ctx.db, loop.id, state.back);
    if (!issue) {
      const words = state.back === 0 ? CALL_WORDS.noIssue(loop.name) : CALL_WORDS.noEarlier;
      return sayThenMenu(words, url('menu', callSid, { ...state, back: Math.max(0, state.back - 1), section: 0 }));
    }
    const sections = newsletterSpeech(issue.content);
    const section = sections[Math.min(state.section, sections.length - 1)];
    if (!section) return sayThenMenu(CALL_WORDS.noIssue(loop.name), menuAction);
    const intro = state.section === 0 ? (state.back === 0 ? CALL_WORDS.hello(loop.name) : CALL_WORDS.previous) : null;
    const last = state.section >= sections.length - 1;
    const now = app.ctx.clock();
    return readSection({
      intro,
      section,
      mediaUrl: (key) => `${app.ctx.config.PUBLIC_URL}${callMediaPath(secret(), key, now)}`,
      menuAction,
      next: last ? null : url('play', callSid, { ...state, section: state.section + 1 }),
    });
  };

  /** Twilio's fields, the call's state (none on the first step) and the caller, checked again. */
  const begin = async (request: FastifyRequest, withState: boolean) => {
    const params = verifiedParams(request, app.ctx.config);
    const callSid = params.CallSid ?? '';
    if (!/^CA[0-9a-f]{32}$/.test(callSid)) throw new AppError('bad_request', 'CallSid must be a Twilio call id.');
    let state = START_STATE;
    if (withState) {
      const read = readState(secret(), callSid, request.query as { s?: unknown; k?: unknown });
      if (!read) throw new AppError('forbidden', 'This step does not belong to this call.');
      state = read;
    }
    const caller = await findCaller(app.ctx.db, params.From ?? '');
    return { params, callSid, state, caller };
  };

  const INCOMING = "An incoming call (Twilio's voice webhook): answered with TwiML (decision 0067).";
  const incoming = async (request: FastifyRequest, reply: FastifyReply) => {
    const { params, callSid, caller } = await begin(request, false);
    if (caller?.optedOut) return twiml(reply, sayAndHangUp(CALL_WORDS.optedOut));
    if (params.StirVerstat === FULL_ATTESTATION) {
      if (!caller || caller.loops.length === 0) return twiml(reply, sayAndHangUp(CALL_WORDS.unknown));
      await clearPinFailures(app.ctx.db, caller.userId);
      return twiml(reply, await proceed(callSid, caller, { ...START_STATE, verified: true }));
    }
    // Caller ID alone proves nothing: everyone hears the same PIN question, member or not (decision 0067).
    return twiml(reply, askPin(url('pin', callSid, START_STATE), false));
  };
  // The console's URL with or without a trailing slash (Twilio signs the URL it called, slash included).
  app.post('/', { ...twilioForm(INCOMING), prefixTrailingSlash: 'no-slash' }, incoming);
  app.post('/', { ...twilioForm(INCOMING), prefixTrailingSlash: 'slash' }, incoming);

  app.post('/pin', twilioForm('A PIN said on a call: the newsletter, or the question again.'), async (request, reply) => {
    const { params, callSid, state, caller } = await begin(request, true);
    if (caller?.optedOut) return twiml(reply, sayAndHangUp(CALL_WORDS.optedOut));
    const pin = params.Digits ?? '';
    const check =
      caller && caller.loops.length > 0
        ? await checkPhonePin(app.ctx.db, { secret: secret(), userId: caller.userId, pin, now: app.ctx.clock() })
        : 'wrong';
    if (caller && check === 'right') return twiml(reply, await proceed(callSid, caller, { ...state, verified: true, tries: 0 }));
    const tries = state.tries + 1;
    if (tries >= PIN_TRIES_PER_CALL) return twiml(reply, sayAndHangUp(CALL_WORDS.pinEnd));
    return twiml(reply, askPin(url('pin', callSid, { ...state, tries }), true));
  });

  /** The steps only a caller who proved the phone reaches. */
  const member = async (request: FastifyRequest) => {
    const step = await begin(request, true);
    if (!step.state.verified || !step.caller) throw new AppError('forbidden', 'This call has not proved its phone.');
    return { ...step, caller: step.caller };
  };

  app.post('/loop', twilioForm('The Loop a caller in several picked.'), async (request, reply) => {
    const { params, callSid, state, caller } = await member(request);
    if (caller.optedOut) return twiml(reply, sayAndHangUp(CALL_WORDS.optedOut));
    const chosen = caller.loops[Number.parseInt(params.Digits ?? '', 10) - 1];
    if (!chosen)
      return twiml(
        reply,
        chooseLoop(
          url('loop', callSid, state),
          caller.loops.map((l) => l.name),
        ),
      );
    return twiml(reply, await play(callSid, caller, { ...state, loopId: chosen.id, back: 0, section: 0 }));
  });

  app.post('/play', twilioForm('The next section of the issue being read.'), async (request, reply) => {
    const { callSid, state, caller } = await member(request);
    if (caller.optedOut) return twiml(reply, sayAndHangUp(CALL_WORDS.optedOut));
    return twiml(reply, await play(callSid, caller, state));
  });

  app.post(
    '/menu',
    twilioForm('A key pressed at the menu: 1 repeat, 2 next, 3 issue before, 4 leave news, 9 stop calls.'),
    async (request, reply) => {
      const { params, callSid, state, caller } = await member(request);
      if (caller.optedOut) return twiml(reply, sayAndHangUp(CALL_WORDS.optedOut));
      switch (params.Digits) {
        case '2':
          return twiml(reply, await play(callSid, caller, { ...state, section: state.section + 1 }));
        case '3':
          return twiml(reply, await play(callSid, caller, { ...state, back: state.back + 1, section: 0 }));
        case '4':
          return twiml(reply, recordNews(url('recorded', callSid, state), url('play', callSid, state)));
        case '9':
          await stopCalls(app.ctx.db, caller.userId, app.ctx.clock());
          return twiml(reply, sayAndHangUp(CALL_WORDS.callsStopped));
        default:
          return twiml(reply, await play(callSid, caller, state));
      }
    },
  );

  app.post('/recorded', twilioForm("A caller's recorded news (Twilio's <Record> action)."), async (request, reply) => {
    const { params, callSid, state, caller } = await member(request);
    if (caller.optedOut) return twiml(reply, sayAndHangUp(CALL_WORDS.optedOut));
    const loop = caller.loops.find((l) => l.id === state.loopId);
    const back = url('play', callSid, state);
    const recordingSid = params.RecordingSid ?? '';
    if (!loop || !params.RecordingUrl || !/^RE[0-9a-f]{32}$/.test(recordingSid) || params.RecordingDuration === '0') {
      return twiml(reply, sayThenGo(CALL_WORDS.nothingRecorded, back));
    }
    // Fetching and converting take longer than Twilio waits for an answer: they run after it (decision 0067).
    const task = storeRecordedNews(app.ctx, {
      userId: caller.userId,
      phoneNumber: params.From ?? '',
      calledNumber: params.To ?? '',
      loop,
      callSid,
      recordingSid,
      recordingUrl: params.RecordingUrl,
    }).catch((error: unknown) => request.log.error({ err: error }, 'a recorded call could not be stored'));
    pending.add(task);
    void task.finally(() => pending.delete(task));
    return twiml(reply, sayThenGo(CALL_WORDS.recorded(loop.name), back));
  });

  // A voice memo for <Play>: a short-lived signed link (voice/media-link.ts), never the memo's /media address.
  const mediaParams = z.object({ key: z.string() });
  const mediaQuery = z.object({ e: z.string().default(''), t: z.string().default('') });
  app.get(
    '/media/:key',
    {
      schema: { description: "A voice memo as a call plays it (WAV), for Twilio's <Play>.", params: mediaParams, querystring: mediaQuery },
    },
    async (request, reply) => {
      const { key } = mediaParams.parse(request.params);
      const { e, t } = mediaQuery.parse(request.query);
      const gone = new AppError('not_found', 'This link is not valid or has expired.');
      if (!STORAGE_KEY.test(key) || !validMediaLink(secret(), key, e, t, app.ctx.clock())) throw gone;
      const [row] = await app.ctx.db
        .select({ variants: media.variants })
        .from(media)
        .where(and(eq(media.storageKey, key), like(media.contentType, 'audio/%')));
      const stored = row?.variants.at(-1);
      const bytes = stored ? await app.ctx.storage.get(stored.key) : null;
      const tools = findFfmpeg(app.ctx.config.FFMPEG_PATH);
      const audio = bytes && tools ? await toPhoneAudio(tools, bytes, app.ctx.config.FFMPEG_TIMEOUT_SECONDS * 1000) : null;
      if (!audio) throw gone;
      return reply.type(PHONE_AUDIO_CONTENT_TYPE).header('cache-control', 'private, no-store').send(audio);
    },
  );
};

export default twilioVoice;
