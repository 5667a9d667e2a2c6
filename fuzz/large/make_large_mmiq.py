#!/usr/bin/env python3
"""Writes a large MM-IQ predictions JSONL for the memory check of issue 10.

Usage: make_large_mmiq.py OUT [SIZE_BYTES]   (default 1 GiB = 1073741824 bytes)

Each line is {"data_id": i, "category": ..., "response": "<filler> The answer is X."} with
unique ids 0, 1, 2, ...; ids 0-2709 are the MM-IQ key's items, the rest are not in the key
(counted as unmatched rows by the scorer). Lines are about 1 kB, so 1 GiB is ~1M lines.
"""
import json
import sys

out = sys.argv[1]
size = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 30
filler = ("Looking at the figure, the pattern rotates by ninety degrees in each panel; "
          "counting the shaded cells gives the sequence 1, 2, 4, 8. ") * 7
written = 0
i = 0
with open(out, "w", buffering=1 << 20) as f:
    while written < size:
        line = json.dumps({"data_id": i, "category": "Mathematical",
                           "response": f"{filler}The answer is {'ABCD'[i % 4]}."}) + "\n"
        if written + len(line) > size:
            break
        f.write(line)
        written += len(line)
        i += 1
print(f"{out}: {written} bytes, {i} lines")
