#!/usr/bin/env python3
"""verify-export.py: check a consent log export against its seals, without consentctl.

An independent implementation of docs/proof.md, consent-log(5),
standard library only:

  consentctl consent export KEY > entries.jsonl
  consentctl consent head KEY --all > seals.jsonl
  python3 verify-export.py KEY entries.jsonl seals.jsonl [RECORDED_HEAD_HASH]

The export must be complete (no --since).  Entries purged or erased since
they were sealed are not in the export; give their leaves (the digests kept
in the database) as more lines of entries.jsonl of the form
{"created_at": ..., "digest": ..., "seal": N, "pruned": true}.

  python3 verify-export.py --receipt receipt.json

checks every inclusion proof of a receipt (consentctl consent receipt --json).
Prints "ok ..." and exits 0, or prints the first mismatch and exits 1.
"""
import hashlib
import json
import sys

FIELDS = ["created_at", "anon_id_hash", "categories", "event_type", "event_action",
          "config_version", "published_version", "region", "consent_model", "browser",
          "os", "device_type", "country", "regulation", "time_to_action_ms",
          "interaction", "preferences_opened", "banner_load_time_ms", "banner_position",
          "page_url", "sdk_version", "language", "resolved_language", "gpc",
          "config_sha256", "builtin_sha256"]


def field(name, v):
    if v is None:
        return name.encode() + b"=-\n"
    if isinstance(v, bool):
        v = 1 if v else 0
    if isinstance(v, (int, float)):
        return ("%s=n%.17g\n" % (name, float(v) + 0.0)).encode()
    if isinstance(v, (dict, list)):
        v = json.dumps(v, separators=(",", ":"), ensure_ascii=False)
    b = v.encode("utf-8")
    return name.encode() + b"=s" + str(len(b)).encode() + b":" + b + b"\n"


def entry_digest(key, e):
    enc = b"consent-entry/1\n" + field("site_key", key)
    for f in FIELDS:
        enc += field(f, e.get(f))
    return hashlib.sha256(enc).hexdigest()


def leaf(d):
    return hashlib.sha256(b"\x00" + bytes.fromhex(d)).digest()


def node(a, b):
    return hashlib.sha256(b"\x01" + a + b).digest()


def mth(leaves):
    """RFC 9162 2.1.1: split at the largest power of two below n."""
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return node(mth(leaves[:k]), mth(leaves[k:]))


def seal_hash(key, s):
    text = ("consent-seal/1\nsite_key=%s\nseq=%d\nsealed_at=%s\ntree_size=%d\n"
            "root=%s\nprev=%s\n" % (key, s["seq"], s["sealed_at"], s["tree_size"],
                                     s["root"], s["prev"]))
    return hashlib.sha256(text.encode()).hexdigest()


def inclusion_ok(digest, m, n, path, root):
    """RFC 9162 2.1.3.2."""
    if m >= n:
        return False
    fn, sn, r = m, n - 1, leaf(digest)
    for p in path:
        p = bytes.fromhex(p)
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r.hex() == root


def fail(msg):
    print(msg)
    sys.exit(1)


def receipt(path):
    doc = json.load(open(path))
    n = 0
    for i, item in enumerate(doc["entries"]):
        e = item["entry"]
        if entry_digest(doc["site_key"], e) != e["digest"]:
            fail("entry %d: its fields do not match its digest" % (i + 1))
        p = item["proof"]
        if p is None:
            continue
        if not inclusion_ok(e["digest"], p["leaf_index"], p["tree_size"], p["path"], p["root"]):
            fail("entry %d: the inclusion proof does not lead to the root of seal %d"
                 % (i + 1, p["seal"]))
        n += 1
    print("ok %d entries, %d inclusion proofs" % (len(doc["entries"]), n))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--receipt":
        return receipt(sys.argv[2])
    key, entries, seals = sys.argv[1], sys.argv[2], sys.argv[3]
    head = sys.argv[4] if len(sys.argv) > 4 else None
    by_seal = {}
    for n, line in enumerate(open(entries, encoding="utf-8"), 1):
        e = json.loads(line)
        if not e.get("pruned") and entry_digest(key, e) != e["digest"]:
            fail("line %d (%s): its fields do not match its digest" % (n, e["created_at"]))
        if e.get("seal") is not None:
            by_seal.setdefault(e["seal"], []).append(e)
    prev, hashes = "0" * 64, []
    for n, line in enumerate(open(seals), 1):
        s = json.loads(line)
        if s["seq"] != n or s["prev"] != prev:
            fail("seal %d: out of sequence or not chained to the one before" % n)
        # Leaves in tree order: created_at, then storage order (the export's).
        leaves = sorted(by_seal.pop(n, []), key=lambda e: e["created_at"])
        if len(leaves) != s["tree_size"] or \
                mth([leaf(e["digest"]) for e in leaves]).hex() != s["root"]:
            fail("seal %d: its root does not match its entries" % n)
        if seal_hash(key, s) != s["hash"]:
            fail("seal %d: its hash does not match its fields" % n)
        prev = s["hash"]
        hashes.append(prev)
    if by_seal:
        fail("entries name seals that do not exist: %s" % sorted(by_seal))
    if head is not None and head not in hashes:
        fail("the recorded head %s is not in the chain" % head)
    print("ok %d seals, head %s" % (len(hashes), prev))


if __name__ == "__main__":
    main()
