import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/runtime/config/configError.js';
import { substituteEnv } from '../../../src/runtime/config/substituteEnv.js';

describe('substituteEnv', () => {
  it('replaces references inside strings, at any depth, and leaves other values alone', () => {
    const tree = { venue: { rest_url: 'https://${HOST}/api', port: 8080 }, list: ['${A}-${B}', true, null] };
    expect(substituteEnv(tree, { HOST: 'venue.example', A: 'x', B: 'y' })).toEqual({
      venue: { rest_url: 'https://venue.example/api', port: 8080 },
      list: ['x-y', true, null],
    });
  });

  it('uses the default when the variable is unset or empty, and the value when set', () => {
    const tree = { a: '${X:-fallback}', b: '${Y:-fallback}', c: '${Z:-}', d: '${W:-fallback}' };
    expect(substituteEnv(tree, { Y: '', W: 'set' })).toEqual({ a: 'fallback', b: 'fallback', c: '', d: 'set' });
  });

  it('keeps a set-but-empty variable without default as the empty string', () => {
    expect(substituteEnv({ a: '<${E}>' }, { E: '' })).toEqual({ a: '<>' });
  });

  it('keeps results as strings, never reinterpreting them as numbers or booleans', () => {
    expect(substituteEnv({ port: '${PORT}', dry: '${DRY}' }, { PORT: '9000', DRY: 'true' })).toEqual({
      port: '9000',
      dry: 'true',
    });
  });

  it('does not substitute recursively or in keys, and $${ is a literal ${', () => {
    const tree = { '${KEY}': '${A}', literal: 'cost $${NOT_A_VAR}' };
    expect(substituteEnv(tree, { A: '${B}', B: 'no', KEY: 'no' })).toEqual({
      '${KEY}': '${B}',
      literal: 'cost ${NOT_A_VAR}',
    });
  });

  it('names the variable and the config path when a variable without default is missing', () => {
    const tree = { strategies: [{ params: { host: '${MISSING_HOST}' } }] };
    let caught: unknown;
    try {
      substituteEnv(tree, {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.path).toBe('strategies[0].params.host');
    expect(error.message).toBe(
      'config error at strategies[0].params.host: environment variable MISSING_HOST is not set (referenced as ${MISSING_HOST})',
    );
    expect(error.hints.join(' ')).toContain('${MISSING_HOST:-value}');
  });

  it('refuses a malformed reference, naming its path', () => {
    expect(() => substituteEnv({ a: { b: '${1BAD}' } }, {})).toThrow(
      /config error at a\.b: malformed environment reference "\$\{1BAD\}"/,
    );
  });
});
