"""ROS 2 nodes of map2route: the only package that imports rclpy.

Each node is a thin wrapper: a callback turns a message into a core type, calls the core
(:mod:`map2route.semantic_map`, :mod:`map2route.grounding`, :mod:`map2route.planning`,
:mod:`map2route.control`, :mod:`map2route.sim`) and turns the result back into a message.
Executables (console scripts): ``semantic_map_server``, ``grounding_node``,
``route_planner_node``, ``path_follower_node``, ``sim_node``.
"""
