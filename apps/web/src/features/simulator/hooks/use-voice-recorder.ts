import { useEffect, useRef, useState } from 'react';

/** The longest recording: Loop takes voice memos up to 5 minutes (VOICE_MAX_SECONDS), so it stops there. */
export const MAX_RECORDING_SECONDS = 5 * 60;

/** What the browser records in, best first: Opus in WebM (Chromium, Firefox) or Ogg, else AAC in MP4 (Safari). */
const RECORDING_TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4', 'audio/webm'];

/** Why recording could not start, in words a person can act on. */
export function microphoneProblem(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return 'The microphone is blocked for this site. Allow it in the browser’s site settings, or attach an audio file instead.';
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return 'No microphone was found. Connect one, or attach an audio file instead.';
  if (name === 'NotReadableError')
    return 'The microphone is in use by another app. Close it and try again, or attach an audio file instead.';
  return 'The microphone could not start. Try again, or attach an audio file instead.';
}

export const NO_RECORDING =
  'This browser can’t record here: recording needs a microphone and a secure page (https or localhost). Attach an audio file instead.';

type State = { status: 'idle' } | { status: 'starting' } | { status: 'recording'; seconds: number };

/**
 * A voice memo recorded in the browser with MediaRecorder. `start` asks for the microphone;
 * `stop` hands the recording over as a file (`onRecorded`); `cancel` throws it away. The
 * microphone is released whenever recording ends, and when the component goes away.
 */
export function useVoiceRecorder(handlers: {
  onStarted: () => void;
  onRecorded: (file: File, seconds: number) => void;
  onProblem: (problem: string) => void;
}) {
  const [state, setState] = useState<State>({ status: 'idle' });
  const session = useRef<{ recorder: MediaRecorder; stream: MediaStream; timer: number; startedAt: number; keep: boolean } | null>(null);
  const callbacks = useRef(handlers);
  useEffect(() => {
    callbacks.current = handlers;
  });

  // Recording stops, unkept, when the phone view goes away (also while the microphone is asked for).
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      finish(false);
    };
  }, []);

  function finish(keep: boolean) {
    const current = session.current;
    if (!current) return;
    current.keep = keep;
    window.clearInterval(current.timer);
    if (current.recorder.state !== 'inactive') current.recorder.stop();
    else current.stream.getTracks().forEach((track) => track.stop());
  }

  async function start() {
    if (session.current || state.status !== 'idle') return;
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      callbacks.current.onProblem(NO_RECORDING);
      return;
    }
    setState({ status: 'starting' });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      setState({ status: 'idle' });
      callbacks.current.onProblem(microphoneProblem(error));
      return;
    }
    if (!alive.current) {
      stream.getTracks().forEach((track) => track.stop());
      return;
    }
    const mimeType = RECORDING_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const chunks: Blob[] = [];
    const startedAt = Date.now();
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = () => {
      stream.getTracks().forEach((track) => track.stop());
      const ended = session.current;
      session.current = null;
      setState({ status: 'idle' });
      if (!ended?.keep) return;
      const type = (recorder.mimeType || mimeType || 'audio/webm').split(';')[0] ?? 'audio/webm';
      const seconds = (Date.now() - startedAt) / 1000;
      const blob = new Blob(chunks, { type });
      if (blob.size === 0) {
        callbacks.current.onProblem('Nothing was recorded. Check the microphone and try again.');
        return;
      }
      const extension = type === 'audio/mp4' ? 'm4a' : type === 'audio/ogg' ? 'ogg' : 'webm';
      callbacks.current.onRecorded(new File([blob], `voice-memo.${extension}`, { type }), seconds);
    };
    const timer = window.setInterval(() => {
      const seconds = Math.floor((Date.now() - startedAt) / 1000);
      if (seconds >= MAX_RECORDING_SECONDS) finish(true);
      else setState({ status: 'recording', seconds });
    }, 250);
    session.current = { recorder, stream, timer, startedAt, keep: true };
    recorder.start(1000);
    setState({ status: 'recording', seconds: 0 });
    callbacks.current.onStarted();
  }

  return { state, start, stop: () => finish(true), cancel: () => finish(false) };
}
