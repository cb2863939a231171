"""Verifies a delivery of this service's webhook contract (call and contact events) in Python.

    python3 docs/examples/verify_signature.py <secret> <X-Signature header> <raw body file> [tolerance seconds]

Standard library only.
"""
import hashlib
import hmac
import re
import sys
import time


def sign(secret: str, raw_body: bytes, t: int | None = None) -> str:
    """The X-Signature header a sender sets: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">."""
    t = int(time.time()) if t is None else t
    mac = hmac.new(secret.encode(), f"{t}.".encode() + raw_body, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


def verify(secrets: list[str], header: str, raw_body: bytes, tolerance_seconds: int = 300, now: float | None = None) -> bool:
    """True when the header signs this exact body with one of the secrets (old and new during a rotation) and is fresh."""
    parts = dict(p.strip().split("=", 1) for p in header.split(",") if "=" in p)
    t, given = parts.get("t", ""), parts.get("v1", "")
    if not re.fullmatch(r"\d+", t) or not re.fullmatch(r"[0-9a-f]{64}", given):
        return False
    if abs((time.time() if now is None else now) - int(t)) > tolerance_seconds:
        return False
    expected = [hmac.new(s.encode(), f"{t}.".encode() + raw_body, hashlib.sha256).hexdigest() for s in secrets]
    return any(hmac.compare_digest(e, given) for e in expected)


if __name__ == "__main__":
    secret, header, path = sys.argv[1:4]
    tolerance = int(sys.argv[4]) if len(sys.argv) > 4 else 300
    with open(path, "rb") as f:
        ok = verify([secret], header, f.read(), tolerance)
    print("valid" if ok else "invalid")
    sys.exit(0 if ok else 1)
