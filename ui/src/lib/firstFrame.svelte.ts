/**
 * Whether the app's first frame is on screen. WebKitGTK lays out and paints in software,
 * so what that frame does not show (the grid's accessible cells, the panels below the
 * fold) is built after it: the first paint comes sooner and nothing is missing by the
 * time anyone can reach it.
 */
import { resettable } from './stores/registry';

class FirstFrame {
  painted = $state(false);
  #waiting = false;

  /** Starts waiting for the first frame (once); `painted` turns true after it. A task
   *  queued from a frame callback runs after that frame is painted, and one task more
   *  lets the start-up report queued from the same frame (`startup.ts`) time the paint
   *  alone. */
  wait(): void {
    if (this.painted || this.#waiting) return;
    this.#waiting = true;
    requestAnimationFrame(() => {
      setTimeout(() => {
        setTimeout(() => {
          this.painted = true;
        }, 0);
      }, 0);
    });
  }

  reset(): void {
    this.painted = false;
    this.#waiting = false;
  }
}

export const firstFrame = resettable(new FirstFrame(), (frame) => {
  frame.reset();
});
