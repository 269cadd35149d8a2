/** Where time comes from. Logic never calls `Date.now()`; tests inject a clock they can move. */
export interface IClock {
  now(): Date;
}
