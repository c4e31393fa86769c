import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium, which .ci/run installs when missing. */
const CHROMIUM = '/usr/bin/chromium';

/** Chromium's local-network checks off: other browsers (and older Chromium) have none, and the server must not need them. */
export const WITHOUT_LOCAL_NETWORK_CHECKS =
  '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults';

/** Headless Debian chromium, with `args` besides the ones a container needs; fails naming the fix when it is missing. */
export function launchChromium(args: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage', ...args] });
}
