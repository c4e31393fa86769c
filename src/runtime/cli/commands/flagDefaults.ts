/**
 * Defaults of command flags that both a command's spec (its help text) and its run module read. They
 * live apart from the spec because the spec loads its run module lazily (`await import`), so the run
 * module must not import the spec back.
 */
export const DEFAULT_KEY_DIR = 'keys';
export const DEFAULT_BUDGET_USD = '1000';
export const DEFAULT_ALLOWANCE_DAYS = 30;
