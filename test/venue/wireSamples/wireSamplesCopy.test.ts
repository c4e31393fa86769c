import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const COPY = fileURLToPath(new URL('../../vectors/wire-samples', import.meta.url));
/** The samples as shared with the team, beside the checkout (CI lays shared/ there). */
const SHARED = fileURLToPath(new URL('../../../../shared/spec/wire-samples', import.meta.url));

/** Every file below `root`, as paths relative to it. */
function filesUnder(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(root, path) : [relative(root, path)];
  });
}

describe('the wire samples the tests read', () => {
  it.runIf(existsSync(SHARED))('are every shared sample, byte for byte (a new sample must be copied in)', () => {
    for (const file of filesUnder(SHARED).filter((f) => f.endsWith('.json'))) {
      expect(existsSync(join(COPY, file)), `${file} is not in test/vectors/wire-samples`).toBe(true);
      expect(readFileSync(join(COPY, file), 'utf8'), file).toBe(readFileSync(join(SHARED, file), 'utf8'));
    }
  });

  it('are all JSON', () => {
    const files = filesUnder(COPY).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(14);
    for (const file of files) expect(() => JSON.parse(readFileSync(join(COPY, file), 'utf8')), file).not.toThrow();
  });
});
