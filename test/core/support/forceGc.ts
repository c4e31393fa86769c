import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection now, as `global.gc()` under `--expose-gc` (which vitest's workers do
 * not run with): the flag is set at run time, and a fresh context picks up the `gc` function.
 */
export function forceGc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
