import { readFileSync } from 'node:fs';
const bytes = readFileSync(process.argv[2]);
const { instance } = await WebAssembly.instantiate(bytes, {});
const e = instance.exports;
e.make();
for (const [label, rasch] of [['2PL', 0], ['Rasch', 1]]) {
  const times = [];
  let r;
  for (let k = 0; k < 7; k++) { const t = performance.now(); r = e.fit_model(rasch); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(`${label}: median ${times[3].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[6].toFixed(0)}), cycles ${r % 100000}, converged ${r >= 100000}`);
}
