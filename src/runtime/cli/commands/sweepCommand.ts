import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';

export const sweepCommand: CommandSpec = {
  name: 'sweep',
  summary: 'replays recordings once per parameter variant, in parallel, and ranks the variants (merge: join shards)',
  usage:
    'perpbot sweep REC... [--config FILE] [--param NAME=V1,V2,...]... [--out DIR] [--objective NAME] [--constraints LIST]\n' +
    '              [--sample N --seed S] [--train DUR --test DUR [--step DUR]] [--workers N] [--shard I/N] [--fresh]\n' +
    '       perpbot sweep merge SHARD_DIR... --out DIR',
  description:
    'Runs the configured strategies over each recording REC (as `perpbot replay` does, report for report) once per\n' +
    "variant of one strategy's params: the whole grid of the config's sweep: section (or --param), or a seeded\n" +
    'random sample of it (--sample). Variants run in parallel on worker threads (one per core by default) that share\n' +
    'the recordings, decoded once. Each result goes into OUT/study.jsonl as it finishes; each variant has its\n' +
    "params.json and its replay's report.json (the bytes `perpbot replay` writes) under OUT/variants/<id>/\n" +
    '(report.<recording>.<span>.json each when it replays several recordings or windows). Started again, a sweep\n' +
    'goes on where it stopped and runs no replay twice (--fresh starts over).\n' +
    'It ranks the variants by --objective (net_pnl, sharpe, max_drawdown, fills, quote_uptime) among those that meet\n' +
    'every constraint, prints the top ones, writes OUT/report.html and OUT/best.yaml (the config with the chosen\n' +
    'variant). With --train and --test (walk-forward), each window ranks the variants on its train span and shows\n' +
    'their figures on the test span beside, so a variant that only fits its train span shows.\n' +
    '\n' +
    '--shard I/N runs every N-th variant from the I-th: N machines (a Kubernetes Indexed Job, a SLURM array, a CI\n' +
    'matrix) each run one slice, then `perpbot sweep merge` joins their OUT directories into the study the whole\n' +
    'sweep writes, byte for byte.\n' +
    '\n' +
    '--param spread_bps=2,4,8 --param requote_bps=2..6:2 (or --params "spread_bps=2,4,8;requote_bps=2..6:2")\n' +
    'replaces sweep.params: each param a list, or MIN..MAX:STEP.',
  positionals: ['rec'],
  variadic: true,
  flags: {
    ...CONFIG_FLAGS,
    out: {
      type: 'string',
      value: 'DIR',
      description: 'the study directory (default REC.sweep beside the first recording)',
    },
    param: {
      type: 'string',
      value: 'NAME=V1,V2',
      multiple: true,
      description: 'a param to vary: a list, or MIN..MAX:STEP',
    },
    params: { type: 'string', value: 'SPEC', description: 'several at once: "name=a,b,c;other=MIN..MAX:STEP"' },
    strategy: { type: 'string', value: 'NAME', description: 'the strategy whose params vary (default: the only one)' },
    objective: { type: 'string', value: 'NAME', description: 'net_pnl, sharpe, max_drawdown, fills or quote_uptime' },
    constraints: { type: 'string', value: 'LIST', description: 'e.g. "max_drawdown<=50,fills>=10"' },
    sample: { type: 'string', value: 'N', description: 'a random sample of N variants instead of the whole grid' },
    seed: { type: 'string', value: 'S', description: "the sample's seed (default 1)" },
    train: { type: 'string', value: 'DUR', description: 'walk-forward: the train span, e.g. 30m' },
    test: { type: 'string', value: 'DUR', description: 'walk-forward: the test span after it, e.g. 10m' },
    step: {
      type: 'string',
      value: 'DUR',
      description: 'walk-forward: how far apart the windows start (default --test)',
    },
    top: { type: 'string', value: 'K', description: 'how many variants the summary and page show (default 5)' },
    workers: { type: 'string', value: 'N', description: 'replays at once (default: one per core)' },
    shard: { type: 'string', value: 'I/N', description: 'run the I-th of N slices of the variants' },
    fresh: { type: 'boolean', description: 'discard a study already in --out and start over' },
  },
  run: async (args, io) =>
    args.positionals[0] === 'merge'
      ? (await import('./runSweepMerge.js')).runSweepMerge(args, io)
      : (await import('./runSweep.js')).runSweep(args, io),
};
