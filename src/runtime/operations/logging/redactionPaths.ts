import { SECRET_FIELD_NAMES } from '../../../core/secretFieldNames.js';

/**
 * pino `redact` paths: every secret field name at the top level and one level down, plus the
 * deeper wire shapes we log (a request whose body carries a permit). Wildcard paths cost time on
 * every line (three levels of wildcards made a line ~20x slower), so deeper fields are left to the
 * log formatter, which redacts secret names at any depth (core/redactor.ts).
 */
export function secretRedactionPaths(): string[] {
  const paths = SECRET_FIELD_NAMES.flatMap((key) => [key, `*.${key}`]);
  paths.push(
    'permit.signature',
    'permit_params.signature',
    '*.permit.signature',
    '*.permit_params.signature',
    'headers.authorization',
    'headers.Authorization',
    '*.headers.authorization',
    '*.headers.Authorization',
    'headers["set-cookie"]',
  );
  return paths;
}
