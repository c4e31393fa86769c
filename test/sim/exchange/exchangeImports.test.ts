import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');
const EXCHANGE = join(SRC, 'sim', 'exchange');
const sources = readdirSync(EXCHANGE)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(join(EXCHANGE, name), 'utf8') }));

describe('exchange core purity', () => {
  it('imports only core, protocol, venue schemas and itself, with .js relative specifiers', () => {
    const offences: string[] = [];
    for (const { name, text } of sources) {
      for (const match of text.matchAll(/from '([^']+)'/g)) {
        const specifier = match[1] ?? '';
        if (!specifier.startsWith('.')) {
          offences.push(`${name} imports package ${specifier}`);
          continue;
        }
        const target = relative(SRC, resolve(EXCHANGE, specifier)).split(/[\\/]/);
        const allowed =
          target[0] === 'core' ||
          target[0] === 'protocol' ||
          (target[0] === 'venue' && target[1] === 'schemas') ||
          (target[0] === 'sim' && target[1] === 'exchange');
        if (!allowed) offences.push(`${name} imports ${specifier}`);
        if (!specifier.endsWith('.js')) offences.push(`${name} imports ${specifier} without .js`);
      }
    }
    expect(sources.length).toBeGreaterThan(10);
    expect(offences).toEqual([]);
  });

  it('reads no clock, no global randomness and starts no timers (time and seeds come in as arguments)', () => {
    const forbidden =
      /\bDate\.now\b|\bnew Date\b|\bMath\.random\b|\bperformance\.now\b|\bsetTimeout\b|\bsetInterval\b|\bsetImmediate\b|\bprocess\./;
    expect(sources.filter(({ text }) => forbidden.test(text)).map(({ name }) => name)).toEqual([]);
  });
});
