#!/usr/bin/env python3
"""Stages the split page module (scripts/wasm-split.sh's last step) into Trunk's staging folder.

OUT holds what wasm-split-cli, wasm-bindgen and wasm-opt made of the page module NAME (Trunk's
file stem, e.g. `coglab-app-0123abcd`): the main module NAME_bg.wasm, its JS glue NAME.js, the
chunks (`split_*.wasm`, `chunk_*.wasm`) and their loader `__wasm_split.js`. This script

  1. gives every chunk a content-hashed name (`split_x-<sha256/16>.wasm`), as Trunk names its
     own files, so that a static host's cache never pairs a new main module with an old chunk,
     and points the loader at those names (each chunk named exactly once in it);
  2. gives the loader a content-hashed name of its own and points the glue's import at it (the
     import specifiers only: the wasm's imports object stays keyed by the module name the wasm
     asks for, `./__wasm_split.js`);
  3. copies everything into STAGE, over Trunk's NAME.js and NAME_bg.wasm (Trunk's names are kept,
     so its inline loader script in index.html needs no change);
  4. sets the Subresource Integrity of index.html's preload link of NAME.js to the new file's
     SHA-384, and removes it from the preload link of NAME_bg.wasm (`as="fetch"`, for which
     Chromium ignores `integrity` and says so in the console on every load, crbug.com/981419;
     the glue's own fetch of the wasm carries none either, so nothing is lost). The links are
     found by parsing the HTML; anything else in the file is left byte for byte.

Every check is made before anything is written to STAGE: on an error it exits non-zero with a
message and STAGE is as Trunk left it. Python standard library only. Tested by
tests/scripts/split-stage.test.mjs on a small synthetic folder.

    python3 scripts/split-stage.py OUT STAGE NAME
"""
import base64
import hashlib
import html.parser
import pathlib
import shutil
import sys

LOADER = "__wasm_split.js"


class Failure(Exception):
    """A check that failed; the message says what was expected and what was found."""


def tag(data):
    """The content tag of a file name: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(data).hexdigest()[:16]


def sri(data):
    """The Subresource Integrity value of a file's bytes (SHA-384, as Trunk writes it)."""
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode("ascii")


def hashed_chunks(out, name, loader):
    """Renames planned for the chunks, and the loader text pointing at the new names."""
    renames = {}
    for chunk in sorted(out.glob("*.wasm")):
        if chunk.name == f"{name}_bg.wasm":
            continue
        new = f"{chunk.stem}-{tag(chunk.read_bytes())}.wasm"
        ref = f'"./{chunk.name}"'
        n = loader.count(ref)
        if n != 1:
            raise Failure(f"expected one reference to {chunk.name} in {LOADER}, found {n}")
        loader = loader.replace(ref, f'"./{new}"')
        renames[chunk.name] = new
    if not renames:
        raise Failure(f"no chunk next to {name}_bg.wasm in {out}")
    return renames, loader


def glue_with_loader(glue, loader_name):
    """The glue with its import of the loader pointed at `loader_name`."""
    old = f'from "./{LOADER}"'
    if old not in glue:
        raise Failure(f"the main module's glue does not import ./{LOADER}")
    return glue.replace(old, f'from "./{loader_name}"')


class _Links(html.parser.HTMLParser):
    """Collects the `<link>` start tags of a document: (line, column, tag text, attributes)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag == "link":
            line, col = self.getpos()
            self.links.append((line, col, self.get_starttag_text(), attrs))

    handle_startendtag = handle_starttag


def with_integrity(index, digests):
    """index.html with the integrity of the one `<link>` whose href names each file replaced.

    `digests` maps a file name to its new SRI value, or to None to remove the attribute. A link
    counts when the last path segment of its href is the file name; links inside comments or
    scripts are not links. Only the integrity attribute changes: the rest of the tag and of the
    file stays as it was.
    """
    parser = _Links()
    parser.feed(index)
    parser.close()
    # html.parser counts lines by "\n" and columns from the last one.
    starts = [0] + [i + 1 for i, c in enumerate(index) if c == "\n"]
    edits = []
    for file, digest in digests.items():
        found = [
            (line, col, text, dict(attrs))
            for line, col, text, attrs in parser.links
            if (dict(attrs).get("href") or "").rsplit("/", 1)[-1] == file
        ]
        if len(found) != 1:
            raise Failure(f"expected one <link> of {file} in index.html, found {len(found)}")
        line, col, text, attrs = found[0]
        old = attrs.get("integrity")
        if not old:
            raise Failure(f"the <link> of {file} in index.html has no integrity value")
        start = starts[line - 1] + col
        if index[start : start + len(text)] != text or text.count(old) != 1:
            raise Failure(f"cannot place the <link> of {file} in index.html")
        if digest is None:
            attr = f' integrity="{old}"'
            if text.count(attr) != 1:
                raise Failure(f"cannot place the integrity of the <link> of {file} in index.html")
            edits.append((start, start + len(text), text.replace(attr, "")))
        else:
            edits.append((start, start + len(text), text.replace(old, digest)))
    for start, end, new in sorted(edits, reverse=True):
        index = index[:start] + new + index[end:]
    return index


def read(path):
    """A text file's contents (UTF-8, line endings kept)."""
    return path.read_bytes().decode("utf-8")


def write(path, text):
    """Writes a text file (UTF-8, line endings as given)."""
    path.write_bytes(text.encode("utf-8"))


def stage(out, dest, name):
    """Steps 1-4 of the module doc; returns the staged file names."""
    for f in (f"{name}.js", f"{name}_bg.wasm", LOADER):
        if not (out / f).is_file():
            raise Failure(f"{out / f} not found")
    if not (dest / "index.html").is_file():
        raise Failure(f"{dest / 'index.html'} not found")
    renames, loader = hashed_chunks(out, name, read(out / LOADER))
    loader_name = f"__wasm_split-{tag(loader.encode())}.js"
    glue = glue_with_loader(read(out / f"{name}.js"), loader_name)
    digests = {
        f"{name}.js": sri(glue.encode()),
        # A preload `as="fetch"`: its integrity is ignored, with a console warning (step 4).
        f"{name}_bg.wasm": None,
    }
    index = with_integrity(read(dest / "index.html"), digests)
    # Every check passed: write.
    for old, new in renames.items():
        shutil.copyfile(out / old, dest / new)
    write(dest / loader_name, loader)
    write(dest / f"{name}.js", glue)
    shutil.copyfile(out / f"{name}_bg.wasm", dest / f"{name}_bg.wasm")
    write(dest / "index.html", index)
    return sorted([*renames.values(), loader_name, f"{name}.js", f"{name}_bg.wasm"])


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    out, dest, name = pathlib.Path(argv[1]), pathlib.Path(argv[2]), argv[3]
    try:
        staged = stage(out, dest, name)
    except Failure as e:
        sys.exit(f"split-stage: {e}")
    for f in staged:
        print(f"wasm-split: {(dest / f).stat().st_size:>9} {f}")


if __name__ == "__main__":
    main(sys.argv)
