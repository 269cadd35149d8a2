/**
 * Runs async operations one at a time, in the order they were queued. A failed operation rejects
 * its own caller and does not stop the ones after it. `idle()` resolves when the queue is empty.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.tail.then(operation);
    this.tail = result.catch(() => undefined);
    return result;
  }

  async idle(): Promise<void> {
    let current: Promise<unknown>;
    do {
      current = this.tail;
      await current;
    } while (current !== this.tail);
  }
}
