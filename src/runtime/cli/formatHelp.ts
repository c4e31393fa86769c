import { COMMON_FLAGS, type CommandSpec } from './commandSpec.js';

/** The `--help` text of one command. */
export function formatCommandHelp(spec: CommandSpec): string {
  const flags = { ...spec.flags, ...COMMON_FLAGS };
  const rows = Object.entries(flags).map(([name, flag]) => {
    const names = `${flag.short === undefined ? '    ' : `-${flag.short}, `}--${name}${flag.value === undefined ? '' : ` ${flag.value}`}`;
    return [names, flag.multiple === true ? `${flag.description} (repeatable)` : flag.description] as const;
  });
  const width = Math.max(...rows.map(([names]) => names.length)) + 2;
  const lines = [`Usage: ${spec.usage}`, '', spec.summary];
  if (spec.description !== undefined) lines.push('', spec.description);
  lines.push('', 'Options:', ...rows.map(([names, text]) => `  ${names.padEnd(width)}${text}`));
  return `${lines.join('\n')}\n`;
}

/** The `perpbot --help` text: every command with its one-line summary. */
export function formatMainHelp(commands: readonly CommandSpec[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    'Usage: perpbot <command> [options]',
    '',
    'Algorithmic trading bots for a perpetual-futures venue, with a local venue simulator.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Run perpbot <command> --help for the options of one command.',
    '',
  ].join('\n');
}
