import type { GatewayRequest, ModelGatewayLike } from '../../../engine/dream-types';

export interface ShownEntry {
  id: string;
  category: string;
  tags: string[];
  content: string;
}

const LINE = /^\[([0-9a-f]{12})\] \(([^)]*)\) first=\S+ last=\S+ reinforced=\d+×(?: subject=\S+)?(?: tags=(\[.*?\]))? : (".*")$/;

/** The entries a request showed, read back from its rendered data. */
export function shownEntries(data: string): ShownEntry[] {
  const shown: ShownEntry[] = [];
  for (const line of data.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    shown.push({ id: match[1]!, category: match[2]!, tags: match[3] ? (JSON.parse(match[3]) as string[]) : [], content: JSON.parse(match[4]!) as string });
  }
  return shown;
}

export type Script = (data: string, call: number) => unknown;

/**
 * A `ModelGatewayLike` whose replies come from a script. Each reply goes through the request's
 * schema, as the real gateway does; every request is kept for assertions.
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

  /** The ids shown in each request, in order. */
  shownIds(): string[][] {
    return this.requests.map((request) => shownEntries(request.data).map((entry) => entry.id));
  }
}
