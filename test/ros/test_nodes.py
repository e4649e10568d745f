"""Each node over real topics: grounding, planning, following and the simulator."""

from __future__ import annotations

import math

import numpy as np
import pytest
from nav_msgs.msg import Odometry
from nav_msgs.msg import Path as PathMsg
from rclpy.parameter import Parameter
from sensor_msgs.msg import LaserScan, PointCloud2
from std_msgs.msg import String

from map2route.ros import convert
from map2route.ros.frames import SENSOR_QOS
from map2route.ros.grounding_node import GroundingNode
from map2route.ros.params import NodeConfigError
from map2route.ros.path_follower_node import PathFollowerNode
from map2route.ros.route_planner_node import RoutePlannerNode
from map2route.ros.semantic_map_server import LATCHED, SemanticMapServer
from map2route.ros.sim_node import SimNode

START = (1.5, 1.0)
#: A bound on DDS discovery of a service or action server, not a speed target: it returns as
#: soon as the server is seen (10 s was missed once in a CI-style run on a 2-core machine).
DISCOVERY_S = 30.0


def _p(**kw):
    return [Parameter(k, value=v) for k, v in kw.items()]


def _collect(ros, msg_type, topic, qos=LATCHED, name=None):
    got: list = []
    ros.node(name or f"listen_{topic.replace('/', '_')}").create_subscription(
        msg_type, topic, got.append, qos)
    return got


def test_semantic_map_round_trips_through_the_topics(ros, two_room_scene, two_room_map) -> None:
    from map2route_interfaces.msg import SemanticLayer
    from nav_msgs.msg import OccupancyGrid

    ros.add(SemanticMapServer(context=ros.context, parameter_overrides=_p(scene=str(two_room_scene))))
    grids = _collect(ros, OccupancyGrid, "map")
    layers = _collect(ros, SemanticLayer, "semantic_map")
    ros.wait_for(lambda: grids and layers, what="/map and /semantic_map")
    m = convert.semantic_map_from_msgs(grids[0], layers[0])
    assert np.array_equal(m.traversable, two_room_map.traversable)
    assert np.array_equal(m.walls, two_room_map.walls)
    assert np.array_equal(m.room_ids, two_room_map.room_ids)
    assert [o.id for o in m.objects] == [o.id for o in two_room_map.objects]
    assert m.get_object("fridge_0").footprint == two_room_map.get_object("fridge_0").footprint
    assert len(m.windows_of(0)) == 2 and m.room_adjacency[0] == frozenset({1})
    assert m.metadata["generator"] == two_room_map.metadata["generator"]


def test_grounding_node_reports_in_words(ros, two_room_scene) -> None:
    from map2route_interfaces.msg import GroundingStatus, RouteIR
    from map2route_interfaces.srv import GroundInstruction

    node = ros.add(GroundingNode(context=ros.context))
    statuses = _collect(ros, GroundingStatus, "grounding/status")
    irs = _collect(ros, RouteIR, "routeir")
    pub = ros.node("speaker").create_publisher(String, "instruction", 10)
    # No map yet: a status, not a crash.
    ros.wait_for(lambda: pub.get_subscription_count() > 0, what="grounding_node on /instruction")
    pub.publish(String(data="go to the fridge"))
    ros.wait_for(lambda: statuses, what="a status without a map")
    assert statuses[-1].code == GroundingStatus.NO_MAP and "no map" in statuses[-1].message

    ros.add(SemanticMapServer(context=ros.context, parameter_overrides=_p(scene=str(two_room_scene))))
    ros.wait_for(lambda: node.map is not None, what="grounding_node to rebuild the map")
    pub.publish(String(data="   "))
    ros.wait_for(lambda: statuses[-1].code == GroundingStatus.EMPTY_INSTRUCTION,
                 what="the empty-instruction status")
    pub.publish(String(data="go to the zebra"))
    ros.wait_for(lambda: statuses[-1].code == GroundingStatus.UNKNOWN_WORD, timeout=30,
                 what="the unknown-word status")
    assert "zebra" in statuses[-1].message and "zebra" in statuses[-1].candidates

    client = ros.node("asker").create_client(GroundInstruction, "ground_instruction")
    assert client.wait_for_service(timeout_sec=DISCOVERY_S), "ground_instruction service"
    req = GroundInstruction.Request(instruction="go to the fridge", use_current_pose=False)
    req.start.x, req.start.y = START
    future = client.call_async(req)
    ros.wait_for(future.done, timeout=30, what="the ground_instruction response")
    res = future.result()
    assert res.success and res.status.code == GroundingStatus.OK
    ir = convert.routeir_from_msg(res.routeir)
    assert len(ir.stages) == 1
    m = node.map
    target = ir.stages[0].target.mask(m.grid)
    fridge_region = m.goal_region_mask(m.get_object("fridge_0"))
    assert target.any() and (target & fridge_region).sum() >= 0.5 * target.sum()
    ros.wait_for(lambda: irs, what="/routeir")
    assert irs[-1].instruction == "go to the fridge"


def _routeir(m, instruction="go to the fridge"):
    from map2route.grounding import make_grounder

    return make_grounder("offline").ground(instruction, m, START).routeir


def test_route_planner_plans_replans_and_refuses(ros, two_room_scene, two_room_map, tmp_path) -> None:
    from map2route_interfaces.msg import PlannerStatus, RouteIR

    from map2route.routeir.model import Region, Stage
    from map2route.routeir.model import RouteIR as CoreIR
    from map2route.semantic_map.io import save_scene

    server = ros.add(SemanticMapServer(context=ros.context,
                                       parameter_overrides=_p(scene=str(two_room_scene))))
    planner = ros.add(RoutePlannerNode(context=ros.context))
    routes = _collect(ros, PathMsg, "route")
    statuses = _collect(ros, PlannerStatus, "route/status")
    helper = ros.node("feeder")
    ir_pub = helper.create_publisher(RouteIR, "routeir", LATCHED)
    odom_pub = helper.create_publisher(Odometry, "odom", 10)
    ros.wait_for(lambda: planner.map is not None, what="route_planner_node to get the map")
    odom = Odometry()
    odom.pose.pose.position.x, odom.pose.pose.position.y = START
    ros.wait_for(lambda: odom_pub.publish(odom) or planner.pose is not None, what="/odom")
    ir = _routeir(two_room_map)
    ir_pub.publish(convert.routeir_msg(ir, convert.Header(frame_id="map")))
    ros.wait_for(lambda: routes and statuses, timeout=30, what="/route and /route/status")
    pts = convert.path_points(routes[-1])
    assert routes[-1].header.frame_id == "map"
    assert np.hypot(*(pts[0] - START)) < 0.1
    goal = ir.stages[-1].target.mask(two_room_map.grid)
    assert goal[two_room_map.grid.world_to_cell(*pts[-1])]
    assert statuses[-1].code == PlannerStatus.OK and statuses[-1].length_m > 2.0

    # The map changes (a new box on the old route, in the kitchen): replan around it.
    from dataclasses import replace

    old = convert.path_points(routes[-1])
    box = (3.7, 2.7)
    assert np.hypot(old[:, 0] - box[0], old[:, 1] - box[1]).min() < 0.3
    moved = replace(two_room_map, traversable=two_room_map.traversable
                    & ~two_room_map.disk_mask(box, 0.25))
    changed = save_scene(moved, tmp_path / "changed")
    n = len(routes)
    assert server.set_parameters([Parameter("scene", value=str(changed))])[0].successful
    ros.wait_for(lambda: len(routes) > n and len(statuses) > n, timeout=30,
                 what="a replanned /route after the map change")
    new_pts = convert.path_points(routes[-1])
    assert statuses[-1].code == PlannerStatus.OK
    # Clear of the box by the robot's inflation radius, less a cell of rasterisation.
    clearance = planner.params["inflation_radius"]
    assert np.hypot(new_pts[:, 0] - box[0], new_pts[:, 1] - box[1]).min() > 0.25 + clearance - 0.05

    # Infeasible: a target region that is all wall.
    wall = Region.from_mask("the wall", two_room_map.walls & two_room_map.disk_mask((6.0, 2.0), 0.2))
    bad = CoreIR(stages=(Stage(target=wall, label="inside the wall"),), constraints=(),
                 grid=two_room_map.grid, scene=two_room_map.name)
    ir_pub.publish(convert.routeir_msg(bad, convert.Header(frame_id="map")))
    ros.wait_for(lambda: statuses[-1].code == PlannerStatus.INFEASIBLE, timeout=30,
                 what="the INFEASIBLE planner status")
    assert statuses[-1].message


def test_follower_drives_the_sim_to_the_end_of_a_path(ros, two_room_scene) -> None:
    from map2route_interfaces.msg import FollowerStatus

    sim = ros.add(SimNode(context=ros.context, parameter_overrides=_p(
        scene=str(two_room_scene), start_x=START[0], start_y=START[1], cloud_every=2)))
    ros.add(PathFollowerNode(context=ros.context))
    statuses = _collect(ros, FollowerStatus, "follower/status", qos=10)
    # A LiDAR driver's QoS (BEST_EFFORT): a RELIABLE subscriber would get nothing.
    scans = _collect(ros, LaserScan, "scan", qos=SENSOR_QOS)
    clouds = _collect(ros, PointCloud2, "points", qos=SENSOR_QOS)
    plans = _collect(ros, PathMsg, "plan")
    pub = ros.node("router").create_publisher(PathMsg, "route", LATCHED)
    pts = np.array([[1.5, 1.0], [2.5, 2.0], [3.5, 2.0], [4.0, 0.6]])
    pts = np.concatenate([np.linspace(pts[i], pts[i + 1], 20) for i in range(3)])
    pub.publish(convert.path_msg(pts, convert.Header(frame_id="map")))
    ros.wait_for(lambda: statuses and statuses[-1].state == FollowerStatus.ARRIVED, timeout=40,
                 what="the follower to report ARRIVED")
    assert math.hypot(sim.pose.x - 4.0, sim.pose.y - 0.6) <= 0.2 + 1e-6
    assert sim.collisions == 0
    assert max(s.progress for s in statuses) == pytest.approx(1.0)
    assert scans and len(scans[-1].ranges) == 360 and scans[-1].header.frame_id == "lidar_link"
    assert clouds and clouds[-1].point_step == 12 and clouds[-1].width > 1000
    assert plans and len(plans[-1].poses) == len(pts)  # republished for Nav2


def test_lockstep_follower_never_answers_a_late_message(ros) -> None:
    """With ``sync_scan`` (lockstep sims) sim time never goes back: an /odom or /scan older
    than what the follower stepped on is a late message of a past state. Stepping on it (dt 0,
    an old pose) sent an answer the sim took for the current state's, so a run depended on
    thread timing (docs/ros.md, Determinism)."""
    from builtin_interfaces.msg import Time

    node = ros.add(PathFollowerNode(context=ros.context, parameter_overrides=_p(sync_scan=True)))
    node.follow(convert.path_msg(np.array([[1.0, 1.0], [3.0, 1.0]]),
                                 convert.Header(frame_id="map")))
    answered: list[float] = []
    node._send = lambda _twist, stamp: answered.append(stamp.sec + stamp.nanosec * 1e-9)

    def stamp(t: float) -> Time:
        return Time(sec=int(t), nanosec=round((t % 1) * 1e9))

    def scan(t: float) -> LaserScan:
        msg = LaserScan(angle_min=-math.pi, angle_increment=math.pi / 4, range_max=10.0,
                        ranges=[10.0] * 8)
        msg.header.stamp = stamp(t)
        return msg

    def odom(t: float, x: float) -> Odometry:
        msg = Odometry()
        msg.header.stamp = stamp(t)
        msg.pose.pose.position.x, msg.pose.pose.position.y = x, 1.0
        msg.pose.pose.orientation.w = 1.0
        return msg

    node._on_scan(scan(0.2))
    node._on_odom(odom(0.2, 1.2))
    assert answered == [pytest.approx(0.2)]
    node._on_scan(scan(0.0))  # late: the scan of 0.2 stays the one in use
    assert node.obstacles.latest[node._scan_topic][0] == pytest.approx(0.2)
    node._on_odom(odom(0.0, 1.0))  # late: neither stepped nor answered
    node._on_odom(odom(0.2, 1.2))  # a republish of the state answered: not again
    assert answered == [pytest.approx(0.2)]
    node._on_odom(odom(0.3, 1.3))  # before its scan: waits for it
    node._on_odom(odom(0.1, 1.1))  # late: does not take its place
    assert answered == [pytest.approx(0.2)]
    node._on_scan(scan(0.3))
    assert answered == [pytest.approx(0.2), pytest.approx(0.3)]


def test_sim_refuses_bad_setups(ros, two_room_scene, tmp_path) -> None:
    with pytest.raises(NodeConfigError, match="does not exist"):
        SimNode(context=ros.context, parameter_overrides=_p(scene=str(tmp_path / "nope")))
    with pytest.raises(NodeConfigError, match="inside an obstacle"):
        SimNode(context=ros.context, parameter_overrides=_p(scene=str(two_room_scene),
                                                            start_x=5.5, start_y=3.5))
    sim = ros.add(SimNode(context=ros.context, parameter_overrides=_p(
        scene=str(two_room_scene), start_x=START[0], start_y=START[1])))
    bad = sim.set_parameters([Parameter("obstacles", value="1,2")])[0]
    assert not bad.successful and "x,y,r" in bad.reason
    assert sim.set_parameters([Parameter("obstacles", value="2.0,1.0,0.2")])[0].successful
    assert len(sim.world.obstacles) == 1


def test_plan_and_follow_actions(ros, two_room_scene, two_room_map) -> None:
    from map2route_interfaces.action import FollowRoute, PlanRoute
    from rclpy.action import ActionClient

    ros.add(SemanticMapServer(context=ros.context, parameter_overrides=_p(scene=str(two_room_scene))))
    planner = ros.add(RoutePlannerNode(context=ros.context))
    sim = ros.add(SimNode(context=ros.context, parameter_overrides=_p(
        scene=str(two_room_scene), start_x=START[0], start_y=START[1], cloud_enabled=False)))
    ros.add(PathFollowerNode(context=ros.context))
    ros.wait_for(lambda: planner.map is not None, what="route_planner_node to get the map")
    client_node = ros.node("action_user")
    plan_client = ActionClient(client_node, PlanRoute, "plan_route")
    ros.wait_for_server(plan_client, what="plan_route")
    goal = PlanRoute.Goal(routeir=convert.routeir_msg(_routeir(two_room_map),
                                                      convert.Header(frame_id="map")),
                          use_start=True)
    goal.start.pose.position.x, goal.start.pose.position.y = START
    sent = plan_client.send_goal_async(goal)
    ros.wait_for(sent.done, what="plan_route to accept the goal")
    result = sent.result().get_result_async()
    ros.wait_for(result.done, timeout=30, what="the plan_route result")
    planned = result.result().result
    assert planned.error_code == PlanRoute.Result.NONE and len(planned.path.poses) > 10
    assert planned.length_m == pytest.approx(sum(planned.stage_lengths_m))

    follow_client = ActionClient(client_node, FollowRoute, "follow_route")
    ros.wait_for_server(follow_client, what="follow_route")
    feedback: list = []
    sent = follow_client.send_goal_async(FollowRoute.Goal(path=planned.path),
                                         feedback_callback=feedback.append)
    ros.wait_for(sent.done, what="follow_route to accept the goal")
    result = sent.result().get_result_async()
    ros.wait_for(result.done, timeout=60, what="the follow_route result")
    followed = result.result().result
    assert followed.arrived and sim.collisions == 0
    assert feedback and feedback[-1].feedback.progress == pytest.approx(1.0)

    # An empty path is refused with its reason.
    sent = follow_client.send_goal_async(FollowRoute.Goal(path=PathMsg()))
    ros.wait_for(sent.done, what="follow_route to answer an empty path")
    result = sent.result().get_result_async()
    ros.wait_for(result.done, what="the empty-path result")
    assert result.result().result.error_code == FollowRoute.Result.INVALID_PATH


def _two_doors(tmp_path):
    """A living room and a kitchen joined by two doors (x = 6, y 2.5-3.5 and 0.3-1.3)."""
    from map2route.semantic_map.io import save_scene
    from map2route.semantic_map.model import RoomType
    from map2route.semantic_map.synthetic import RectObject, RectRoom, rect_house

    m = rect_house(name="two_doors", rooms=[RectRoom(0, RoomType.LIVING_ROOM, 0, 0, 6, 6),
                                            RectRoom(1, RoomType.KITCHEN, 6, 0, 12, 6)],
                   objects=[RectObject("fridge_0", "fridge", 11.4, 3.0, 0.7, 0.7, z_max=1.8)],
                   doors=[("door_0", (0, 1), ((6.0, 2.5), (6.0, 3.5))),
                          ("door_1", (0, 1), ((6.0, 0.3), (6.0, 1.3)))])
    return m, save_scene(m, tmp_path / "two_doors")


def _door_0_box():
    """Cloud points of a 1 m box in door_0 of :func:`_two_doors`."""
    return np.array([[6.0 + 0.5 * math.cos(a), 3.0 + 0.5 * math.sin(a), 0.0]
                     for a in np.linspace(0, 2 * math.pi, 40)])


def _planner_and_follower_like(ros, tmp_path):
    """The map server and route planner on :func:`_two_doors`, the planner's /route, and a
    node publishing what the follower would (/odom, /route/obstacles)."""
    m, scene = _two_doors(tmp_path)
    ros.add(SemanticMapServer(context=ros.context, parameter_overrides=_p(scene=str(scene))))
    planner = ros.add(RoutePlannerNode(context=ros.context))
    routes = _collect(ros, PathMsg, "route")
    helper = ros.node("follower_like")
    odom_pub = helper.create_publisher(Odometry, "odom", 10)
    blocked_pub = helper.create_publisher(PointCloud2, "route/obstacles", 5)
    ros.wait_for(lambda: planner.map is not None, what="the planner's map")
    return m, planner, routes, helper, odom_pub, blocked_pub


def test_planner_replans_around_obstacles_the_follower_reports(ros, tmp_path) -> None:
    """The global step of "local detour first, global replan when blocked": a 1 m box in the
    door the route takes, reported on /route/obstacles, sends the route through the other."""
    from map2route_interfaces.msg import RouteIR

    m, planner, routes, helper, odom_pub, blocked_pub = _planner_and_follower_like(ros, tmp_path)
    odom = Odometry()
    odom.pose.pose.position.x, odom.pose.pose.position.y = 3.0, 3.0
    ros.wait_for(lambda: odom_pub.publish(odom) or planner.pose is not None, what="/odom")
    ir = _routeir(m)
    helper.create_publisher(RouteIR, "routeir", LATCHED).publish(
        convert.routeir_msg(ir, convert.Header(frame_id="map")))
    ros.wait_for(lambda: routes, what="the first route")

    def door_y(path: PathMsg) -> float:
        pts = convert.path_points(path)
        return float(pts[np.argmin(np.abs(pts[:, 0] - 6.0)), 1])

    assert 2.5 < door_y(routes[-1]) < 3.5  # straight through door_0
    blocked_pub.publish(convert.cloud_msg(_door_0_box(), "map", convert.Header().stamp))
    ros.wait_for(lambda: len(routes) > 1, what="the replanned route")
    assert 0.3 < door_y(routes[-1]) < 1.3  # through door_1


def test_planner_replans_from_the_pose_of_the_reports_stamp(ros, tmp_path) -> None:
    """A report on /route/obstacles is planned from the /odom of its stamp (where the follower
    was when it asked), not from whichever /odom the planner handled last (message timing);
    a report that comes before the /odom of its stamp waits for it."""
    import time

    from builtin_interfaces.msg import Time
    from map2route_interfaces.msg import RouteIR

    m, planner, routes, helper, odom_pub, blocked_pub = _planner_and_follower_like(ros, tmp_path)

    def odom(sec: int, x: float, y: float) -> Odometry:
        msg = Odometry()
        msg.header.stamp = Time(sec=sec)
        msg.pose.pose.position.x, msg.pose.pose.position.y = x, y
        return msg

    def start(path: PathMsg) -> tuple[float, float]:
        return tuple(convert.path_points(path)[0])

    ros.wait_for(lambda: odom_pub.publish(odom(1, 3.0, 3.0)) or planner.pose == (3.0, 3.0),
                 what="/odom of 1 s")
    helper.create_publisher(RouteIR, "routeir", LATCHED).publish(
        convert.routeir_msg(_routeir(m), convert.Header(frame_id="map")))
    ros.wait_for(lambda: routes, what="the first route")
    ros.wait_for(lambda: odom_pub.publish(odom(2, 2.0, 2.0)) or planner.pose == (2.0, 2.0),
                 what="/odom of 2 s")
    # Stamped 1 s: from (3, 3), where the robot was then, not from the latest pose (2, 2).
    blocked_pub.publish(convert.cloud_msg(_door_0_box(), "map", Time(sec=1)))
    ros.wait_for(lambda: len(routes) > 1, what="the replan of the report of 1 s")
    assert start(routes[-1]) == pytest.approx((3.0, 3.0), abs=0.1)
    # Stamped 3 s, before the /odom of 3 s: no replan until that /odom is in, then from it.
    blocked_pub.publish(convert.cloud_msg(_door_0_box(), "map", Time(sec=3)))
    ros.wait_for(lambda: planner._report_stamp is not None, what="the report of 3 s to wait")
    time.sleep(0.3)
    assert len(routes) == 2
    odom_pub.publish(odom(3, 4.0, 2.0))
    ros.wait_for(lambda: len(routes) > 2, what="the replan of the report of 3 s")
    assert start(routes[-1]) == pytest.approx((4.0, 2.0), abs=0.1)
