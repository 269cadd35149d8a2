export {
  type ReverieServer,
  type ServerExtension,
  type ServerExtensionContext,
  startReverieServer,
  type StartServerOptions,
} from './reverie-server';
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_MCP_SESSIONS,
  DEFAULT_MCP_SESSION_IDLE_SECONDS,
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  isLoopbackHost,
  parseServerOptions,
  type ServerOptions,
  type ServerOptionsInput,
  serverOptionsSchema,
} from './options/server-options';
export { defineOperation, type HttpBinding, type Operation, type OperationAccess, type OperationContext } from './operations/operation';
export { OPERATIONS } from './operations/operation-catalogue';
export { OperationHost } from './operations/operation-host';
export { openApiDocument } from './http/openapi-document';
export type { HttpMethod, HttpRoute, RouteRequest } from './http/http-route';
export { readBody, readJsonBody } from './http/read-body';
export { sendJson } from './http/send';
export { staticFiles, type StaticFilesOptions } from './http/static-files';
export { serveStdio, type StdioServer, type StdioServerOptions } from './mcp/serve-stdio';
export { inspector, type InspectorOptions } from './inspector/inspector-extension';
