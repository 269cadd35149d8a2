/** Counts steps of a computation, so tests can check how its work grows without timing it. */
export interface WorkMeter {
  count: number;
}

/** A meter nobody reads. */
export const noWork: WorkMeter = {
  get count() {
    return 0;
  },
  set count(_value: number) {},
};
