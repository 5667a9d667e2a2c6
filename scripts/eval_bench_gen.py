"""Writes a ~500 MB Inspect .eval log (2,600 samples of ~250 KB, deflate), the same log with
one-letter outputs and empty inputs (small.eval: read whole, not lean, as it is under 64 MiB,
its records then hold what big.eval's lean records hold: a one-letter response, no input; the
memory baseline of the worker benchmark) and a 2,600-item MM-IQ-shaped key into /tmp/evalbench, for the streamed .eval benchmark in
BENCHMARKS.md:
    python3 scripts/eval_bench_gen.py
    /usr/bin/time -v coglab score mmiq --answers /tmp/evalbench/key.jsonl /tmp/evalbench/big.eval
    cargo run --release -p coglab-core --example eval_stream_peak -- /tmp/evalbench/big.eval
    COGLAB_LARGE=1 node --test tests/e2e/evalbench.test.mjs
"""
import os
os.makedirs('/tmp/evalbench', exist_ok=True)
import zipfile, json, os, base64, random
N=2600; SIZE=250_000
random.seed(1)
with open('/tmp/evalbench/key.jsonl','w') as k:
    for i in range(N):
        k.write(json.dumps({"category":"Mathematical","MD5":"%032x"%i,"data_id":i,"answer":"ABCD"[i%4]})+"\n")
header={"version":2,"status":"success","eval":{"task":"mmiq","model":"bench/model"},"results":{"total_samples":N,"completed_samples":N,"scores":[]}}
for name, big in (('big.eval', True), ('small.eval', False)):
    with zipfile.ZipFile('/tmp/evalbench/' + name,'w',zipfile.ZIP_DEFLATED,compresslevel=1) as z:
        z.writestr('header.json',json.dumps(header))
        for i in range(N):
            letter="ABCD"[(i*7)%4]
            noise=base64.b64encode(os.urandom(SIZE*3//4)).decode() if big else ""
            s={"id":i,"epoch":1,"input":"Which option?" if big else "","target":"ABCD"[i%4],
               "output":{"completion":noise+" ANSWER: "+letter if big else letter},
               "scores":{"choice":{"value":"C" if (i*7)%4==i%4 else "I"}}}
            z.writestr(f'samples/{i}_epoch_1.json',json.dumps(s))
    print(name, os.path.getsize('/tmp/evalbench/' + name))
