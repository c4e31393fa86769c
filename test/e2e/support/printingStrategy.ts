import { EMPTY } from 'rxjs';
import { z } from 'zod';
import { defineStrategy } from '../../../src/strategy/index.js';

/**
 * A careless strategy: at start it prints the signer key it found in the environment every way
 * Node offers (console.log, console.dir, process.stdout.write, process.stderr.write), then
 * trades nothing. The bot's output must not hold the key however it was printed.
 */
export default defineStrategy({
  name: 'printing',
  description: 'prints the signer key from the environment four ways; places nothing',
  params: z.object({}),
  run: (ctx) => {
    const key = process.env['PERPBOT_SIGNER_KEY'] ?? '';
    console.log('log: %s', key);
    console.dir({ dir: key, nested: { deeper: key } });
    process.stdout.write(`stdout: ${key}\n`);
    process.stderr.write(Buffer.from(`stderr: ${key}\n`));
    ctx.log.info({}, 'printed');
    return EMPTY;
  },
});
