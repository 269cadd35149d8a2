/** The fields of a memory entry that say when its fact holds (SPEC B9). */
export interface ValidityFields {
  id: string;
  createdAt: string;
  validFrom?: string | undefined;
  validTo?: string | undefined;
  supersededBy?: string | undefined;
}

/**
 * What is wrong with an entry's validity, or undefined: `validTo` before `validFrom`, a
 * `supersededBy` without a `validTo` (a replaced fact always says when it stopped holding), an
 * entry that names itself as its successor. Pure.
 */
export function validityProblem(entry: Partial<ValidityFields>): { field: keyof ValidityFields; message: string } | undefined {
  if (entry.validFrom !== undefined && entry.validTo !== undefined && Date.parse(entry.validTo) < Date.parse(entry.validFrom)) {
    return { field: 'validTo', message: `validTo (${entry.validTo}) is before validFrom (${entry.validFrom})` };
  }
  if (entry.supersededBy !== undefined && entry.validTo === undefined) {
    return { field: 'supersededBy', message: 'a superseded entry needs validTo: the instant its successor took over' };
  }
  if (entry.supersededBy !== undefined && entry.supersededBy === entry.id) {
    return { field: 'supersededBy', message: 'an entry cannot supersede itself' };
  }
  return undefined;
}

/** True when the entry carries a validity bound: only such entries can fall out of current recall. */
export function hasValidityBounds(entry: Pick<ValidityFields, 'validFrom' | 'validTo'>): boolean {
  return entry.validFrom !== undefined || entry.validTo !== undefined;
}

/**
 * Whether the fact holds at `now` for current recall (SPEC B9): it has not ended (`validTo`
 * absent or after `now`) and does not start later (`validFrom` absent or at or before `now`).
 * An entry without bounds always holds, whatever its `createdAt`. Pure.
 */
export function holdsNow(entry: Pick<ValidityFields, 'validFrom' | 'validTo'>, now: number): boolean {
  return (
    (entry.validTo === undefined || Date.parse(entry.validTo) > now) &&
    (entry.validFrom === undefined || Date.parse(entry.validFrom) <= now)
  );
}

/**
 * Whether the fact was part of memory as it stood at `at` (SPEC B9, `asOf`): it held from
 * `validFrom` — else from `createdAt`, when it was first noted — up to `validTo` (exclusive). Pure.
 */
export function heldAt(entry: Pick<ValidityFields, 'createdAt' | 'validFrom' | 'validTo'>, at: number): boolean {
  return Date.parse(entry.validFrom ?? entry.createdAt) <= at && (entry.validTo === undefined || Date.parse(entry.validTo) > at);
}

/** Which facts a search sees: those that hold now, or those that held at `asOf`. */
export interface ValidityView {
  /** The store's clock, for current recall. */
  now: Date;
  /** The instant of an as-of search. */
  asOf?: Date | undefined;
}

/** The predicate of a `ValidityView`, for the entries of a store. Pure. */
export function validityTest(view: ValidityView): (entry: ValidityFields) => boolean {
  if (view.asOf !== undefined) {
    const at = view.asOf.getTime();
    return (entry) => heldAt(entry, at);
  }
  const now = view.now.getTime();
  return (entry) => holdsNow(entry, now);
}
