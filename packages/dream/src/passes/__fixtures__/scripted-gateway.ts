import type { GatewayRequest, ModelGatewayLike } from '../../engine/dream-types';

export type Script = (data: string, call: number) => unknown;

/**
 * A `ModelGatewayLike` whose replies come from a script, for every pass's tests. Each reply goes
 * through the request's schema, as the real gateway does; every request is kept for assertions.
 */
export class ScriptedGateway implements ModelGatewayLike {
  readonly requests: Array<GatewayRequest<unknown>> = [];
  readonly usage = { inputTokens: 0, outputTokens: 0, calls: 0 };
  readonly refusals: string[] = [];

  constructor(private readonly script: Script = () => ({ toDelete: [], toSave: [] })) {}

  async ask<T>(request: GatewayRequest<T>): Promise<T> {
    this.requests.push(request as GatewayRequest<unknown>);
    this.usage.calls += 1;
    this.usage.inputTokens += Math.ceil(request.data.length / 4);
    return request.schema.parse(this.script(request.data, this.usage.calls));
  }

  /** What each request showed, in order, read back from its rendered data by `read`. */
  shown<T>(read: (data: string) => T): T[] {
    return this.requests.map((request) => read(request.data));
  }
}
