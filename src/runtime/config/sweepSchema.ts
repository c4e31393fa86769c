import { z } from 'zod';
import { integer } from './configFields.js';
import type { DeepReadonly } from './deepFreeze.js';

/**
 * The `sweep:` section of a config (`perpbot sweep`): which strategy's params vary and over what,
 * how the variants are picked (the whole grid, or a seeded random sample), what ranks them, what
 * rules a variant out, and the walk-forward windows. The flags of `perpbot sweep` override it.
 */

/** What a sweep ranks by; `max_drawdown` is better lower, the others higher. */
export const SWEEP_OBJECTIVES = ['net_pnl', 'sharpe', 'max_drawdown', 'fills', 'quote_uptime'] as const;
export type SweepObjective = (typeof SWEEP_OBJECTIVES)[number];

/** The figures a constraint may name: the objectives and a few more of the replay report's totals. */
export const SWEEP_METRICS = [...SWEEP_OBJECTIVES, 'orders', 'volume', 'fees'] as const;
export type SweepMetricName = (typeof SWEEP_METRICS)[number];

/** A value a strategy's param takes: YAML scalars as the strategy's schema reads them. */
const paramValue = z.union([z.number(), z.string(), z.boolean()]);

/**
 * A range: `min` to `max` in steps of `step`, all numbers or all quoted decimals (a quoted range
 * gives quoted values, exact). Without `step`, a random sample draws in steps of 0.0001.
 */
const rangeBound = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, 'expected a decimal such as "0.001"')]);
const rangeSchema = z
  .strictObject({ min: rangeBound, max: rangeBound, step: rangeBound.optional() })
  .superRefine((range, ctx) => {
    const kinds = new Set([range.min, range.max, range.step].filter((v) => v !== undefined).map((v) => typeof v));
    if (kinds.size > 1)
      ctx.addIssue({
        code: 'custom',
        input: range,
        message: 'expected min, max and step all numbers or all quoted decimals',
      });
  });

/** A param's values: a list (each one tried) or a range. */
const paramSpace = z.union([z.array(paramValue).min(1), rangeSchema]);

/** "90s", "30m", "2h", "1500ms" or a whole number of milliseconds. */
export function duration() {
  return z.union([z.number(), z.string()]).transform((value, ctx): number => {
    const ms = durationMs(value);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', input: value, message: 'expected a duration such as "90s", "30m" or "2h"' });
      return z.NEVER;
    }
    return ms;
  });
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration in ms, or undefined when it is not one (zero and fractions of a millisecond are not). */
export function durationMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(value);
  if (match === null) return undefined;
  const ms = Number(match[1]) * (UNIT_MS[match[2] ?? 'ms'] ?? 1);
  return Number.isSafeInteger(ms) && ms > 0 ? ms : undefined;
}

/** "max_drawdown <= 50": a figure, a comparison and a number. */
export const CONSTRAINT_PATTERN = new RegExp(
  `^\\s*(${SWEEP_METRICS.join('|')})\\s*(<=|>=|<|>)\\s*(-?\\d+(?:\\.\\d+)?)\\s*$`,
);

const constraint = z
  .string()
  .regex(
    CONSTRAINT_PATTERN,
    `expected "<figure> <op> <number>" such as "max_drawdown <= 50", with a figure of ${SWEEP_METRICS.join(', ')} and op <=, <, >= or >`,
  );

export const sweepSchema = z.strictObject({
  // The strategy whose params vary (its name); default: the config's only strategy.
  strategy: z.string().trim().min(1).optional(),
  params: z
    .record(z.string().min(1), paramSpace)
    .refine((params) => Object.keys(params).length > 0, 'expected at least one param to vary'),
  // A random sample of this many distinct variants instead of the whole grid.
  sample: z.strictObject({ count: integer(1, 100_000), seed: integer(0, 0xffff_ffff).default(1) }).optional(),
  objective: z.enum(SWEEP_OBJECTIVES).default('net_pnl'),
  constraints: z.array(constraint).default([]),
  // Train on one span, test on the next, the windows `step` apart (default: the test span).
  walk_forward: z.strictObject({ train: duration(), test: duration(), step: duration().optional() }).optional(),
  // How many variants the summary, the page and each walk-forward window show.
  top: integer(1, 1_000).default(5),
  // Replays at once; 0: one per core.
  workers: integer(0, 256).default(0),
});

/** The section as a loaded config holds it (deeply read-only), or as the command's flags make it. */
export type SweepSection = DeepReadonly<z.output<typeof sweepSchema>>;
export type ParamSpace = SweepSection['params'][string];
export type ParamValue = z.output<typeof paramValue>;
