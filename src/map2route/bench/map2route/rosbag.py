"""Recorded ROS 2 bags (MCAP or sqlite3) to routes, read with ``rosbags`` (no ROS install).

A topic of ``nav_msgs/msg/Odometry`` or ``geometry_msgs/msg/PoseStamped`` (or
``PoseWithCovarianceStamped``) becomes an ``(N, 2)`` route in map metres, in message order.
Poses are taken as they are: the bag must be recorded in the map frame (``/odom`` of a robot
localised in ``map``, or a ``map``-frame pose topic); the frame id is reported so a user can
check it.

MCAP files are checked first with the ``mcap`` library's CRC validation (every chunk's CRC and
the data section's): rosbags checks a chunk's CRC only when it reads that chunk, and never the
data section's. A bag written without CRCs (rosbags' own writer stores 0, "not computed") cannot
be checked; :attr:`BagRoute.checksums` says ``"absent"`` then, so a report can say so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from mcap.exceptions import McapError
from mcap.records import Chunk, DataEnd
from mcap.stream_reader import CRCValidationError, StreamReader, breakup_chunk
from rosbags.highlevel import AnyReader

from map2route.bench.errors import BenchmarkError

if TYPE_CHECKING:
    from numpy.typing import NDArray

POSE_TYPES = {
    "nav_msgs/msg/Odometry": lambda msg: msg.pose.pose.position,
    "geometry_msgs/msg/PoseStamped": lambda msg: msg.pose.position,
    "geometry_msgs/msg/PoseWithCovarianceStamped": lambda msg: msg.pose.pose.position,
}


@dataclass(frozen=True)
class BagRoute:
    """A route read from a bag: points in metres, stamps in seconds, and where it came from."""

    points: NDArray[np.float64]
    stamps_s: NDArray[np.float64]
    topic: str
    msgtype: str
    frame_id: str
    checksums: str = "absent"
    """``"verified"`` (every CRC of every MCAP file matched), ``"absent"`` (none recorded,
    or a sqlite3 bag): integrity could not be checked."""


def mcap_files(path: Path) -> list[Path]:
    """The MCAP files of a bag: the file itself, or those in a rosbag2 folder."""
    if path.is_file():
        return [path] if path.suffix == ".mcap" else []
    return sorted(path.glob("*.mcap"))


def check_mcap_crcs(path: Path) -> bool:
    """Validate every chunk CRC and the data-section CRC of one MCAP file.

    Returns:
        True when at least one CRC was recorded (and all matched); False when the file
        records none, so nothing could be checked.

    Raises:
        BenchmarkError: a CRC does not match, or the file is not a readable MCAP.
    """
    present = False
    try:
        with path.open("rb") as fh:
            # Chunks are emitted whole so that whether they carry a CRC is visible; the reader
            # itself checks the data-section CRC at DataEnd.
            for record in StreamReader(fh, validate_crcs=True, emit_chunks=True).records:
                if isinstance(record, Chunk):
                    present = present or record.uncompressed_crc != 0
                    breakup_chunk(record, validate_crc=True)
                elif isinstance(record, DataEnd) and record.data_section_crc:
                    present = True
    except CRCValidationError as err:
        msg = (f"Bag file {str(path)!r} is corrupt ({err}); re-copy or re-record it (a "
               "damaged bag would be scored on wrong poses)")
        raise BenchmarkError(msg) from None
    except (McapError, OSError, ValueError, EOFError) as err:
        msg = f"Bag file {str(path)!r} is not a readable MCAP file ({type(err).__name__}: {err})"
        raise BenchmarkError(msg) from None
    return present


def read_bag_route(path: str | Path, *, topic: str = "/odom",
                   min_step_m: float = 0.0) -> BagRoute:
    """Read the poses of ``topic`` from a ROS 2 bag folder or ``.mcap``/``.db3`` file.

    Args:
        path: the bag (a rosbag2 folder with ``metadata.yaml``, or a single file).
        topic: the pose topic.
        min_step_m: drop a pose closer than this to the last kept one (0 keeps all).

    Raises:
        BenchmarkError: the bag cannot be opened, the topic is missing (the message lists the
            bag's topics), its type is not a pose type, or it holds no messages.
    """
    p = Path(path)
    if not p.exists():
        raise BenchmarkError(f"Bag {str(p)!r} does not exist")
    files = mcap_files(p)
    checked = [check_mcap_crcs(f) for f in files]
    checksums = "verified" if checked and all(checked) else "absent"
    try:
        reader = AnyReader([p])
        reader.open()
    except Exception as err:  # rosbags raises several unrelated types for unreadable bags
        msg = f"Cannot open bag {str(p)!r} ({type(err).__name__}: {err}); expected a ROS 2 bag"
        raise BenchmarkError(msg) from err
    try:
        conns = [c for c in reader.connections if c.topic == topic]
        if not conns:
            topics = sorted({f"{c.topic} ({c.msgtype})" for c in reader.connections})
            msg = f"Bag {str(p)!r} has no topic {topic!r}; its topics are: {', '.join(topics)}"
            raise BenchmarkError(msg)
        msgtype = conns[0].msgtype
        if msgtype not in POSE_TYPES:
            msg = (f"Topic {topic!r} in {str(p)!r} is {msgtype}; a route needs one of "
                   f"{', '.join(sorted(POSE_TYPES))}")
            raise BenchmarkError(msg)
        get = POSE_TYPES[msgtype]
        pts: list[tuple[float, float]] = []
        stamps: list[float] = []
        frame = ""
        for conn, stamp, raw in reader.messages(connections=conns):
            msg_obj: Any = reader.deserialize(raw, conn.msgtype)
            pos = get(msg_obj)
            frame = str(msg_obj.header.frame_id)
            xy = (float(pos.x), float(pos.y))
            if not (math.isfinite(xy[0]) and math.isfinite(xy[1])):
                msg = (f"Topic {topic!r} in {str(p)!r} has a NaN or infinite pose at "
                       f"t={stamp * 1e-9:.3f} s (message {len(stamps) + 1}); the bag is corrupt")
                raise BenchmarkError(msg)
            if min_step_m > 0 and pts and np.hypot(xy[0] - pts[-1][0], xy[1] - pts[-1][1]) < min_step_m:
                continue
            pts.append(xy)
            stamps.append(stamp * 1e-9)
    finally:
        reader.close()
    if not pts:
        raise BenchmarkError(f"Topic {topic!r} in {str(p)!r} holds no messages")
    return BagRoute(points=np.asarray(pts, dtype=np.float64),
                    stamps_s=np.asarray(stamps, dtype=np.float64), topic=topic,
                    msgtype=msgtype, frame_id=frame, checksums=checksums)
