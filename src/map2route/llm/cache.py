"""A content-addressed on-disk cache of chat-completion requests and their replies.

The key is the SHA-256 of the canonical JSON of everything that decides a reply: the endpoint's
model name, the messages and the sampling parameters. One JSON file per key under
``ROOT/ab/abcdef...json``, written atomically (a temporary file in the same folder, then
``os.replace``), so concurrent workers and runs share one cache, a killed run leaves no torn
entry, and a rerun of a finished benchmark is answered entirely from disk. The official
Map2Route code caches LLM calls per namespace too; here the namespace is part of the key (the
model and parameters), so nothing needs clearing when they change.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

CACHE_SCHEMA = "map2route.llm_cache/1"


def cache_key(model: str, messages: list[dict[str, str]], params: dict[str, Any]) -> str:
    """The SHA-256 hex digest of ``{model, messages, params}`` as canonical JSON."""
    canon = json.dumps({"model": model, "messages": messages, "params": params},
                       sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


class ResponseCache:
    """Replies by :func:`cache_key` under ``root`` (created on first write).

    Args:
        root: the cache folder; share it across runs (``out/llm_cache`` by default in the
            benchmark config).
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored record (``text``, ``usage``, ``model``), or ``None``.

        A file that is not a record of this schema (hand-edited, another tool's) is a miss and
        is overwritten by the next :meth:`put`.
        """
        try:
            data = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("schema_version") != CACHE_SCHEMA:
            return None
        if not isinstance(data.get("text"), str):
            return None
        return data

    def put(self, key: str, record: dict[str, Any]) -> Path:
        """Store ``record`` (with the schema version) under ``key`` atomically."""
        path = self.path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"schema_version": CACHE_SCHEMA, **record}
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, ensure_ascii=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    def __len__(self) -> int:
        return sum(1 for _ in self.root.glob("??/*.json")) if self.root.is_dir() else 0
