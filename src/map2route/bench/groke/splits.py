"""The development / unread split of a Map2Seq split file, fixed by a seeded hash of instance ids.

An instance is in the *unread* part when ``sha256(f"{SPLIT_SEED}:{instructions_id}")`` read as
an integer is ``0 (mod UNREAD_MODULUS)``: one instance in five, independent of the file's order
and of anything in the instance but its id. The split was written down (committed) before any
result on it was looked at; the follower's rules are changed by failures seen on the *dev* part
only, and the unread part is measured at the end (docs/streets.md says how many times).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

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


class UnreadRowsError(ValueError):
    """A results file meant for failure analysis holds rows of the unread part."""


def dev_rows(results_jsonl: Path) -> list[dict[str, Any]]:
    """The rows of a ``bench groke --part dev`` ``results.jsonl``, for failure analyses.

    Raises :class:`UnreadRowsError` when any row is of the unread part, so that an analysis
    script cannot show the unread part's instances by accident."""
    rows = [json.loads(line) for line in Path(results_jsonl).read_text().splitlines()
            if line.strip()]
    if any(r.get("unread") for r in rows):
        raise UnreadRowsError("refusing: the file holds rows of the unread part "
                              "(run with --part dev)")
    return rows
