import type { VectorHit } from '@reverie/core';

/**
 * The `limit` most similar of the hits offered to it, without keeping or sorting the others: a
 * min-heap of the best so far, whose weakest a better hit replaces. Of hits equally similar, the
 * first offered wins. Pure.
 */
export class BestHits {
  private readonly ids: string[] = [];
  private readonly similarities: number[] = [];
  /** The order hits were offered in, for ties. */
  private readonly orders: number[] = [];
  private offered = 0;

  constructor(private readonly limit: number) {}

  /** Whether a hit this similar would be kept now (so the caller can skip work for one that would not). */
  wouldKeep(similarity: number): boolean {
    return this.limit >= 1 && (this.ids.length < this.limit || similarity > this.similarities[0]!);
  }

  offer(id: string, similarity: number): void {
    const order = this.offered++;
    if (!this.wouldKeep(similarity)) return;
    if (this.ids.length < this.limit) {
      this.ids.push(id);
      this.similarities.push(similarity);
      this.orders.push(order);
      this.siftUp(this.ids.length - 1);
      return;
    }
    this.ids[0] = id;
    this.similarities[0] = similarity;
    this.orders[0] = order;
    this.siftDown(0);
  }

  /** The kept hits, most similar first (ties in the order offered). */
  sorted(): VectorHit[] {
    return this.ids
      .map((id, i) => ({ id, similarity: this.similarities[i]!, order: this.orders[i]! }))
      .sort((a, b) => b.similarity - a.similarity || a.order - b.order)
      .map(({ id, similarity }) => ({ id, similarity }));
  }

  /** True when the hit at `a` should sit above the hit at `b` in the heap (it is weaker). */
  private weaker(a: number, b: number): boolean {
    return (
      this.similarities[a]! < this.similarities[b]! || (this.similarities[a] === this.similarities[b] && this.orders[a]! > this.orders[b]!)
    );
  }

  private siftUp(at: number): void {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.weaker(at, parent)) return;
      this.swap(at, parent);
      at = parent;
    }
  }

  private siftDown(at: number): void {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let weakest = at;
      if (left < this.ids.length && this.weaker(left, weakest)) weakest = left;
      if (right < this.ids.length && this.weaker(right, weakest)) weakest = right;
      if (weakest === at) return;
      this.swap(at, weakest);
      at = weakest;
    }
  }

  private swap(a: number, b: number): void {
    [this.ids[a], this.ids[b]] = [this.ids[b]!, this.ids[a]!];
    [this.similarities[a], this.similarities[b]] = [this.similarities[b]!, this.similarities[a]!];
    [this.orders[a], this.orders[b]] = [this.orders[b]!, this.orders[a]!];
  }
}
