"""Where a long command's chunks of work run: a local process pool or a Ray cluster.

Every long command (the benchmarks, their sweeps and ablation grids, the NeSy-Route generator
and evaluator) splits its items (episodes, samples, grid points) into chunks and hands them to
one :class:`Executor`::

    executor.map_chunks(fn, chunks, init=init, initargs=args, on_result=record)

- ``fn(chunk)`` runs in a worker and returns the chunk's result (a list of rows);
- ``init(*initargs)`` runs once per worker process before its first chunk (load the method,
  open the scene cache), so scenes and maps are read once per worker, not once per chunk;
- ``on_result(result)`` runs in the driver, in completion order, as each chunk finishes: the
  benchmark appends the rows to its :class:`~map2route.execution.results.ResultsFile` and advances
  its progress bar there. A run killed mid-way has every finished chunk on disk and resumes
  on either executor.

``with executor:`` around several runs (a sweep) keeps what they share: Ray's connection to
the cluster is made once instead of once per run.

:class:`LocalExecutor` is the process pool every benchmark used before (``workers <= 1`` runs
in this process). :class:`RayExecutor` ships chunks as Ray tasks:

- a worker process keeps what ``init`` loaded for as long as Ray keeps the process (its
  scene cache), and runs ``init`` again only for another run's arguments;
- a task runs in the driver's working directory when that folder exists on its node (always
  on this machine; on a cluster with a shared file system mounted at the same path), so
  relative paths in a command's arguments mean the same on every worker;
- at most ``max_in_flight`` tasks are submitted at once: a cluster-wide bound on concurrent
  work, which for LLM-bound work is the bound on concurrent API calls (each task calls the
  API sequentially). A command passes its own default (``map_chunks(in_flight=...)``, e.g. an
  LLM config's ``concurrency``); ``--max-in-flight`` overrides it;
- a task whose worker or node dies is retried elsewhere by Ray (``max_retries``), so nothing
  is lost; an exception raised by ``fn`` itself is not retried (it is a bug, and it stops the
  run as it does locally; a :class:`~map2route.errors.Map2RouteError` is raised in the driver
  as itself, e.g. an LLM endpoint that fails);
- an unreachable cluster is a :class:`~map2route.execution.errors.ExecutionError` after a bounded
  TCP check (``ray.init`` itself waits for minutes on a wrong address).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import socket
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Protocol, TypeVar

from map2route.errors import Map2RouteError
from map2route.execution.errors import ExecutionError

C = TypeVar("C")
R = TypeVar("R")

#: The executors ``--executor`` accepts.
EXECUTORS = ("local", "ray")
#: Seconds the Ray executor waits for a TCP connection to the cluster's head.
CONNECT_TIMEOUT_S = 10.0


def _no_init() -> None:
    """The default ``init``: nothing to prepare."""


class Executor(Protocol):
    """Runs ``fn`` over chunks in workers prepared by ``init``; results come back as they finish."""

    name: str

    def map_chunks(self, fn: Callable[[C], R], chunks: Sequence[C], *,
                   init: Callable[..., None] = _no_init, initargs: tuple[Any, ...] = (),
                   on_result: Callable[[R], None], in_flight: int | None = None) -> None:
        """Run ``fn(chunk)`` for every chunk and call ``on_result`` with each result.

        ``fn`` and ``init`` are module-level functions (workers import them by name).
        ``in_flight`` bounds the chunks running at once for this call (the local pool uses at
        most that many processes; Ray submits at most that many tasks unless the executor's
        own ``max_in_flight`` says otherwise).
        """
        ...

    def __enter__(self) -> Executor:
        """Hold what several runs share (Ray: the cluster connection) until ``__exit__``."""
        ...

    def __exit__(self, *exc: object) -> None:
        ...


class LocalExecutor:
    """A process pool on this machine (``spawn`` start method); one worker runs in-process.

    Attributes:
        workers: processes (``<= 1``: no pool, ``init`` and the chunks run here).
        start_method: the multiprocessing start method (``spawn``: the progress bar runs a
            thread, and forking a threaded process can hang).
    """

    name = "local"

    def __init__(self, workers: int = 2, *, start_method: str = "spawn") -> None:
        self.workers = workers
        self.start_method = start_method

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map_chunks(self, fn: Callable[[C], R], chunks: Sequence[C], *,
                   init: Callable[..., None] = _no_init, initargs: tuple[Any, ...] = (),
                   on_result: Callable[[R], None], in_flight: int | None = None) -> None:
        if not chunks:
            return
        if self.workers <= 1:
            init(*initargs)
            for chunk in chunks:
                on_result(fn(chunk))
            return
        ctx = mp.get_context(self.start_method)
        with ProcessPoolExecutor(max_workers=min(self.workers, in_flight or self.workers,
                                                 len(chunks)), mp_context=ctx,
                                 initializer=init, initargs=initargs) as pool:
            futures = [pool.submit(fn, c) for c in chunks]
            for fut in as_completed(futures):
                on_result(fut.result())


# --- Ray -------------------------------------------------------------------------------------
#: In a Ray worker process: the token of the run whose ``init`` last ran here.
_PREPARED: dict[str, str] = {}


def _ray_task(token: str, cwd: str, init: Callable[..., None], initargs: tuple[Any, ...],
              fn: Callable[[C], R], chunk: C) -> R:
    """One chunk in a Ray worker; ``init`` runs once per worker process and run (``token``).

    The task runs in the driver's folder ``cwd`` when this node has it (relative paths in
    the run's arguments resolve as in the driver).
    """
    if os.path.isdir(cwd) and os.getcwd() != cwd:
        os.chdir(cwd)
    if _PREPARED.get("token") != token:
        init(*initargs)
        _PREPARED["token"] = token
    return fn(chunk)


def _head_host_port(address: str) -> tuple[str, int] | None:
    """``host:port`` of a cluster address, ``None`` for ``auto``/``local``/``ray://``."""
    if address in ("auto", "local") or "://" in address:
        return None
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        msg = f"Ray address {address!r} is not HOST:PORT (e.g. 10.0.0.5:6379), 'auto' or ray://..."
        raise ExecutionError(msg)
    return host or "127.0.0.1", int(port)


def check_reachable(address: str, *, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
    """Raise :class:`ExecutionError` unless a TCP connection to the head at ``address`` opens.

    Raises:
        ExecutionError: the address is malformed or nothing answers within ``timeout_s``.
    """
    hp = _head_host_port(address)
    if hp is None:
        return
    try:
        with socket.create_connection(hp, timeout=timeout_s):
            pass
    except OSError as err:
        msg = (f"cannot reach the Ray cluster at {address} ({err.strerror or err}); start its "
               "head with `ray start --head --port 6379` or check --address")
        raise ExecutionError(msg) from err


class RayExecutor:
    """Chunks as Ray tasks on a cluster (``address``) or a Ray started for this run (``None``).

    Attributes:
        address: the head's ``HOST:PORT``, ``auto`` (``RAY_ADDRESS`` or a running local
            cluster), ``ray://HOST:10001`` (Ray client), or ``None``: start Ray here.
        max_in_flight: most tasks submitted at once (``None``: the command's own bound, else
            the cluster's CPU count).
        max_retries: times a task is rerun after its worker or node died.
        num_cpus: CPUs a local Ray started for this run may use (``address=None`` only).
    """

    name = "ray"

    def __init__(self, address: str | None = None, *, max_in_flight: int | None = None,
                 max_retries: int = 3, num_cpus: int | None = None) -> None:
        self.address = address
        self.max_in_flight = max_in_flight
        self.max_retries = max_retries
        self.num_cpus = num_cpus
        self._held: Any = None  # the ray module while `with executor:` holds the connection

    def __enter__(self) -> RayExecutor:
        """Join the cluster once for several runs (a sweep); left at ``__exit__``."""
        if self._held is None:
            ray, owned = self._connect()
            self._held = ray if owned else False
        return self

    def __exit__(self, *exc: object) -> None:
        if self._held:
            self._held.shutdown()
        self._held = None

    def _connect(self) -> tuple[Any, bool]:
        """The ``ray`` module, connected; and whether this call connected it (and must close)."""
        try:
            # Optional heavy dependency (the `ray` extra): imported only when Ray is chosen.
            import ray  # noqa: PLC0415
        except ImportError as err:
            msg = "--executor ray needs Ray: pip install 'map2route[ray]' (or 'ray>=2.9')"
            raise ExecutionError(msg) from err
        if ray.is_initialized():
            return ray, False
        if self.address is not None:
            check_reachable(self.address)
        # Workers import map2route from the same place as this driver when they run here.
        path = [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        env = {"PYTHONPATH": os.pathsep.join(path)} if path else {}
        try:
            # "local": a new cluster for this run, never one a stale /tmp/ray file points at.
            ray.init(address=self.address or "local",
                     num_cpus=self.num_cpus if self.address is None else None,
                     include_dashboard=False, log_to_driver=False,
                     configure_logging=False, runtime_env={"env_vars": env} if env else None)
        except (ConnectionError, RuntimeError, ValueError) as err:
            msg = f"cannot start or join Ray at {self.address or 'a new local cluster'}: {err}"
            raise ExecutionError(msg) from err
        return ray, True

    def map_chunks(self, fn: Callable[[C], R], chunks: Sequence[C], *,
                   init: Callable[..., None] = _no_init, initargs: tuple[Any, ...] = (),
                   on_result: Callable[[R], None], in_flight: int | None = None) -> None:
        if not chunks:
            return
        ray, owned = self._connect()
        try:
            limit = (self.max_in_flight or in_flight
                     or max(1, int(ray.cluster_resources().get("CPU", 1))))
            cwd = os.getcwd()
            task = ray.remote(max_retries=self.max_retries, retry_exceptions=False)(_ray_task)
            token = uuid.uuid4().hex
            args_ref = ray.put(initargs)  # shipped once to the object store, not per task
            pending = list(chunks)
            pending.reverse()
            running: list[Any] = []
            while pending or running:
                while pending and len(running) < limit:
                    running.append(task.remote(token, cwd, init, args_ref, fn, pending.pop()))
                ready, running = ray.wait(running, num_returns=1)
                for ref in ready:
                    on_result(_get(ray, ref))
        finally:
            if owned:
                ray.shutdown()


def _get(ray: Any, ref: Any) -> Any:
    """A task's result; a domain error it raised comes back as itself (one clean line)."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as err:
        cause = getattr(err, "cause", None)
        if isinstance(cause, Map2RouteError):
            raise cause from None
        raise


def make_executor(name: str, *, workers: int = 2, address: str | None = None,
                  max_in_flight: int | None = None, start_method: str = "spawn") -> Executor:
    """The executor ``--executor NAME`` names.

    Args:
        workers: processes of the local pool (the Ray executor uses the cluster's CPUs).
        start_method: the local pool's multiprocessing start method.
        address: the Ray cluster (``--address``); only with ``ray``.
        max_in_flight: the Ray executor's bound on tasks at once (``--max-in-flight``).

    Raises:
        ExecutionError: an unknown name, ``--address`` with the local executor, or a Ray
            address nothing answers at.
    """
    if name == "local":
        if address is not None:
            raise ExecutionError("--address names a Ray cluster; add --executor ray")
        return LocalExecutor(workers, start_method=start_method)
    if name == "ray":
        if address is not None:
            check_reachable(address)  # before any work: a wrong address fails in seconds
        return RayExecutor(address, max_in_flight=max_in_flight)
    msg = f"unknown executor {name!r}; choose one of {', '.join(EXECUTORS)}"
    raise ExecutionError(msg)


def chunked(items: Sequence[C], size: int) -> list[list[C]]:
    """``items`` in consecutive chunks of ``size`` (the last one shorter)."""
    return [list(items[i:i + size]) for i in range(0, len(items), max(1, size))]
