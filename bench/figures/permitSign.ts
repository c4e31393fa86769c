import { privateKeyToAccount } from 'viem/accounts';
import { keccak_256 } from '@noble/hashes/sha3';
import { parseDomain } from '../../src/protocol/domain.js';
import { createSigningContext } from '../../src/protocol/signingContext.js';
import { signPermit } from '../../src/protocol/permit.js';
import { viemTypedData } from '../../src/protocol/viemTypedData.js';
import { fastPrivateKeySigner, nativeSignerAvailable } from '../../src/protocol/nativeSigner.js';
import { privateKeySigner } from '../../src/protocol/digestSigner.js';
import { measureRate } from '../lib/measureRate.js';
import type { BenchScale, Figure, FigureBench } from '../lib/figure.js';

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;
const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const;

/**
 * permit_sign: hash + sign + encode of one permit per second on one core. Baseline: viem
 * signTypedData of the same VerifyWitness message. Limit: a bare secp256k1 sign of a
 * precomputed digest with the fastest implementation loaded.
 */
export const permitSign: FigureBench = {
  name: 'permit_sign',
  async run(scale: BenchScale): Promise<Figure> {
    const rounds = scale === 'full' ? {} : { rounds: 1, roundMs: 20, warmupMs: 5 };
    const domain = parseDomain({
      name: 'RISEx',
      version: '1',
      chain_id: 11155931,
      verifying_contract: '0x1111111111111111111111111111111111111111',
    });
    const context = createSigningContext(domain, '0x2222222222222222222222222222222222222222');
    const fast = fastPrivateKeySigner(KEY);
    const pureJs = privateKeySigner(KEY);
    const viemAccount = privateKeyToAccount(KEY);
    const hashes = Array.from(
      { length: 256 },
      (_, i) => `0x${Buffer.from(keccak_256(new Uint8Array([i, 1, 2]))).toString('hex')}` as const,
    );
    const request = (i: number) => ({
      account: ACCOUNT,
      actionHash: hashes[i & 255]!,
      nonceAnchor: 9n,
      nonceBitmap: i % 208,
      deadline: 1_900_000_000,
    });

    const fastRate = await measureRate((i) => signPermit(context, fast, request(i)), rounds);
    const pureRate = await measureRate((i) => signPermit(context, pureJs, request(i)), rounds);
    const viemRate = await measureRate((i) => {
      const r = request(i);
      return viemAccount.signTypedData(
        viemTypedData(domain, 'VerifyWitness', {
          account: r.account,
          target: context.router,
          hash: r.actionHash,
          nonceAnchor: r.nonceAnchor,
          nonceBitmap: r.nonceBitmap,
          deadline: r.deadline,
        }),
      );
    }, rounds);
    const digests = hashes.map((h) => Buffer.from(h.slice(2), 'hex'));
    const limitRate = await measureRate((i) => fast.signDigest(digests[i & 255]!), rounds);

    const us = (rate: number) => Number((1e6 / rate).toFixed(1));
    return {
      name: 'permit_sign',
      value: Math.round(fastRate),
      unit: 'permits/s',
      baseline_name: 'viem signTypedData',
      baseline_value: Math.round(viemRate),
      limit_name: `bare secp256k1 sign (${nativeSignerAvailable() ? 'native libsecp256k1' : '@noble/curves'})`,
      limit_value: Math.round(limitRate),
      target: '>= 5x baseline and within 1.5x of the limit',
      target_met: fastRate >= 5 * viemRate && limitRate / fastRate <= 1.5,
      notes: {
        'fast path us/permit': us(fastRate),
        'viem us/permit': us(viemRate),
        'pure-JS fast path us/permit': us(pureRate),
        'bare sign us': us(limitRate),
      },
    };
  },
};
