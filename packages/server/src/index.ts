export { type ReverieServer, type ServerExtension, type ServerExtensionContext, startReverieServer, type StartServerOptions } from './reverie-server';
export { DEFAULT_MAX_BODY_BYTES, isLoopbackHost, parseServerOptions, type ServerOptions, type ServerOptionsInput, serverOptionsSchema } from './options/server-options';
export { defineOperation, type HttpBinding, type Operation, type OperationAccess, type OperationContext } from './operations/operation';
export { OPERATIONS } from './operations/operation-catalogue';
export { OperationHost } from './operations/operation-host';
export type { HttpMethod, HttpRoute, RouteRequest } from './http/http-route';
export { readBody, readJsonBody } from './http/read-body';
export { sendJson } from './http/send';
export { staticFiles, type StaticFilesOptions } from './http/static-files';
