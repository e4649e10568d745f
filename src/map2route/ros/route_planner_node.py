"""``route_planner_node``: RouteIR + current pose -> ``/route`` (``nav_msgs/Path``, frame map).

Plans with :func:`map2route.planning.plan_route` on the map inflated by the robot's footprint
(:func:`map2route.control.inflate_for_robot`), from the latest ``/odom`` pose looked up in
``frame_id`` through TF (``map -> odom``; or the RouteIR's own start when there is no pose
yet). Replans when ``/map`` or
``/semantic_map`` changes, and when the follower reports obstacles on
``/route/obstacles`` (``PointCloud2``, map frame) that no local detour gets round: they are
added to the map as blocked (until the next RouteIR) and the RouteIR is replanned from the
pose of the report's stamp (the ``/odom`` the follower stepped on when it asked; a report
that comes before that ``/odom`` waits for it), the global step of "local detour first,
global replan when blocked". Publishes, latched: ``/route``, ``/route/markers`` (stage targets,
constraint regions, the route coloured by stage) and ``/route/status``
(``map2route_interfaces/PlannerStatus``). Also serves the ``plan_route`` action
(``map2route_interfaces/PlanRoute``, shaped like Nav2's ComputePathToPose) and Nav2's own
``compute_path_to_pose`` / ``compute_path_through_poses`` (:mod:`map2route.ros.nav2_planner`).
"""

from __future__ import annotations

import dataclasses
import time
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from builtin_interfaces.msg import Duration
from geometry_msgs.msg import Point
from map2route_interfaces.action import PlanRoute
from map2route_interfaces.msg import PlannerStatus, RouteIR, SemanticLayer
from map2route_interfaces.msg import PlannerStatus as S
from nav_msgs.msg import OccupancyGrid, Odometry
from nav_msgs.msg import Path as PathMsg
from rclpy.action import ActionServer
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup
from rclpy.node import Node
from sensor_msgs.msg import PointCloud2
from std_msgs.msg import ColorRGBA, Header
from visualization_msgs.msg import Marker, MarkerArray

from map2route.control import inflate_for_robot
from map2route.control.frames import FrameError
from map2route.errors import Map2RouteError
from map2route.gridsearch.kernel import warm_up
from map2route.planning import NoRouteError, PlannerConfig, plan_route
from map2route.ros import convert
from map2route.ros.errors import PlanFailure
from map2route.ros.frames import TfListener, cloud_xyz
from map2route.ros.nav2_planner import Nav2PlannerServers
from map2route.ros.params import Param, declare, non_empty, non_negative, run_node
from map2route.ros.semantic_map_server import LATCHED
from map2route.routeir.errors import RouteIRError

if TYPE_CHECKING:
    from map2route.planning import Route
    from map2route.routeir.model import RouteIR
    from map2route.semantic_map.model import SemanticMap

PARAMS = (
    Param("frame_id", str, "frame of /route", non_empty),
    Param("inflation_radius", float, "robot clearance used when planning (m)", non_negative),
    Param("planner_config", str, "planner YAML (empty: config/planner.yaml)"),
    Param("hard_only", bool, "plan the shortest feasible route (hard constraints only)"),
)
PARAM_FILE = "route_planner_node.yaml"

#: /odom poses kept by stamp for replans from a report's stamp (10 s at 10 Hz)
POSE_HISTORY = 100

STAGE_COLOURS = [(0.12, 0.47, 0.71), (1.0, 0.5, 0.05), (0.17, 0.63, 0.17), (0.84, 0.15, 0.16),
                 (0.58, 0.40, 0.74), (0.55, 0.34, 0.29)]


def _stamp_ns(stamp: Any) -> int:
    return int(stamp.sec) * 1_000_000_000 + int(stamp.nanosec)


def plan(m: SemanticMap | None, ir: RouteIR, start: tuple[float, float] | None, *,
         inflation_radius: float, config: Any, hard_only: bool) -> Route:
    """Plan ``ir`` from ``start`` on ``m`` inflated for the robot.

    Raises:
        PlanFailure: no map, no start, an invalid RouteIR or an infeasible route, in words.
    """


    if m is None:
        raise PlanFailure(S.NO_MAP, "no map yet: start semantic_map_server")
    start = start if start is not None else ir.start
    if start is None:
        raise PlanFailure(S.NO_POSE, "no start: no /odom received and the RouteIR has no start")
    inflated = inflate_for_robot(m, inflation_radius, keep=start)
    try:
        return plan_route(inflated, ir, start, config=config, hard_only=hard_only)
    except RouteIRError as err:
        raise PlanFailure(S.INVALID_ROUTEIR, str(err)) from err
    except NoRouteError as err:
        raise PlanFailure(S.INFEASIBLE, f"{err} (planned with {inflation_radius:.2f} m robot "
                          "clearance)") from err


class RoutePlannerNode(Node):
    """Plans routes for RouteIRs; see the module docstring."""

    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("route_planner_node", **node_kwargs)
        self.params = declare(self, PARAMS, PARAM_FILE)


        # Compile (or load the cached) search kernel now, not on the first route request.
        warm_up()
        cfg_path = self.params["planner_config"]
        self.planner_config = PlannerConfig.from_yaml(Path(cfg_path) if cfg_path else None)
        self.map: SemanticMap | None = None
        self._grid: OccupancyGrid | None = None
        self._layer: Any = None
        self.pose: tuple[float, float] | None = None
        #: recent /odom poses by header stamp (ns), newest last, and the newest stamp
        self._poses: OrderedDict[int, tuple[float, float]] = OrderedDict()
        self._pose_stamp: int | None = None
        #: the stamp (ns) of reported obstacles whose replan waits for the /odom of that stamp
        self._report_stamp: int | None = None
        self.routeir: RouteIR | None = None
        self.route: Route | None = None
        self.route_pub = self.create_publisher(PathMsg, "route", LATCHED)
        self.markers_pub = self.create_publisher(MarkerArray, "route/markers", LATCHED)
        self.status_pub = self.create_publisher(PlannerStatus, "route/status", LATCHED)
        poses = MutuallyExclusiveCallbackGroup()
        self.create_subscription(OccupancyGrid, "map", self._on_grid, LATCHED)
        self.create_subscription(SemanticLayer, "semantic_map", self._on_layer, LATCHED)
        self.create_subscription(RouteIR, "routeir", self._on_routeir, LATCHED)
        self.tf = TfListener(self, callback_group=poses)
        #: cells blocked by obstacles the follower reported (the map does not have them)
        self.reported: np.ndarray | None = None
        # In the poses group: a report and the /odom it refers to are never handled at once.
        self.create_subscription(PointCloud2, "route/obstacles", self._on_obstacles, 5,
                                 callback_group=poses)
        self.create_subscription(Odometry, "odom", self._on_odom, 10, callback_group=poses)
        self._action = ActionServer(self, PlanRoute, "plan_route", self._on_goal,
                                    callback_group=ReentrantCallbackGroup())
        self.nav2 = Nav2PlannerServers(self)

    # --- inputs ------------------------------------------------------------------------
    def _on_grid(self, msg: OccupancyGrid) -> None:
        self._grid = msg
        self._map_changed()

    def _on_layer(self, msg: Any) -> None:
        self._layer = msg
        self._map_changed()

    def _map_changed(self) -> None:
        if self._grid is None or self._layer is None:
            return
        try:
            self.map = convert.semantic_map_from_msgs(self._grid, self._layer)
        except Map2RouteError as err:
            self.get_logger().warn(str(err))
            return
        if self.routeir is not None:
            self.get_logger().info("map changed: replanning")
            self._replan()

    def _on_odom(self, msg: Odometry) -> None:
        try:
            x, y, _yaw = self.tf.odom_pose(self.params["frame_id"], msg)
        except FrameError as err:
            self.get_logger().warn(f"no start pose yet: {err}", throttle_duration_sec=5.0)
            return
        self.pose = (x, y)
        ns = _stamp_ns(msg.header.stamp)
        self._poses[ns] = self.pose
        self._poses.move_to_end(ns)
        while len(self._poses) > POSE_HISTORY:
            self._poses.popitem(last=False)
        self._pose_stamp = ns if self._pose_stamp is None else max(self._pose_stamp, ns)
        waiting = self._report_stamp
        if waiting is not None and ns >= waiting and self.routeir is not None:
            self._report_stamp = None
            self._replan(self._poses.get(waiting, self.pose))

    def _on_obstacles(self, msg: PointCloud2) -> None:
        if self.map is None or self.routeir is None:
            return
        try:
            xyz = cloud_xyz(msg)
            if msg.header.frame_id and msg.header.frame_id != self.params["frame_id"]:
                xyz = self.tf.lookup(self.params["frame_id"], msg.header.frame_id).apply(xyz)
        except FrameError as err:
            self.get_logger().warn(f"ignoring reported obstacles: {err}")
            return
        grid = self.map.grid
        cells = grid.worlds_to_cells(xyz[:, :2])
        inside = (cells[:, 0] >= 0) & (cells[:, 0] < grid.rows) & (cells[:, 1] >= 0) & \
            (cells[:, 1] < grid.cols)
        if self.reported is None or self.reported.shape != grid.shape:
            self.reported = np.zeros(grid.shape, dtype=bool)
        self.reported[cells[inside, 0], cells[inside, 1]] = True
        self.get_logger().info(f"replanning around {int(inside.sum())} reported obstacle points")
        # From where the robot was when it asked (the /odom of the report's stamp), not from
        # whichever /odom this node handled last: which that is depends on message timing.
        ns = _stamp_ns(msg.header.stamp)
        start = self._poses.get(ns)
        if start is None and self._pose_stamp is not None and ns > self._pose_stamp:
            self._report_stamp = ns  # planned when that /odom is in (_on_odom)
            return
        self._replan(start)

    def _on_routeir(self, msg: Any) -> None:
        self.reported = None
        self._report_stamp = None
        try:
            self.routeir = convert.routeir_from_msg(msg)
        except Map2RouteError as err:

            self._status(PlannerStatus.INVALID_ROUTEIR, str(err))
            return
        self._replan()

    # --- planning ------------------------------------------------------------------------
    def plan_from(self, ir: RouteIR, start: tuple[float, float] | None) -> Route:
        m = self.map
        if m is not None and self.reported is not None and self.reported.shape == m.grid.shape:
            m = dataclasses.replace(m, traversable=m.traversable & ~self.reported)
        return plan(m, ir, start, inflation_radius=self.params["inflation_radius"],
                    config=self.planner_config, hard_only=self.params["hard_only"])

    def _replan(self, start: tuple[float, float] | None = None) -> None:
        """Plan the RouteIR from ``start`` (default: the latest pose) and publish the route."""
        assert self.routeir is not None
        try:
            route = self.plan_from(self.routeir, start if start is not None else self.pose)
        except PlanFailure as err:
            self._status(err.code, str(err))
            return
        self.route = route
        header = self.stamped_header()
        self.route_pub.publish(convert.path_msg(route.points, header))
        self.markers_pub.publish(self._markers(self.routeir, route, header))
        self._status(PlannerStatus.OK, "", route)
        self.get_logger().info(f"route: {route.length_m:.2f} m, {len(route.points)} points, "
                               f"{len(route.stage_lengths_m)} stage(s)")

    def stamped_header(self) -> Header:
        return Header(frame_id=self.params["frame_id"], stamp=self.get_clock().now().to_msg())

    def _status(self, code: int, message: str, route: Route | None = None) -> None:

        if message:
            self.get_logger().warn(message)
        st = PlannerStatus(header=self.stamped_header(), code=code, message=message)
        if route is not None:
            st.length_m = float(route.length_m)
            st.stage_lengths_m = [float(v) for v in route.stage_lengths_m]
            st.points = len(route.points)
        self.status_pub.publish(st)

    def _markers(self, ir: RouteIR, route: Route, header: Header) -> MarkerArray:
        out = MarkerArray(markers=[Marker(header=header, action=Marker.DELETEALL)])
        g = ir.grid
        for k in range(len(ir.stages)):
            rgb = STAGE_COLOURS[k % len(STAGE_COLOURS)]
            line = Marker(header=header, ns="route", id=k, type=Marker.LINE_STRIP,
                          action=Marker.ADD, color=ColorRGBA(r=rgb[0], g=rgb[1], b=rgb[2], a=1.0))
            line.scale.x, line.pose.orientation.w = 0.06, 1.0
            pts = route.points[np.asarray(route.stage_index) == k]
            line.points = [Point(x=float(x), y=float(y), z=0.05) for x, y in pts]
            target = Marker(header=header, ns="stage_targets", id=k, type=Marker.CUBE_LIST,
                            action=Marker.ADD,
                            color=ColorRGBA(r=rgb[0], g=rgb[1], b=rgb[2], a=0.35))
            target.scale.x = target.scale.y = g.resolution
            target.scale.z, target.pose.orientation.w = 0.01, 1.0
            cells = ir.stages[k].target.cells
            target.points = [Point(x=x, y=y) for x, y in g.cells_to_worlds(cells).tolist()]
            out.markers.extend([line, target])
        for k, c in enumerate(ir.constraints):
            hard = c.kind.is_hard
            region = Marker(header=header, ns=f"constraint_{c.kind.value}", id=k,
                            type=Marker.CUBE_LIST, action=Marker.ADD,
                            color=ColorRGBA(r=0.9 if hard else 0.3, g=0.1 if hard else 0.6,
                                            b=0.1 if hard else 0.9, a=0.25))
            region.scale.x = region.scale.y = g.resolution
            region.scale.z, region.pose.orientation.w = 0.01, 1.0
            region.points = [Point(x=x, y=y) for x, y in g.cells_to_worlds(c.region.cells).tolist()]
            out.markers.append(region)
        return out

    # --- action ----------------------------------------------------------------------------
    def _on_goal(self, goal_handle: Any) -> Any:

        req = goal_handle.request
        result = PlanRoute.Result()
        t0 = time.perf_counter()
        try:
            ir = convert.routeir_from_msg(req.routeir)
            start = (req.start.pose.position.x, req.start.pose.position.y) if req.use_start \
                else self.pose
            route = self.plan_from(ir, start)
        except PlanFailure as err:
            codes = {1: PlanRoute.Result.NO_MAP, 2: PlanRoute.Result.START_OUTSIDE_MAP,
                     3: PlanRoute.Result.INVALID_ROUTEIR, 4: PlanRoute.Result.NO_VALID_PATH}
            result.error_code, result.error_msg = codes.get(err.code, PlanRoute.Result.UNKNOWN), str(err)
            goal_handle.abort()
            return result
        except Map2RouteError as err:
            result.error_code, result.error_msg = PlanRoute.Result.INVALID_ROUTEIR, str(err)
            goal_handle.abort()
            return result
        elapsed = time.perf_counter() - t0
        result.path = convert.path_msg(route.points, self.stamped_header())
        result.planning_time = Duration(sec=int(elapsed), nanosec=int((elapsed % 1) * 1e9))
        result.length_m = float(route.length_m)
        result.stage_lengths_m = [float(v) for v in route.stage_lengths_m]
        goal_handle.succeed()
        return result


def main(args: list[str] | None = None) -> int:
    return run_node(RoutePlannerNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
