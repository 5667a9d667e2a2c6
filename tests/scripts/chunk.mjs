// A chunk of the page module as rustc and wasm-split leave it (fixtures/chunk.wat, with the
// target_features section rustc writes), for the wasm-opt tests.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { binaryenEntry } from '../../scripts/wasm-opt.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

// The features rustc's wasm32 output declares (its target_features section) for this app.
const FEATURES = ['bulk-memory', 'bulk-memory-opt', 'call-indirect-overlong', 'multivalue',
  'mutable-globals', 'nontrapping-fptoint', 'reference-types', 'sign-ext', 'simd128'];

const leb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const str = (s) => [...leb(Buffer.byteLength(s)), ...Buffer.from(s)];

/** The fixture as a binary module with a target_features custom section. */
export async function chunk() {
  const binaryen = (await import(pathToFileURL(binaryenEntry()).href)).default;
  const module = binaryen.parseText(readFileSync(join(HERE, 'fixtures', 'chunk.wat'), 'utf8'));
  const F = binaryen.Features;
  module.setFeatures(F.BulkMemory | F.BulkMemoryOpt | F.CallIndirectOverlong | F.Multivalue
    | F.MutableGlobals | F.NontrappingFPToInt | F.ReferenceTypes | F.SignExt | F.SIMD128);
  const bytes = Buffer.from(module.emitBinary());
  module.dispose();
  const body = [...str('target_features'), ...leb(FEATURES.length), ...FEATURES.flatMap((f) => [0x2b, ...str(f)])];
  return Buffer.concat([bytes, Buffer.from([0, ...leb(body.length), ...body])]);
}

