import type { Address } from '../../core/address.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import { parseBase64Signature, parseHexSignature, type Signature } from '../../protocol/signature.js';
import { recoverTypedStructSigner } from '../../protocol/typedSignatures.js';
import type { StructMessages, StructName } from '../../protocol/typedStructs.js';
import { invalidArgument } from '../simRefusal.js';
import type { SimRuntime } from '../simRuntime.js';

// 0x and 130 hex digits: 132 characters, a length base64 of a 64- or 65-byte signature (88) never has.
const HEX_SHAPE = /^0x[0-9a-fA-F]{130}$/;

/**
 * Decodes a 0x-hex (or, where allowed, base64) signature; a malformed one is an InvalidArgument.
 * Told apart by shape, not by a leading "0x": one base64 signature in 4,096 starts with "0x".
 */
export function decodeSignature(text: string, field: string, encodings: 'hex' | 'hex-or-base64'): Signature {
  try {
    if (encodings === 'hex' || HEX_SHAPE.test(text)) return parseHexSignature(text, field);
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
