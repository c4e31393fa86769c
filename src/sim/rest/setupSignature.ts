import type { Address } from '../../core/address.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import { parseBase64Signature, parseHexSignature, type Signature } from '../../protocol/signature.js';
import { recoverTypedStructSigner } from '../../protocol/typedSignatures.js';
import type { StructMessages, StructName } from '../../protocol/typedStructs.js';
import { invalidArgument } from '../simRefusal.js';
import type { SimRuntime } from '../simRuntime.js';

/** Decodes a 0x-hex (or, where allowed, base64) signature; a malformed one is an InvalidArgument. */
export function decodeSignature(text: string, field: string, encodings: 'hex' | 'hex-or-base64'): Signature {
  try {
    if (text.startsWith('0x') || encodings === 'hex') return parseHexSignature(text, field);
    return parseBase64Signature(text, field);
  } catch (error) {
    if (error instanceof InvalidValueError) throw invalidArgument(error.message);
    throw error;
  }
}

/** The address that signed a setup struct (RegisterSigner, VerifySigner, RevokeSigner, Login, PermitSingle). */
export function recoverSetupSigner<N extends StructName>(
  runtime: SimRuntime,
  name: N,
  message: StructMessages[N],
  signature: Signature,
): Address {
  return recoverTypedStructSigner(runtime.signingContext, name, message, signature);
}
