import type { TierReport, ValueExplanation } from 'reverie';
import { singleLine } from './single-line';

/** `memory tiers` in text: the counts, the thresholds, and the entries nearest each one. Pure. */
export function renderTierReport(report: TierReport & { enabled: boolean }): string {
  const { demoteBelow, promoteAbove, minAgeDays } = report.thresholds;
  const total = report.hot + report.cold;
  const lines = [
    `${report.hot} hot, ${report.cold} cold (${total === 0 ? 0 : Math.round((report.hot / total) * 100)}% hot)`,
    report.tiered
      ? `tier migration ${report.enabled ? 'on' : 'off (withDreaming({ tiers: { enabled: true } }) turns it on)'}: to cold at ≤ ${demoteBelow} after ${minAgeDays} days, back at ≥ ${promoteAbove}`
      : 'this memory store has no tiers: every entry stays hot',
  ];
  const block = (title: string, items: TierReport['nearDemotion']) => {
    if (items.length === 0) return;
    lines.push('', title);
    for (const item of items)
      lines.push(
        `  ${item.id}  ${item.score.toFixed(3)}  ${item.verdict.padEnd(9)}  ${String(item.ageDays).padStart(4)}d  ${singleLine(item.content)}`,
      );
  };
  block(`Hot entries nearest ${demoteBelow} (value, verdict, age):`, report.nearDemotion);
  block(`Cold entries nearest ${promoteAbove} (value, verdict, age):`, report.nearPromotion);
  return lines.join('\n');
}

/** The value score block of `memory explain` (SPEC B13). Pure. */
export function renderValue(value: ValueExplanation): string[] {
  const { recall, importance, reinforcement, recency } = value.parts;
  const rule = value.rule === 'weighted' ? '' : ` (${value.rule}: the weighted sum is ${value.weighted.toFixed(2)})`;
  return [
    `  tier: ${value.tier}; value score ${value.score.toFixed(2)}${rule}; ${Math.floor(value.ageDays)} days old; next tier migration: ${value.verdict}`,
    `  parts: recall ${recall.toFixed(2)}, importance ${importance.toFixed(2)}, reinforcement ${reinforcement.toFixed(2)}, recency ${recency.toFixed(2)}`,
  ];
}
