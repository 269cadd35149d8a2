import { describe, expect, it } from 'vitest';
import { parseServerOptions } from './server-options';

describe('parseServerOptions: allowedOrigins (SPEC O10)', () => {
  it.each([
    'file:///home/ana/page.html',
    'about:blank',
    'javascript:alert(1)',
    'data:text/html,<b>x</b>',
    'null',
    'ws://ops.example.com',
    'ftp://ops.example.com',
  ])('refuses %s, which is no http(s) origin, naming it', (value) => {
    expect(() => parseServerOptions({ allowedOrigins: [value] })).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTIONS',
        message: expect.stringContaining(`${JSON.stringify(value)} is not an http(s) origin`),
      }),
    );
  });

  it('accepts http and https origins, as the browser sends them', () => {
    const { allowedOrigins } = parseServerOptions({
      allowedOrigins: ['https://ops.example.com/dashboard', 'http://localhost:5173', 'HTTPS://Ops.Example.com:443'],
    });
    expect(allowedOrigins).toEqual(['https://ops.example.com', 'http://localhost:5173', 'https://ops.example.com']);
  });
});

describe('parseServerOptions: limits', () => {
  it('has safe defaults', () => {
    expect(parseServerOptions({})).toMatchObject({
      maxMcpSessions: 100,
      requestTimeoutSeconds: 30,
      maxConnections: 256,
      maxBodyBytes: 1024 * 1024,
      mcpSessionIdleSeconds: 1800,
    });
  });

  it.each([
    ['maxMcpSessions', 0],
    ['maxMcpSessions', 1.5],
    ['requestTimeoutSeconds', 0],
    ['requestTimeoutSeconds', 3601],
    ['maxConnections', 0],
    ['maxConnections', -1],
  ])('refuses %s: %s, naming it', (name, value) => {
    expect(() => parseServerOptions({ [name]: value })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(name) }),
    );
  });

  it('takes limits in range', () => {
    expect(parseServerOptions({ maxMcpSessions: 1, requestTimeoutSeconds: 1, maxConnections: 1 })).toMatchObject({
      maxMcpSessions: 1,
      requestTimeoutSeconds: 1,
      maxConnections: 1,
    });
  });
});
