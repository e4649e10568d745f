"""The development / unread split of a Map2Seq split file, fixed by a seeded hash of instance ids.

An instance is in the *unread* part when ``sha256(f"{SPLIT_SEED}:{instructions_id}")`` read as
an integer is ``0 (mod UNREAD_MODULUS)``: one instance in five, independent of the file's order
and of anything in the instance but its id. The split was written down (committed) before any
result on it was looked at; the follower's rules are changed by failures seen on the *dev* part
only, and the unread part is measured at the end (docs/streets.md says how many times).
"""

from __future__ import annotations

import hashlib

#: Seed of the hash; changing it draws a different split.
SPLIT_SEED = "map2route-groke-unread-v1"
#: One instance in this many is unread.
UNREAD_MODULUS = 5


def is_unread(instance_id: str) -> bool:
    """True when the instance with this ``instructions_id`` belongs to the unread part."""
    digest = hashlib.sha256(f"{SPLIT_SEED}:{instance_id}".encode()).hexdigest()
    return int(digest, 16) % UNREAD_MODULUS == 0


def part_of(instance_id: str) -> str:
    """``"unread"`` or ``"dev"``."""
    return "unread" if is_unread(instance_id) else "dev"
