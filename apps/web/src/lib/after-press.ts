/**
 * Runs `fn` now, or, while a mouse button is held down, just after the press ends.
 *
 * Validation on blur shows or hides a message, which moves what is below it. A blur caused by
 * pressing a button happens between the press and the release: the button would move away
 * and the release land elsewhere, so the click would be lost. Fields call their blur
 * handler through this so the click lands first, then the message shows.
 */
export function afterPress(fn: () => void): void {
  if (!pressed) {
    fn();
    return;
  }
  pending.push(fn);
}

let pressed = false;
let pending: (() => void)[] = [];

function release() {
  pressed = false;
  const run = pending;
  pending = [];
  // After the click that follows this release.
  if (run.length > 0) setTimeout(() => run.forEach((fn) => fn()), 0);
}

if (typeof window !== 'undefined') {
  window.addEventListener('pointerdown', (event) => (pressed = event.pointerType === 'mouse'), true);
  window.addEventListener('pointerup', release, true);
  window.addEventListener('pointercancel', release, true);
  window.addEventListener('blur', release);
}
