import type { RunRequest } from '@reverie/dream';
import { describeOutcome, formatDuration } from '../output/describe-outcome';
import type { OutputStream } from '../runtime/cli-io';

/** What the dream engine's `onPass` hook is told. */
export type PassProgress = Parameters<NonNullable<RunRequest['onPass']>>[0];

const CLEAR_LINE = '\r\x1b[2K';

export interface PassProgressPrinter {
  onPass(progress: PassProgress): void;
  /** Stops the live line's timer (call when the run ends, however it ends). */
  stop(): void;
}

/**
 * Progress of a dream run on `stream` (stderr, so stdout stays clean for JSON). On a TTY, one
 * live line per pass that counts the seconds while the pass runs and is replaced by its
 * outcome; otherwise plain lines, one when a pass starts and one when it ends.
 */
export function passProgressPrinter(stream: OutputStream, now: () => number = Date.now): PassProgressPrinter {
  let timer: ReturnType<typeof setInterval> | undefined;
  const stopTimer = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const position = (index: number, total: number) => `[${index + 1}/${total}]`;
  return {
    onPass(progress) {
      if (progress.type === 'start') {
        const label = `${position(progress.index, progress.total)} ${progress.name} (${progress.phase})`;
        if (!stream.isTTY) {
          stream.write(`${label} started\n`);
          return;
        }
        const started = now();
        const draw = () => stream.write(`${CLEAR_LINE}${label} running… ${formatDuration(now() - started)}`);
        draw();
        stopTimer();
        timer = setInterval(draw, 1000);
        timer.unref?.();
        return;
      }
      stopTimer();
      const line = `${position(progress.index, progress.total)} ${progress.outcome.name}: ${describeOutcome(progress.outcome)}`;
      stream.write(stream.isTTY ? `${CLEAR_LINE}${line}\n` : `${line}\n`);
    },
    stop: stopTimer,
  };
}
