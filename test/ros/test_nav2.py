"""Nav2's planner and controller actions, asked by a Nav2-style action client."""

from __future__ import annotations

import math

import numpy as np
from geometry_msgs.msg import PoseStamped
from nav2_msgs.action import ComputePathThroughPoses, ComputePathToPose, FollowPath
from rclpy.action import ActionClient
from rclpy.parameter import Parameter

from map2route.ros import convert
from map2route.ros.path_follower_node import PathFollowerNode
from map2route.ros.route_planner_node import RoutePlannerNode
from map2route.ros.semantic_map_server import SemanticMapServer
from map2route.ros.sim_node import SimNode


def _p(**kw):
    return [Parameter(k, value=v) for k, v in kw.items()]


def _pose(x: float, y: float, frame: str = "map") -> PoseStamped:
    out = PoseStamped()
    out.header.frame_id = frame
    out.pose.position.x, out.pose.position.y = x, y
    out.pose.orientation.w = 1.0
    return out


def _call(ros, client, goal, what):
    ros.wait_for_server(client, what=what)
    sent = client.send_goal_async(goal)
    handle = ros.wait_for(lambda: sent.done() and sent.result(), what=f"{what} to accept")
    assert handle.accepted
    done = handle.get_result_async()
    return ros.wait_for(lambda: done.done() and done.result(), what=f"the {what} result",
                        timeout=90).result


def test_compute_path_to_pose_and_through_poses(ros, two_room_scene) -> None:
    ros.add(SemanticMapServer(context=ros.context, parameter_overrides=_p(scene=str(two_room_scene))))
    planner = ros.add(RoutePlannerNode(context=ros.context))
    ros.wait_for(lambda: planner.map is not None, what="the planner's map")
    client_node = ros.node("bt_navigator_like")
    to_pose = ActionClient(client_node, ComputePathToPose, "compute_path_to_pose")
    goal = ComputePathToPose.Goal(goal=_pose(5.0, 2.5), start=_pose(1.5, 1.0), use_start=True,
                                  planner_id="GridBased")
    result = _call(ros, to_pose, goal, "compute_path_to_pose")
    assert result.error_code == ComputePathToPose.Result.NONE, result.error_msg
    pts = convert.path_points(result.path)
    assert result.path.header.frame_id == "map" and len(pts) > 10
    assert np.hypot(*(pts[0] - [1.5, 1.0])) < 0.1 and np.hypot(*(pts[-1] - [5.0, 2.5])) <= 0.2
    # Through the door at x = 3, y 1.5..2.5: the only way into the kitchen.
    crossing = pts[np.argmin(np.abs(pts[:, 0] - 3.0))]
    assert 1.5 < crossing[1] < 2.5

    far = ComputePathToPose.Goal(goal=_pose(50.0, 2.5), start=_pose(1.5, 1.0), use_start=True)
    assert _call(ros, to_pose, far, "compute_path_to_pose").error_code == \
        ComputePathToPose.Result.GOAL_OUTSIDE_MAP
    no_tf = ComputePathToPose.Goal(goal=_pose(5.0, 2.5, frame="earth"), start=_pose(1.5, 1.0),
                                   use_start=True)
    bad = _call(ros, to_pose, no_tf, "compute_path_to_pose")
    assert bad.error_code == ComputePathToPose.Result.TF_ERROR and "earth" in bad.error_msg

    through = ActionClient(client_node, ComputePathThroughPoses, "compute_path_through_poses")
    via = ComputePathThroughPoses.Goal(goals=[_pose(2.5, 3.0), _pose(5.5, 2.3)],
                                       start=_pose(1.5, 1.0), use_start=True)
    result = _call(ros, through, via, "compute_path_through_poses")
    assert result.error_code == ComputePathThroughPoses.Result.NONE, result.error_msg
    pts = convert.path_points(result.path)
    assert np.hypot(pts[:, 0] - 2.5, pts[:, 1] - 3.0).min() <= 0.2  # passes the via pose
    assert np.hypot(*(pts[-1] - [5.5, 2.3])) <= 0.2
    empty = _call(ros, through, ComputePathThroughPoses.Goal(), "compute_path_through_poses")
    assert empty.error_code == ComputePathThroughPoses.Result.NO_VIAPOINTS_GIVEN


def test_follow_path_drives_the_sim(ros, two_room_scene) -> None:
    sim = ros.add(SimNode(context=ros.context, parameter_overrides=_p(
        scene=str(two_room_scene), start_x=1.5, start_y=1.0)))
    ros.add(PathFollowerNode(context=ros.context))
    client = ActionClient(ros.node("controller_client"), FollowPath, "follow_path")
    pts = np.linspace([1.5, 1.0], [2.5, 2.0], 20)
    feedback: list = []
    ros.wait_for_server(client, what="follow_path")
    sent = client.send_goal_async(FollowPath.Goal(
        path=convert.path_msg(pts, convert.Header(frame_id="map")), controller_id="FollowPath"),
        feedback_callback=lambda f: feedback.append(f.feedback))
    handle = ros.wait_for(lambda: sent.done() and sent.result(), what="follow_path to accept")
    done = handle.get_result_async()
    result = ros.wait_for(lambda: done.done() and done.result(), what="follow_path's result",
                          timeout=60).result
    assert result.error_code == FollowPath.Result.NONE
    assert math.hypot(sim.pose.x - 2.5, sim.pose.y - 2.0) <= 0.2 + 1e-6
    assert feedback and max(f.speed for f in feedback) > 0.1
    sent = client.send_goal_async(FollowPath.Goal())
    handle = ros.wait_for(lambda: sent.done() and sent.result(), what="the empty goal")
    done = handle.get_result_async()
    empty = ros.wait_for(lambda: done.done() and done.result(), what="the empty goal's result")
    assert empty.result.error_code == FollowPath.Result.INVALID_PATH
