#!/usr/bin/env bash
# perpbot as a package, as a user gets it, in a fresh directory outside the repository:
# npm pack, npm install the tarball, `perpbot new strategy mine` (nothing edited), `perpbot check`,
# the generated test with vitest, then `npx perpbot start --control-port 0` on the embedded
# simulator (the new strategy and the packaged market maker) until the new strategy has traded;
# the control server's dashboard (with every script and style it loads), /metrics and /api/status
# must answer 200, promtool check metrics must pass its /metrics, and the dashboard's screenshot,
# taken in headless Chromium from the installed bot, is saved as docs/dashboard.png; then a
# Ctrl-C-like stop. Before that: the package holds docs/operations.md and deploy/, and a config
# error names node_modules/perpbot/config/default.yaml. Needs the npm registry
# (dependencies, vitest) and /usr/bin/chromium (.ci/run installs it).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/perpbot-package-XXXXXX")"
bot_pid=""
cleanup() {
  if [ -n "$bot_pid" ] && kill -0 "$bot_pid" 2>/dev/null; then kill -KILL -- "-$bot_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
step() { printf '\n== package check: %s\n' "$*"; }
fail() { printf 'package check FAILED: %s\n' "$*" >&2; [ -f "$work/project/bot.log" ] && tail -40 "$work/project/bot.log" >&2; exit 1; }

step "npm pack (prepack builds dist/)"
(cd "$repo" && npm pack --silent --pack-destination "$work" >/dev/null)
tarball="$(ls "$work"/perpbot-*.tgz)"
vitest_version="$(node -p "require('$repo/package.json').devDependencies.vitest")"

step "npm install $(basename "$tarball") in $work/project"
mkdir "$work/project" && cd "$work/project"
npm init -y >/dev/null
npm install --no-audit --no-fund "$tarball" >/dev/null

step "the package ships the operations guide and deploy/; a config error names its default config"
for f in docs/operations.md docs/strategy-guide.md deploy/prometheus/rules/perpbot.rules.yml deploy/docker/probe.mjs; do
  [ -f "node_modules/perpbot/$f" ] || fail "the package lacks $f"
done
printf 'venue: { profile: sim }\nrisk: { max_open_order: 1 }\nstrategies: []\n' > typo.yaml
hint="$(npx perpbot status --config typo.yaml 2>&1 || true)"
printf '%s\n' "$hint" | grep -q 'in node_modules/perpbot/config/default.yaml' ||
  fail "a config error should point at node_modules/perpbot/config/default.yaml: $hint"

step "npx perpbot new strategy mine"
npx perpbot new strategy mine
[ -f strategies/mine.ts ] && [ -f test/mine.test.ts ] || fail "perpbot new did not write strategies/mine.ts and test/mine.test.ts"

step "npx perpbot check strategies/mine.ts"
npx perpbot check strategies/mine.ts

step "the generated test, with vitest $vitest_version"
npm install --no-audit --no-fund -D "vitest@$vitest_version" >/dev/null
npx vitest run

step "npx perpbot start --config bot.yaml --control-port 0 (profile sim) until the strategy has traded"
cat > bot.yaml <<'YAML'
venue: { profile: sim }
risk:
  max_order_notional: "1000"
  max_position_per_market: "5000"
  max_open_orders: 10
  max_actions_per_second: 5
  kill_switch: { max_loss: "100" }
strategies:
  - name: mine
    module: strategies/mine.ts
    markets: [1]
    params: { size: "0.001", interval_ms: 2000 }
  # The example shipped in the package (dist/examples): resting quotes for the dashboard to show.
  - name: market-maker
    module: strategies/marketMaker.ts
    markets: [1]
    params: { size: "0.001", spread_bps: 4, max_inventory: "0.01" }
logging: { level: info, pretty: false }
YAML
# Its own process group, so the stop below reaches npx and the bot as Ctrl-C would.
setsid npx perpbot start --config bot.yaml --control-port 0 >bot.log 2>&1 &
bot_pid=$!
for _ in $(seq 1 120); do
  fills="$(grep -c '"msg":"filled"' bot.log || true)"
  [ "${fills:-0}" -ge 2 ] && break
  kill -0 "$bot_pid" 2>/dev/null || fail "perpbot start exited before trading"
  sleep 1
done
[ "${fills:-0}" -ge 2 ] || fail "the strategy did not trade within 120 s"

step "the installed bot's control server: /, its scripts and styles, /metrics, /api/status; the screenshot"
control_url="$(grep '"msg":"control server listening"' bot.log | head -1 | sed -E 's/.*"url":"([^"]+)".*/\1/')"
[ -n "$control_url" ] || fail "no \"control server listening\" line in the log: --control-port 0 did not start it"
# Run from the repository: playwright-core is its devDependency, not the installed package's.
node "$repo/tools/checkInstalledDashboard.mjs" "$control_url" "$repo/docs/dashboard.png" ||
  fail "the installed bot's dashboard at $control_url"
kill -0 "$bot_pid" 2>/dev/null || fail "perpbot start exited during the dashboard check"
grep -q '"msg":"strategy types ok"' bot.log || fail "perpbot start did not type-check strategies/mine.ts"
# The installed bot's metrics follow Prometheus's conventions (promtool: .ci/run installs it).
metrics="$(node -e 'fetch(process.argv[1]).then((r) => r.text()).then((t) => process.stdout.write(t))' "$control_url/metrics")"
lint="$(printf '%s\n' "$metrics" | promtool check metrics 2>&1)" || fail "promtool check metrics: $lint"
[ -z "$lint" ] || fail "promtool check metrics: $lint"

step "stop (SIGINT to the process group, as Ctrl-C)"
kill -INT -- "-$bot_pid"
for _ in $(seq 1 30); do kill -0 "$bot_pid" 2>/dev/null || break; sleep 1; done
kill -0 "$bot_pid" 2>/dev/null && fail "perpbot did not stop within 30 s of SIGINT"
bot_pid=""
# npx reports 130 after an interrupt whatever the bot returned; the bot's own end is in its log.
tail -1 bot.log | grep -q '"msg":"stopped"' || fail "the bot did not shut down cleanly"
grep -q '"level":50' bot.log && fail "the bot logged an error"
printf '\npackage check passed: %s fills on the embedded simulator, the dashboard served whole (docs/dashboard.png), clean stop\n' "$fills"
