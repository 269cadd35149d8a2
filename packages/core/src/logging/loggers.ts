import type { ILogger } from '../interfaces/logger';

/** Discards everything. */
export const silentLogger: ILogger = { debug() {}, info() {}, warn() {}, error() {} };

/** Writes warnings and errors to the console, prefixed with `[reverie]`. */
export const consoleLogger: ILogger = {
  debug() {},
  info(message, context) {
    console.info(`[reverie] ${message}`, context ?? '');
  },
  warn(message, context) {
    console.warn(`[reverie] ${message}`, context ?? '');
  },
  error(message, context) {
    console.error(`[reverie] ${message}`, context ?? '');
  },
};

/**
 * The builder's default: warnings and errors to stderr, one line each (`[reverie] warning: …`
 * followed by its context as JSON); debug and info are dropped. Every background failure Reverie
 * reports is a warning or an error, so a host sees them without configuring anything.
 */
export const stderrLogger: ILogger = {
  debug() {},
  info() {},
  warn(message, context) {
    console.warn(formatLogLine('warning', message, context));
  },
  error(message, context) {
    console.error(formatLogLine('error', message, context));
  },
};

/** `[reverie] <level>: <message> <context as JSON>` (the context left out when empty). Pure. */
export function formatLogLine(level: string, message: string, context?: Record<string, unknown>): string {
  const line = `[reverie] ${level}: ${message}`;
  if (context === undefined || Object.keys(context).length === 0) return line;
  return `${line} ${contextJson(context)}`;
}

function contextJson(context: Record<string, unknown>): string {
  try {
    return JSON.stringify(context, (_key, value: unknown) =>
      value instanceof Error ? value.message : typeof value === 'bigint' ? String(value) : value,
    );
  } catch {
    return String(context);
  }
}

/** Keeps every record in memory; handy in tests that assert a warning was given. */
export class RecordingLogger implements ILogger {
  readonly records: Array<{ level: 'debug' | 'info' | 'warn' | 'error'; message: string; context?: Record<string, unknown> }> = [];
  debug(message: string, context?: Record<string, unknown>) {
    this.records.push({ level: 'debug', message, ...(context ? { context } : {}) });
  }
  info(message: string, context?: Record<string, unknown>) {
    this.records.push({ level: 'info', message, ...(context ? { context } : {}) });
  }
  warn(message: string, context?: Record<string, unknown>) {
    this.records.push({ level: 'warn', message, ...(context ? { context } : {}) });
  }
  error(message: string, context?: Record<string, unknown>) {
    this.records.push({ level: 'error', message, ...(context ? { context } : {}) });
  }
}
