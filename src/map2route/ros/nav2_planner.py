"""Nav2's planner-server actions on ``route_planner_node``: ComputePathToPose and
ComputePathThroughPoses (``nav2_msgs``, Jazzy definitions), so Nav2 behaviour trees, RViz's
Nav2 tools and ``nav2_simple_commander`` can ask map2route for a path.

The poses become RouteIR stages (each a disc of ``goal_radius`` round the pose) and the
current RouteIR's constraints stay in force: its must-avoid regions always, its soft
preferences when they hold for every stage (a temporal scope names the grounded RouteIR's own
stages, which a pose goal does not have). Goal poses in another frame are looked up through
TF. Served on ``compute_path_to_pose`` and ``compute_path_through_poses``, as Nav2's
planner_server names them.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numpy as np
from builtin_interfaces.msg import Duration
from nav2_msgs.action import ComputePathThroughPoses, ComputePathToPose
from rclpy.action import ActionServer
from rclpy.callback_groups import ReentrantCallbackGroup

from map2route.control.frames import FrameError
from map2route.errors import Map2RouteError
from map2route.ros import convert
from map2route.ros.errors import PlanFailure
from map2route.ros.frames import pose_transform
from map2route.routeir.model import Constraint, ConstraintKind, Region, RouteIR, Stage

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap

GOAL_RADIUS_M = 0.15


def pose_routeir(m: SemanticMap, goals: list[tuple[float, float]], current: RouteIR | None, *,
                 radius: float = GOAL_RADIUS_M) -> RouteIR:
    """A RouteIR with one stage per goal point, keeping ``current``'s constraints that apply."""
    xs, ys = m.grid.cell_centres()
    stages = []
    for i, (x, y) in enumerate(goals):
        mask = np.hypot(xs - x, ys - y) <= max(radius, m.grid.resolution)
        stages.append(Stage(target=Region.from_mask(f"pose {i + 1}", mask,
                                                    construction={"op": "nav2_pose",
                                                                  "x": x, "y": y}),
                            label=f"pose {i + 1} ({x:.2f}, {y:.2f})"))
    kept: tuple[Constraint, ...] = ()
    if current is not None and current.grid == m.grid:
        kept = tuple(c for c in current.constraints
                     if c.kind is ConstraintKind.MUST_AVOID or c.temporal_scope is None)
    return RouteIR(stages=tuple(stages), constraints=kept, grid=m.grid, scene=m.name,
                   metadata={"source": "nav2 action"})


class Nav2PlannerServers:
    """The two actions, on ``node`` (a RoutePlannerNode)."""

    def __init__(self, node: Any) -> None:
        self.node = node
        group = ReentrantCallbackGroup()
        self._to_pose = ActionServer(node, ComputePathToPose, "compute_path_to_pose",
                                     self._on_to_pose, callback_group=group)
        self._through = ActionServer(node, ComputePathThroughPoses, "compute_path_through_poses",
                                     self._on_through, callback_group=group)

    def _xy(self, pose_stamped: Any) -> tuple[float, float]:
        frame = self.node.params["frame_id"]
        source = pose_stamped.header.frame_id or frame
        tf = self.node.tf.lookup(frame, source) * pose_transform(pose_stamped.pose)
        return tf.translation[0], tf.translation[1]

    def _run(self, goal_handle: Any, action: Any, goals: list[Any]) -> Any:

        R = action.Result
        result = R()
        node, req = self.node, goal_handle.request
        t0 = time.perf_counter()
        try:
            if node.map is None:
                raise PlanFailure(-1, "no map yet: start semantic_map_server")
            start = self._xy(req.start) if req.use_start else node.pose
            points = [self._xy(g) for g in goals]
            outside = [p for p in points if not node.map.grid.contains_point(*p)]
            if outside:
                result.error_code = R.GOAL_OUTSIDE_MAP
                result.error_msg = f"goal {outside[0]} lies outside the map"
                goal_handle.abort()
                return result
            if start is not None and not node.map.grid.contains_point(*start):
                result.error_code = R.START_OUTSIDE_MAP
                result.error_msg = f"start {start} lies outside the map"
                goal_handle.abort()
                return result
            route = node.plan_from(pose_routeir(node.map, points, node.routeir), start)
        except FrameError as err:
            result.error_code, result.error_msg = R.TF_ERROR, str(err)
            goal_handle.abort()
            return result
        except PlanFailure as err:
            result.error_code = R.NO_VALID_PATH if err.code > 0 else R.UNKNOWN
            result.error_msg = str(err)
            goal_handle.abort()
            return result
        except Map2RouteError as err:
            result.error_code, result.error_msg = R.UNKNOWN, str(err)
            goal_handle.abort()
            return result
        elapsed = time.perf_counter() - t0
        result.path = convert.path_msg(route.points, node.stamped_header())
        result.planning_time = Duration(sec=int(elapsed), nanosec=int((elapsed % 1) * 1e9))
        result.error_code = R.NONE
        goal_handle.succeed()
        return result

    def _on_to_pose(self, goal_handle: Any) -> Any:
        return self._run(goal_handle, ComputePathToPose, [goal_handle.request.goal])

    def _on_through(self, goal_handle: Any) -> Any:
        goals = list(goal_handle.request.goals)
        if not goals:
            result = ComputePathThroughPoses.Result(error_msg="no poses given")
            result.error_code = ComputePathThroughPoses.Result.NO_VIAPOINTS_GIVEN
            goal_handle.abort()
            return result
        return self._run(goal_handle, ComputePathThroughPoses, goals)
