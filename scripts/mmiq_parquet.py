"""MM-IQ files as Parquet, written by pyarrow (the writer the field uses), for the browser tests.

    mmiq_parquet.py convert IN.jsonl OUT.parquet [--rows-per-group N] [--compression C]
        The JSONL's rows as a Parquet table (columns as pyarrow infers them).
    mmiq_parquet.py bench DIR [--n 100000]
        DIR/bench100k.parquet: N MM-IQ responses of about 1 KB (words of random letters, so
        pyarrow's default Snappy leaves the file about as large as its text: 100,000 make
        about 100 MB, the issue's benchmark file), data_id 0..N-1, in row groups of 10,000;
        and DIR/MMIQ_benchmark_answer_dict.jsonl, the matching key (MM-IQ's eight
        categories, seeded letters). Written once; an existing pair is kept.

Run with the test command's virtual environment (.tools/py-venv, which has pyarrow).
"""

import argparse
import json
import os
import random
import sys

import pyarrow as pa
import pyarrow.json as pj
import pyarrow.parquet as pq

CATEGORIES = [
    "Logical Operation", "Mathematical", "2D-Geometry", "3D-Geometry",
    "Visual Instruction", "Temporal Movement", "Spatial Relationship", "Concrete Object",
]
LETTERS = "ABCD"


def convert(src, out, rows_per_group, compression):
    table = pj.read_json(src)
    pq.write_table(table, out, row_group_size=rows_per_group, compression=compression)


def bench(folder, n):
    preds = os.path.join(folder, "bench100k.parquet")
    key = os.path.join(folder, "MMIQ_benchmark_answer_dict.jsonl")
    if os.path.exists(preds) and os.path.exists(key):
        return
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(2025)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    ids, cats, responses, key_lines = [], [], [], []
    for i in range(n):
        cat = CATEGORIES[rng.randrange(8)]
        answer = LETTERS[rng.randrange(4)]
        words = []
        length = 0
        while length < 960:
            w = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 9)))
            words.append(w)
            length += len(w) + 1
        said = LETTERS[rng.randrange(4)]
        responses.append(" ".join(words) + f".\n\nTherefore, the answer is {said}.")
        ids.append(i)
        cats.append(cat)
        key_lines.append(json.dumps({"category": cat, "MD5": f"{i:032x}", "data_id": i, "answer": answer}))
    table = pa.table({"data_id": pa.array(ids, pa.int64()), "category": cats, "response": responses})
    pq.write_table(table, preds + ".part", row_group_size=10_000)
    os.replace(preds + ".part", preds)
    with open(key, "w") as f:
        f.write("\n".join(key_lines) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("convert")
    c.add_argument("src")
    c.add_argument("out")
    c.add_argument("--rows-per-group", type=int, default=1_000_000)
    c.add_argument("--compression", default="snappy")
    b = sub.add_parser("bench")
    b.add_argument("folder")
    b.add_argument("--n", type=int, default=100_000)
    a = p.parse_args()
    if a.cmd == "convert":
        convert(a.src, a.out, a.rows_per_group, a.compression)
    else:
        bench(a.folder, a.n)


if __name__ == "__main__":
    sys.exit(main())
