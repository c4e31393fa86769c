#!/usr/bin/env node
// A container's health probe for perpbot's control server: GET the URL given (default
// http://127.0.0.1:9464/health) with the control token from PERPBOT_CONTROL_TOKEN as a bearer
// credential, and exit 0 on 200, 1 otherwise (the status and the first line of the answer on
// stderr), within 4 s. Bound beyond loopback (control.host 0.0.0.0 in a container) the control
// server needs the token on every route, which a kubelet's httpGet probe cannot send from a Secret.
const url = process.argv[2] ?? 'http://127.0.0.1:9464/health';
const token = process.env.PERPBOT_CONTROL_TOKEN;
try {
  const answer = await fetch(url, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: AbortSignal.timeout(4000),
  });
  if (answer.status !== 200) {
    process.stderr.write(`${url}: ${answer.status} ${(await answer.text()).split('\n')[0].slice(0, 300)}\n`);
    process.exitCode = 1;
  }
} catch (error) {
  process.stderr.write(`${url}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
