import { isMap, isSeq, parseDocument } from 'yaml';
import type { Variant } from './sweepVariants.js';

/**
 * The config to trade the chosen variant with: the study's config file, comments and all, with the
 * swept strategy's params set to the variant's and the `sweep:` section removed, headed by a
 * comment saying where it came from. Paper-trade it first (`venue.profile: paper`).
 */
export function bestConfigYaml(configText: string, strategy: string, variant: Variant, why: string): string {
  const document = parseDocument(configText);
  const strategies = document.get('strategies');
  const index = isSeq(strategies)
    ? strategies.items.findIndex((item) => isMap(item) && item.get('name') === strategy)
    : -1;
  if (index < 0) throw new RangeError(`the study's config has no strategy named ${strategy}`);
  for (const [name, value] of Object.entries(variant.params))
    document.setIn(['strategies', index, 'params', name], value);
  document.delete('sweep');
  const head = [
    `perpbot sweep: variant ${variant.id} (${Object.entries(variant.params)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ')})`,
    why,
    'paper-trade it before going live: set venue.profile to paper (see config/paper.yaml)',
  ];
  document.commentBefore = [
    ...head.map((line) => ` ${line}`),
    ...(document.commentBefore ?? '').split('\n').filter((l) => l !== ''),
  ].join('\n');
  return document.toString();
}
