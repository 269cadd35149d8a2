import { invalidOptions, optionIssues } from '@reverie/core';
import { z } from 'zod';

/** 1 MiB: far above any memory entry or plan id a caller sends, far below what could hurt the process. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** 30 minutes: a client that went away without ending its session stops holding one. */
export const DEFAULT_MCP_SESSION_IDLE_SECONDS = 30 * 60;

/** 100 MCP sessions over HTTP at once (about 50 KB of heap each): far more than the clients of one agent's memory. */
export const DEFAULT_MAX_MCP_SESSIONS = 100;

/** 30 s to receive a request's headers and body: a 1 MiB body arrives in far less; a client that drips one does not hold a connection for minutes. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30;

/** 256 connections at once: every MCP session's event stream and requests, with room to spare. */
export const DEFAULT_MAX_CONNECTIONS = 256;

/**
 * SPEC O10: one origin a browser page may call the API from, as the browser sends it
 * (`https://ops.example.com`). Only http(s): `file:`, `data:`, `about:`, `javascript:` pages and
 * sandboxed frames all send the origin "null", which any page can make its own.
 */
const allowedOrigin = z.string().transform((value, context) => {
  let origin: string;
  try {
    origin = new URL(value).origin;
  } catch {
    origin = 'null';
  }
  if (origin === 'null' || !/^https?:\/\//.test(origin)) {
    context.addIssue({
      code: 'custom',
      message: `${JSON.stringify(value)} is not an http(s) origin: only pages served over http or https may be allowed (file:, data:, about: and sandboxed pages all send the origin "null", which any page can forge); give one such as https://ops.example.com`,
    });
    return z.NEVER;
  }
  return origin;
});

/** The options of `startReverieServer` (and of `reverie serve`), validated at start. */
export const serverOptionsSchema = z
  .object({
    /** The address to bind. Anything but loopback needs a `token`. */
    host: z.string().trim().min(1).default('127.0.0.1'),
    /** The TCP port; 0 picks a free one (the started server says which). */
    port: z.number().int().min(0).max(65_535).default(4319),
    /** The bearer token every request must carry (`Authorization: Bearer <token>`); at least 16 characters. */
    token: z.string().min(16, 'the token must be at least 16 characters long').optional(),
    /** Refuse every operation that writes (READ_ONLY), on the HTTP API and over MCP. */
    readOnly: z.boolean().default(false),
    /** Origins a browser page may call the API from (CORS), each an http(s) origin. Empty: no cross-origin call is allowed. */
    allowedOrigins: z.array(allowedOrigin).default([]),
    /** The largest request body read, in bytes; a bigger one is answered 413 PAYLOAD_TOO_LARGE. */
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(DEFAULT_MAX_BODY_BYTES),
    /** An MCP session over HTTP that sends nothing for this many seconds is ended (its client initializes a new one). */
    mcpSessionIdleSeconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .default(DEFAULT_MCP_SESSION_IDLE_SECONDS),
    /** The most MCP sessions over HTTP open at once; one more `initialize` is answered 503 TOO_MANY_SESSIONS. */
    maxMcpSessions: z.number().int().min(1).max(100_000).default(DEFAULT_MAX_MCP_SESSIONS),
    /** The longest a client may take to send a request's headers and body; past it the request is answered 408 REQUEST_TIMEOUT and its connection closed. */
    requestTimeoutSeconds: z.number().int().min(1).max(3600).default(DEFAULT_REQUEST_TIMEOUT_SECONDS),
    /** The most connections open at once (`server.maxConnections`); one more is closed as soon as it is accepted. */
    maxConnections: z.number().int().min(1).max(100_000).default(DEFAULT_MAX_CONNECTIONS),
  })
  .strict();

export type ServerOptionsInput = z.input<typeof serverOptionsSchema>;
export type ServerOptions = z.output<typeof serverOptionsSchema>;

/** Loopback addresses: the only ones served without a token. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare) || bare === '::ffff:127.0.0.1';
}

/**
 * Validates the options (INVALID_OPTIONS, naming the field) and refuses to serve another address
 * than loopback without a token: anyone who can reach the port could read and rewrite the memory.
 */
export function parseServerOptions(input: ServerOptionsInput = {}): ServerOptions {
  const parsed = serverOptionsSchema.safeParse(input);
  if (!parsed.success) {
    const issues = optionIssues(parsed.error);
    throw invalidOptions(
      `Invalid server options: ${issues.map(({ path, message }) => `${path || 'options'}: ${message}`).join('; ')}.`,
      issues,
    );
  }
  const options = parsed.data;
  if (!isLoopbackHost(options.host) && options.token === undefined) {
    throw invalidOptions(
      `Refusing to serve on ${options.host} without a token: anything but loopback (127.0.0.1) needs one. Pass --token (or set REVERIE_TOKEN) to a secret of at least 16 characters, or bind 127.0.0.1.`,
      [{ path: 'token', message: 'required on anything but loopback' }],
    );
  }
  return options;
}
