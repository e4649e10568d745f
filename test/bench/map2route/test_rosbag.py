"""score-bag: bags written here with rosbags (sqlite3 and MCAP), read back and scored."""

from __future__ import annotations

import json

import numpy as np
import pytest

from map2route.bench.errors import BenchmarkError
from map2route.bench.map2route.rosbag import read_bag_route
from map2route.cli import main


def _write_bag(path, points, *, msgtype="nav_msgs/msg/Odometry", topic="/odom",
               storage="sqlite3") -> None:
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import Stores, get_typestore

    ts = get_typestore(Stores.ROS2_JAZZY)
    Header = ts.types["std_msgs/msg/Header"]
    Time = ts.types["builtin_interfaces/msg/Time"]
    Point = ts.types["geometry_msgs/msg/Point"]
    Quat = ts.types["geometry_msgs/msg/Quaternion"]
    Pose = ts.types["geometry_msgs/msg/Pose"]
    plugin = StoragePlugin.MCAP if storage == "mcap" else StoragePlugin.SQLITE3
    with Writer(path, version=9, storage_plugin=plugin) as writer:
        conn = writer.add_connection(topic, msgtype, typestore=ts)
        for i, (x, y) in enumerate(points):
            header = Header(stamp=Time(sec=i, nanosec=0), frame_id="map")
            pose = Pose(position=Point(x=float(x), y=float(y), z=0.0),
                        orientation=Quat(x=0.0, y=0.0, z=0.0, w=1.0))
            if msgtype == "nav_msgs/msg/Odometry":
                PWC = ts.types["geometry_msgs/msg/PoseWithCovariance"]
                TWC = ts.types["geometry_msgs/msg/TwistWithCovariance"]
                Twist = ts.types["geometry_msgs/msg/Twist"]
                Vec = ts.types["geometry_msgs/msg/Vector3"]
                msg = ts.types[msgtype](
                    header=header, child_frame_id="base_link",
                    pose=PWC(pose=pose, covariance=np.zeros(36)),
                    twist=TWC(twist=Twist(linear=Vec(x=0.0, y=0.0, z=0.0),
                                          angular=Vec(x=0.0, y=0.0, z=0.0)),
                              covariance=np.zeros(36)))
            else:
                msg = ts.types[msgtype](header=header, pose=pose)
            writer.write(conn, i * 1_000_000_000, ts.serialize_cdr(msg, msgtype))


@pytest.mark.parametrize(
    ("msgtype", "storage"),
    [("nav_msgs/msg/Odometry", "sqlite3"), ("geometry_msgs/msg/PoseStamped", "mcap")],
    ids=["odometry-sqlite3", "posestamped-mcap"],
)
def test_read_bag_route(tmp_path, msgtype, storage) -> None:
    pts = [(0.5, 2.0), (1.5, 2.0), (2.5, 2.1)]
    _write_bag(tmp_path / "bag", pts, msgtype=msgtype, storage=storage)
    route = read_bag_route(tmp_path / "bag", topic="/odom")
    np.testing.assert_allclose(route.points, pts)
    assert route.msgtype == msgtype and route.frame_id == "map"
    np.testing.assert_allclose(route.stamps_s, [0.0, 1.0, 2.0])


def test_missing_topic_lists_the_topics(tmp_path) -> None:
    _write_bag(tmp_path / "bag", [(0.0, 0.0)], topic="/robot/odom")
    with pytest.raises(BenchmarkError, match=r"no topic '/odom'; its topics are: /robot/odom"):
        read_bag_route(tmp_path / "bag", topic="/odom")


def test_score_bag_scores_the_planned_route(tmp_path, two_room_scene, two_room_episodes,
                                            seq_planner, capsys) -> None:
    from map2route.bench.map2route.episode import load_episodes
    from map2route.semantic_map import load_scene

    ep = load_episodes(two_room_episodes)[0]
    m = load_scene(two_room_scene / ep.scene)
    route = seq_planner(m, ep.routeir, ep.start_xy)
    # A robot records poses sparsely: every 5th planned point plus the last.
    sparse = np.vstack([route.points[::5], route.points[-1:]])
    _write_bag(tmp_path / "bag", sparse)
    code = main(["bench", "score-bag", "--episode", ep.id, "--bag", str(tmp_path / "bag"),
                 "--episodes", str(two_room_episodes), "--scenes", str(two_room_scene), "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hcs"] == 1.0 and data["success"] is True
    assert data["poses"] == len(sparse)
    assert data["pl"] == pytest.approx(float(np.linalg.norm(np.diff(sparse, axis=0), axis=1).sum()))
