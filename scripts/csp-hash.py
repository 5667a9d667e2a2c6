#!/usr/bin/env python3
"""Trunk post_build hook: authorises the inline scripts Trunk writes into index.html.

Trunk 0.21 loads the app with an inline `<script type="module">` (import the wasm-bindgen
glue, init the wasm). The Content-Security-Policy in index.html allows no inline script, so
this hook computes the SHA-256 of every inline script in the staged index.html and writes it
as a `'sha256-...'` source into the `script-src` directive of the CSP `<meta>`. Only these
exact scripts are allowed; anything injected later (for example by a model's answer rendered
as HTML) is not.

Runs for `trunk build` (debug and release) and `trunk serve`, reading TRUNK_STAGING_DIR (the
HTML is final there: minification, if any, has already happened). Python standard library
only. Idempotent: hashes from an earlier run are replaced. Fails (non-zero exit) when inline
scripts exist but the CSP `<meta>` or its `script-src` directive is missing.

    TRUNK_STAGING_DIR=dist python3 scripts/csp-hash.py      # by hand on a built dist
"""
import base64
import hashlib
import os
import re
import sys

META = re.compile(
    r'(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")', re.IGNORECASE
)
SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)


def inline_hashes(html):
    """The CSP hash sources of the inline scripts (those without src), in document order."""
    out = []
    for attrs, body in SCRIPT.findall(html):
        if re.search(r"\bsrc\s*=", attrs, re.IGNORECASE):
            continue
        # Browsers hash the script text after newline normalisation (CRLF/CR -> LF).
        text = body.replace("\r\n", "\n").replace("\r", "\n")
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        source = "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"
        if source not in out:
            out.append(source)
    return out


def with_hashes(policy, hashes):
    """The policy with the hash sources set in script-src (earlier hashes dropped)."""
    directives = [d.strip() for d in policy.split(";") if d.strip()]
    found = False
    for i, d in enumerate(directives):
        parts = d.split()
        if parts[0].lower() == "script-src":
            kept = [p for p in parts[1:] if not p.startswith("'sha256-")]
            directives[i] = " ".join(["script-src"] + kept + hashes)
            found = True
    if not found:
        return None
    return "; ".join(directives)


def main():
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        sys.exit("csp-hash: TRUNK_STAGING_DIR is not set (run as a Trunk post_build hook)")
    path = os.path.join(staging, "index.html")
    with open(path, encoding="utf-8") as f:
        html = f.read()
    hashes = inline_hashes(html)
    m = META.search(html)
    if m is None:
        if hashes:
            sys.exit(f"csp-hash: {path} has {len(hashes)} inline script(s) but no CSP <meta>")
        return
    policy = with_hashes(m.group(2), hashes)
    if policy is None:
        sys.exit(f"csp-hash: the CSP <meta> in {path} has no script-src directive")
    html = html[: m.start(2)] + policy + html[m.end(2) :]
    # Write atomically: other post_build hooks (the service-worker precache) may read it.
    tmp = path + ".csp-tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(html)
    os.replace(tmp, path)
    print(f"csp-hash: {len(hashes)} inline script hash(es) written into {path}")


if __name__ == "__main__":
    main()
