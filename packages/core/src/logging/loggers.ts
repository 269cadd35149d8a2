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
