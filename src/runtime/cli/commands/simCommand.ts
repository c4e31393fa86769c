import type { CommandSpec } from '../commandSpec.js';

/**
 * `perpbot sim ...` is `npm run sim -- ...`: the simulator's own CLI in a child process with the
 * same flags and the same terminal. Ctrl-C reaches the child through the process group; this
 * process only waits for it and passes on SIGTERM.
 */
export const simCommand: CommandSpec = {
  name: 'sim',
  summary: 'run the local venue simulator (flags as npm run sim; see perpbot sim --help)',
  usage: 'perpbot sim [simulator options]',
  flags: {},
  passThrough: true,
  run: async (_args, io, raw) => (await import('./runSim.js')).runSim(_args, io, raw),
};
