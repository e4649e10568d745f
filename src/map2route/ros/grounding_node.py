"""``grounding_node``: natural-language instruction in, RouteIR out, errors in words.

Inputs: ``/instruction`` (``std_msgs/String``, for quick use) and the ``ground_instruction``
service (``map2route_interfaces/GroundInstruction``); the map from ``/map`` +
``/semantic_map``; the robot's pose from ``/odom`` looked up in ``frame_id`` through TF (the
route's start).
Outputs (latched): ``/routeir`` (``map2route_interfaces/RouteIR``) and ``/grounding/status``
(``map2route_interfaces/GroundingStatus``: ambiguous reference with its candidates, unknown
word, infeasible request, empty instruction, no map yet).
The ``instruction`` parameter, when not empty, is grounded once as soon as the map (and, with
``start_from_odom``, a pose) has arrived: what ``sim.launch.xml instruction:=...`` uses, so a
launch needs no ``ros2 topic pub``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from map2route_interfaces.msg import GroundingStatus, RouteIR, SemanticLayer
from map2route_interfaces.msg import GroundingStatus as S
from map2route_interfaces.srv import GroundInstruction
from nav_msgs.msg import OccupancyGrid, Odometry
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
from rclpy.node import Node
from std_msgs.msg import Header, String

from map2route.control.frames import FrameError
from map2route.errors import Map2RouteError
from map2route.grounding import GroundingError, make_grounder
from map2route.ros import convert
from map2route.ros.frames import TfListener
from map2route.ros.params import Param, declare, non_empty, one_of, run_node
from map2route.ros.semantic_map_server import LATCHED

if TYPE_CHECKING:
    from map2route.routeir.model import RouteIR
    from map2route.semantic_map.model import SemanticMap

PARAMS = (
    Param("grounder", str, "grounder name: auto, offline, llm or hybrid",
          one_of("auto", "offline", "llm", "hybrid")),
    Param("frame_id", str, "frame of the RouteIR header", non_empty),
    Param("start_from_odom", bool, "use the latest /odom pose as the route's start"),
    Param("instruction", str, "grounded once when the map (and pose) are in; empty: none"),
)
PARAM_FILE = "grounding_node.yaml"

#: GroundingIssue codes -> GroundingStatus codes (anything else is ERROR).
ISSUE_CODES = {"ambiguous_reference": 3, "not_understood": 4, "no_referent": 4,
               "unknown_category": 4, "unknown_room": 4, "unknown_word": 4,
               "infeasible": 5, "empty_region": 5, "no_route": 5, "unreachable": 5}


@dataclass
class Outcome:
    """What grounding one instruction gave, ready for a GroundingStatus message."""

    code: int
    message: str
    routeir: RouteIR | None = None
    errors: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)


def ground(instruction: str, m: SemanticMap | None, start: tuple[float, float] | None,
           grounder: Any) -> Outcome:
    """Ground ``instruction`` with ``grounder`` (a :mod:`map2route.grounding` grounder).

    Never raises for a user's mistake: every failure becomes an :class:`Outcome` with words.
    """

    if not instruction.strip():
        return Outcome(S.EMPTY_INSTRUCTION, "the instruction is empty; say where to go, e.g. "
                       "'go to the fridge'")
    if m is None:
        return Outcome(S.NO_MAP, "no map yet: start semantic_map_server (or wait for /map and "
                       "/semantic_map)")

    try:
        result = grounder.ground(instruction, m, start)
    except GroundingError as err:
        issues = tuple(getattr(err, "issues", ()))
        code = next((ISSUE_CODES[i.code] for i in issues if i.code in ISSUE_CODES), S.ERROR)
        cands = [c for i in issues for c in i.candidates]
        return Outcome(code, str(err).splitlines()[0], errors=[i.render() for i in issues]
                       or [str(err)], candidates=list(dict.fromkeys(cands)))
    except Map2RouteError as err:
        return Outcome(S.ERROR, str(err).splitlines()[0], errors=[str(err)])
    return Outcome(S.OK, "", routeir=result.routeir)


class GroundingNode(Node):
    """Grounds instructions on the latest map; see the module docstring."""

    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("grounding_node", **node_kwargs)
        self.params = declare(self, PARAMS, PARAM_FILE)


        self.grounder = make_grounder(self.params["grounder"])
        self._grounders: dict[str, Any] = {}
        self.map: SemanticMap | None = None
        self._grid: OccupancyGrid | None = None
        self._layer: Any = None
        self.pose: tuple[float, float] | None = None
        self.routeir_pub = self.create_publisher(RouteIR, "routeir", LATCHED)
        self.status_pub = self.create_publisher(GroundingStatus, "grounding/status", LATCHED)
        inputs = MutuallyExclusiveCallbackGroup()
        self.create_subscription(OccupancyGrid, "map", self._on_grid, LATCHED,
                                 callback_group=inputs)
        self.create_subscription(SemanticLayer, "semantic_map", self._on_layer, LATCHED,
                                 callback_group=inputs)
        self.tf = TfListener(self, callback_group=inputs)
        self.create_subscription(Odometry, "odom", self._on_odom, 10, callback_group=inputs)
        self.create_subscription(String, "instruction", self._on_instruction, 10)
        self.create_service(GroundInstruction, "ground_instruction", self._on_service)
        self._pending = self.params["instruction"].strip()
        if self._pending:
            self._pending_timer = self.create_timer(0.2, self._ground_pending)

    def _ground_pending(self) -> None:
        """Ground the ``instruction`` parameter once the map and the start pose are in."""
        if not self._pending or self.map is None:
            return
        if self.params["start_from_odom"] and self.pose is None:
            return
        instruction, self._pending = self._pending, ""
        self._pending_timer.cancel()
        self._run(instruction, self._start())

    def _on_grid(self, msg: OccupancyGrid) -> None:
        self._grid = msg
        self._rebuild()

    def _on_layer(self, msg: Any) -> None:
        self._layer = msg
        self._rebuild()

    def _rebuild(self) -> None:
        if self._grid is None or self._layer is None:
            return
        try:
            self.map = convert.semantic_map_from_msgs(self._grid, self._layer)
        except Map2RouteError as err:  # wait for the matching message of a map change
            self.get_logger().warn(str(err))

    def _on_odom(self, msg: Odometry) -> None:
        try:
            x, y, _yaw = self.tf.odom_pose(self.params["frame_id"], msg)
        except FrameError as err:
            self.get_logger().warn(f"no start pose yet: {err}", throttle_duration_sec=5.0)
            return
        self.pose = (x, y)

    def _start(self) -> tuple[float, float] | None:
        return self.pose if self.params["start_from_odom"] else None

    def _grounder(self, name: str) -> Any:
        """The configured grounder, or another one by name (made once, then kept)."""

        if not name or name == self.params["grounder"]:
            return self.grounder
        if name not in self._grounders:
            self._grounders[name] = make_grounder(name)
        return self._grounders[name]

    def _run(self, instruction: str, start: tuple[float, float] | None,
             grounder: str = "") -> tuple[Any, Any]:

        try:
            chosen = self._grounder(grounder)
        except Map2RouteError as err:
            out = Outcome(GroundingStatus.ERROR, f"grounder {grounder!r}: {err}", errors=[str(err)])
        else:
            out = ground(instruction, self.map, start, chosen)
        header = Header(frame_id=self.params["frame_id"], stamp=self.get_clock().now().to_msg())
        status = GroundingStatus(header=header, code=out.code, instruction=instruction,
                                 message=out.message, errors=out.errors,
                                 candidates=out.candidates)
        ir_msg = None
        if out.routeir is not None:
            ir_msg = convert.routeir_msg(out.routeir, header, instruction=instruction)
            self.routeir_pub.publish(ir_msg)
            self.get_logger().info(f"grounded {instruction!r}: {len(out.routeir.stages)} "
                                   f"stage(s), {len(out.routeir.constraints)} constraint(s)")
        else:
            self.get_logger().warn(f"cannot ground {instruction!r}: {out.message}")
        self.status_pub.publish(status)
        return status, ir_msg

    def _on_instruction(self, msg: String) -> None:
        self._run(msg.data, self._start())

    def _on_service(self, request: Any, response: Any) -> Any:
        start = self._start() if request.use_current_pose else (request.start.x, request.start.y)
        status, ir_msg = self._run(request.instruction, start, request.grounder)
        response.status = status
        response.success = ir_msg is not None
        if ir_msg is not None:
            response.routeir = ir_msg
        return response


def main(args: list[str] | None = None) -> int:
    return run_node(GroundingNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
