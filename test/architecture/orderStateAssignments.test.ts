import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * One order model (issue 35): only src/engine/orders/ decides an order's state. Everything else
 * hands it an event (`applyOrderEvent`) and keeps, prints or journals the order it returns. This
 * reads every module in src/ (its syntax tree, not its text) and lists each place outside the
 * order model that writes an order state:
 * - a `state` property, or an assignment to `.state`, whose value names an order state in quotes;
 * - an object literal that sets `state` beside `filledSize`, or beside a spread from a variable
 *   (an order copied with a state decided here); a value read from another `state` is a copy;
 * - a call of the model's order builder `trackedOrder(…)`;
 * - SQL that sets a state (`SET state = '…'`).
 * The journal's migrations rename stored states (`pending` became `submitted`): a rename of a
 * name, not a decision of a state, and the one allowance.
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const ORDER_MODEL = 'src/engine/orders/';
const ALLOWED = new Set(['src/journal/journalMigrations.ts']);

const ORDER_STATES = new Set([
  'queued',
  'submitted',
  'unknown',
  'open',
  'partially_filled',
  'filled',
  'cancelled',
  'refused',
  'failed',
]);

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

function propertyName(node: ts.ObjectLiteralElementLike): string | undefined {
  if (ts.isSpreadAssignment(node) || node.name === undefined) return undefined;
  return ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : undefined;
}

/** Whether a value names an order state in quotes (anywhere in it: `a ? 'filled' : 'cancelled'`). */
function namesOrderState(node: ts.Node): boolean {
  if (ts.isStringLiteralLike(node)) return ORDER_STATES.has(node.text);
  return ts.forEachChild(node, (child) => (namesOrderState(child) ? true : undefined)) === true;
}

/** Whether a value reads another `state` (`o.state`, `row['state']`, `viewOf(o.state)`): a copy or a view, not a decision. */
function readsState(node: ts.Node): boolean {
  if (ts.isPropertyAccessExpression(node) && node.name.text === 'state') return true;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression))
    return node.argumentExpression.text === 'state';
  return ts.forEachChild(node, (child) => (readsState(child) ? true : undefined)) === true;
}

/**
 * Why an object literal writes an order state, or undefined: its `state` names one in quotes, or
 * (an order copied with a state decided here) it sits beside `filledSize`, or a spread with a state
 * held in a variable.
 */
function literalStateWrite(node: ts.ObjectLiteralExpression): string | undefined {
  const state = node.properties.find((p) => propertyName(p) === 'state');
  if (state === undefined) return undefined;
  const value = ts.isPropertyAssignment(state)
    ? state.initializer
    : ts.isShorthandPropertyAssignment(state)
      ? state.name
      : undefined;
  if (value === undefined || readsState(value)) return undefined;
  if (namesOrderState(value)) return 'a state named in quotes';
  if (node.properties.some((p) => propertyName(p) === 'filledSize')) return 'an order built with a state';
  if (node.properties.some(ts.isSpreadAssignment) && ts.isIdentifier(value)) return 'an order built with a state';
  return undefined;
}

/** Why `node` writes an order state, or undefined. */
function stateWrite(node: ts.Node): string | undefined {
  if (ts.isObjectLiteralExpression(node)) return literalStateWrite(node);
  if (
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
    ts.isPropertyAccessExpression(node.left) &&
    node.left.name.text === 'state' &&
    namesOrderState(node.right)
  )
    return '.state assigned an order state';
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'trackedOrder')
    return "the order model's builder called";
  if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
    if (/\bSET\s+state\s*=\s*'/i.test(node.text)) return 'SQL sets a state';
  }
  return undefined;
}

/** `file:line: why: text` for each write of an order state in `source`. */
function stateWrites(path: string, source: string): string[] {
  // Only a file that names a state or the builder can write one: the rest need no syntax tree.
  if (!/\bstate\b|trackedOrder\(/i.test(source)) return [];
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const why = stateWrite(node);
    if (why !== undefined) {
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      const text = node.getText(file).split('\n')[0]!.trim().slice(0, 80);
      found.push(`${path}:${line}: ${why}: ${text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('order states', () => {
  it('are written only by the order model (src/engine/orders/)', () => {
    const files = tsFiles(join(ROOT, 'src'))
      .map((f) => relative(ROOT, f))
      .filter((f) => !f.startsWith(ORDER_MODEL) && !ALLOWED.has(f));
    expect(files.length).toBeGreaterThan(300);
    const writes = files.flatMap((f) => stateWrites(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(writes).toEqual([]);
  }, 60_000);

  it('the order model itself writes them (the check sees what it looks for)', () => {
    const model = tsFiles(join(ROOT, ORDER_MODEL)).flatMap((f) =>
      stateWrites(relative(ROOT, f), readFileSync(f, 'utf8')),
    );
    expect(model.some((w) => w.includes("the order model's builder called"))).toBe(true);
  });

  it('finds each kind of write, and not a type, a comparison or another kind of state', () => {
    const sample = [
      "run.recordOrder({ ...order, state: 'filled' });",
      'journal.recordOrder(account, { ...order, state, filledSize: filled }, "history", atMs);',
      "const row = { intentId: 'a', state: closed ? 'filled' : 'cancelled' };",
      'const next = { ...order, state: decided };',
      "order.state = 'cancelled';",
      "const copy = trackedOrder(order, next, '0');",
      "db.exec(`UPDATE orders SET state = 'open' WHERE intent_id = 'a'`);",
    ].join('\n');
    expect(stateWrites('sample.ts', sample).map((w) => w.split(': ')[1])).toEqual([
      'a state named in quotes',
      'an order built with a state',
      'a state named in quotes',
      'an order built with a state',
      '.state assigned an order state',
      "the order model's builder called",
      'SQL sets a state',
    ]);
    const innocent = [
      "interface Closed { readonly state: 'filled' | 'cancelled' }",
      "function settle(state: 'refused' | 'failed') {}",
      "if (order.state === 'open') log();",
      "this.state = 'chunkSize';",
      "const view = { state: 'complete', done: 3 };",
      'const shown = { state: openOrderStateOf(o.state), filledSize: o.filledSize };',
      "const read = { state: row['state'] as OrderState, filledSize: '0' };",
      'const options = { ...defaults, state: stateSnapshot(engine) };',
      "db.prepare('SELECT * FROM orders WHERE state = ?');",
    ].join('\n');
    expect(stateWrites('innocent.ts', innocent)).toEqual([]);
  });
});
