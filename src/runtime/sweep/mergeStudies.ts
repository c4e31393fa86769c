import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { PerpbotError } from '../../core/perpbotError.js';
import { inShard, sweepJobs } from './sweepPlan.js';
import { readStudy, writeStudy, type Study, type StudyHeader, type StudyResult } from './studyFile.js';
import { writeVariantParams } from './variantFiles.js';

export interface MergedStudy {
  readonly study: Study;
  readonly studyPath: string;
  /** Reports copied from the shards' directories; those missing there stay named in the study only. */
  readonly reportsCopied: number;
  readonly reportsMissing: number;
}

/**
 * `perpbot sweep merge`: the studies of `--shard 1/n` to `n/n` of one sweep (their directories or
 * study files) joined into the study the unsharded sweep writes, byte for byte, with the replays'
 * reports copied beside it and each variant's params.json written (variantFiles.ts). Refused:
 * studies of different sweeps, a shard missing or given twice, or a shard that has not finished
 * (run it again: it goes on where it stopped).
 */
export function mergeStudies(shards: readonly string[], out: string): MergedStudy {
  const studies = shards.map((s) => {
    const path = statSync(s).isDirectory() ? join(s, 'study.jsonl') : s;
    return { path, dir: dirname(path), study: readStudy(path) };
  });
  const header = commonHeader(studies.map((s) => ({ path: s.path, header: s.study.header })));
  const jobs = sweepJobs(header.variants, header.recordings, header.spans);
  const results = new Map<string, { result: StudyResult; dir: string }>();
  for (const { path, dir, study } of studies) {
    const shard = study.header.shard!;
    const own = jobs.filter((j) => inShard(j.variantIndex, shard));
    const missing = own.filter((j) => !study.results.has(j.key)).length;
    if (missing > 0)
      throw mergeError(
        `${path} (shard ${shard.index}/${shard.count}) has ${own.length - missing} of its ${own.length} results`,
        ['run that shard again with the same command: it goes on where it stopped'],
      );
    for (const job of own) results.set(job.key, { result: study.results.get(job.key)!, dir });
  }
  writeVariantParams(out, header.variants);
  let copied = 0;
  let missing = 0;
  const ordered = jobs.map((j) => results.get(j.key)!);
  for (const { result, dir } of ordered) {
    const from = join(dir, result.report);
    if (!existsSync(from)) {
      missing++;
      continue;
    }
    if (createHash('sha256').update(readFileSync(from)).digest('hex') !== result.reportSha256)
      throw mergeError(`${from} is not the report its study names (its sha256 differs)`, [
        'merge the shards as their sweeps left them',
      ]);
    mkdirSync(dirname(join(out, result.report)), { recursive: true });
    copyFileSync(from, join(out, result.report));
    copied++;
  }
  const studyPath = join(out, 'study.jsonl');
  const merged: StudyHeader = { ...header };
  delete (merged as { shard?: unknown }).shard;
  writeStudy(
    studyPath,
    merged,
    ordered.map((o) => o.result),
  );
  return { study: readStudy(studyPath), studyPath, reportsCopied: copied, reportsMissing: missing };
}

/** The shards' one header: the same sweep (fingerprint and count), every shard index once. */
function commonHeader(headers: readonly { readonly path: string; readonly header: StudyHeader }[]): StudyHeader {
  const first = headers[0];
  if (first === undefined)
    throw mergeError('no shard studies to merge', ['perpbot sweep merge SHARD_DIR... --out DIR']);
  const count = first.header.shard?.count;
  for (const { path, header } of headers) {
    if (header.shard === undefined)
      throw mergeError(`${path} is the study of a whole sweep, not of a shard`, [
        'merge the studies of --shard 1/n to n/n',
      ]);
    if (header.fingerprint !== first.header.fingerprint || header.shard.count !== count)
      throw mergeError(`${path} is a shard of another sweep than ${first.path}`, [
        'every shard must run the same config, recordings and sweep with the same n',
      ]);
  }
  const seen = headers.map((h) => h.header.shard!.index).sort((a, b) => a - b);
  const expected = Array.from({ length: count ?? 0 }, (_, i) => i + 1);
  if (seen.join(',') !== expected.join(','))
    throw mergeError(`the shards given are ${seen.join(', ')} of ${count}: each of 1 to ${count} is needed once`, [
      'give the directory of every shard once',
    ]);
  return first.header;
}

function mergeError(message: string, hints: readonly string[]): PerpbotError {
  return new PerpbotError(`perpbot sweep merge: ${message}`, { code: 'SWEEP_MERGE', hints });
}
