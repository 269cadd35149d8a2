/** A document's vector, the hash of the text it was made from, and its length (for cosines). */
export interface StoredVector {
  hash: string;
  vector: Float32Array;
  norm: number;
}
