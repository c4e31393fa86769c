import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CliIo } from '../cliIo.js';
import { CliUsageError } from '../cliUsageError.js';
import type { ParsedArgs } from '../commandSpec.js';
import { configSnippet, strategyFileName, strategySource, testSource } from './strategyTemplate.js';

/** A strategy name as the config takes it (letters, digits, _ and -), starting with a letter. */
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** `perpbot new strategy NAME`: the two files, never over existing ones, and what to run next. */
export function runNewStrategy(args: ParsedArgs, io: CliIo): number {
  const [kind, name] = args.positionals;
  if (kind !== 'strategy')
    throw new CliUsageError(`perpbot new: unknown kind ${JSON.stringify(kind)}`, ['usage: perpbot new strategy NAME']);
  if (name === undefined || !NAME.test(name)) {
    throw new CliUsageError(`perpbot new strategy: ${JSON.stringify(name)} is not a strategy name`, [
      'use letters, digits, _ and -, starting with a letter (at most 64), e.g. perpbot new strategy my-twap',
    ]);
  }
  const file = strategyFileName(name);
  const strategyPath = join(io.cwd, 'strategies', `${file}.ts`);
  const testPath = join(io.cwd, 'test', `${file}.test.ts`);
  for (const path of [strategyPath, testPath]) {
    if (existsSync(path))
      throw new CliUsageError(`perpbot new strategy: ${relative(io.cwd, path)} already exists`, [
        'choose another name, or move the file away first',
      ]);
  }
  mkdirSync(join(io.cwd, 'strategies'), { recursive: true });
  mkdirSync(join(io.cwd, 'test'), { recursive: true });
  writeFileSync(strategyPath, strategySource(name), { flag: 'wx' });
  writeFileSync(testPath, testSource(name), { flag: 'wx' });
  io.stdout.write(
    [
      `wrote strategies/${file}.ts and test/${file}.test.ts`,
      '',
      'next:',
      `  npx perpbot check strategies/${file}.ts`,
      '      type-check it and check its params',
      `  npx vitest run test/${file}.test.ts`,
      '      its test, in virtual time (npm install -D vitest first)',
      '  npx perpbot start --config bot.yaml',
      '      run it on the embedded simulator, with this bot.yaml:',
      '',
      ...configSnippet(name)
        .trimEnd()
        .split('\n')
        .map((line) => `    ${line}`),
      '',
    ].join('\n'),
  );
  return 0;
}
