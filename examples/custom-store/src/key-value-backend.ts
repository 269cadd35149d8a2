/**
 * The smallest storage a team might already have: string keys, string values, a prefix scan.
 * Think Redis, DynamoDB, a browser's IndexedDB or a SQL table with two columns.
 */
export interface KeyValueBackend {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  keys(prefix: string): Promise<string[]>;
}

/** A KeyValueBackend in a Map, standing in for the real thing in this example. */
export class MapBackend implements KeyValueBackend {
  private readonly data = new Map<string, string>();

  async get(key: string) {
    return this.data.get(key);
  }
  async set(key: string, value: string) {
    this.data.set(key, value);
  }
  async delete(key: string) {
    this.data.delete(key);
  }
  async keys(prefix: string) {
    return [...this.data.keys()].filter((key) => key.startsWith(prefix));
  }
}
