import { describe, expect, it } from 'vitest';
import { dashboardAsset } from '../../../../src/runtime/operations/control/dashboardAssets.js';

/** The same-origin scripts and stylesheets the page loads (.ci/packageCheck.sh asks for the same in the package). */
function referencedAssets(html: string): string[] {
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
  const styles = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]!);
  return [...scripts, ...styles];
}

describe('dashboardAsset', () => {
  it('serves the page and every script and style the page loads, each with its content type', async () => {
    const page = await dashboardAsset('/');
    expect(page?.contentType).toBe('text/html; charset=utf-8');
    const assets = referencedAssets(page!.body.toString('utf8'));
    expect(assets.sort()).toEqual([
      '/assets/dashboard.css',
      '/assets/dashboard.js',
      '/assets/dom.js',
      '/assets/protection.js',
      '/assets/theme.css',
      '/assets/uPlot.iife.min.js',
      '/assets/uPlot.min.css',
    ]);
    for (const path of assets) {
      const asset = await dashboardAsset(path);
      expect(asset?.body.length, path).toBeGreaterThan(0);
      expect(asset?.contentType, path).toMatch(path.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
    }
  });

  it('serves nothing else', () => {
    expect(dashboardAsset('/assets/../index.html')).toBeUndefined();
    expect(dashboardAsset('/index.html')).toBeUndefined();
  });
});
