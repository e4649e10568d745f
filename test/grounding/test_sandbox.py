"""Escape attempts against the grounding sandbox: each fails with a clear issue, the host survives."""

from __future__ import annotations

import os

import pytest

from map2route.grounding.sandbox import check_program

GOOD = "task([segment(unique(entities('fridge'), 'the fridge'))])\n"

STATIC = [
    ("import_os", "import os\nos.system('id')", "forbidden_syntax"),
    ("from_import", "from subprocess import run", "forbidden_syntax"),
    ("dunder_import", "__import__('os')", "forbidden_name"),
    ("open_file", "open('/etc/passwd').read()", "forbidden_name"),
    ("subclasses_walk", "().__class__.__bases__[0].__subclasses__()", "forbidden_attribute"),
    ("class_of_handle", "entities('chair')[0].__class__", "forbidden_attribute"),
    ("private_attr", "entities('chair')[0]._key", "forbidden_attribute"),
    ("bound_method_self", "entities.__self__", "forbidden_attribute"),
    ("getattr", "getattr(entities, '__self__')", "forbidden_name"),
    ("eval", "eval('1+1')", "forbidden_name"),
    ("exec", "exec('x=1')", "forbidden_name"),
    ("compile", "compile('1', 'x', 'eval')", "forbidden_name"),
    ("globals", "globals()", "forbidden_name"),
    ("format_escape", "'{0.__class__}'.format(1)", "forbidden_attribute"),
    ("format_attr", "f = 'x'.format\n", "forbidden_attribute"),
    ("lambda", "f = lambda: 1", "forbidden_syntax"),
    ("generator_frame", "g = (x for x in [1])\ng.gi_frame", "forbidden_syntax"),
    ("while_loop", "while True:\n    pass", "forbidden_syntax"),
    ("try_block", "try:\n    x = 1\nexcept Exception:\n    pass", "forbidden_syntax"),
    ("class_def", "class A:\n    pass", "forbidden_syntax"),
    ("pow_bomb", "x = 10 ** 10 ** 10", "forbidden_syntax"),
    ("huge_int", "x = 99999999999", "forbidden_constant"),
    ("huge_string", "x = '" + "a" * 500 + "'", "forbidden_constant"),
    ("bytes", "x = b'abc'", "forbidden_constant"),
    ("socket_via_builtins", "__builtins__['__import__']('socket')", "forbidden_name"),
    ("type_builtin", "type(1)", "forbidden_name"),
    ("star_args", "def f(*a):\n    return a", "forbidden_syntax"),
    ("decorator", "@segment\ndef f():\n    pass", "forbidden_syntax"),
    ("global_stmt", "def f():\n    global x\n    x = 1", "forbidden_syntax"),
    ("walrus", "(x := 1)", "forbidden_syntax"),
]


@pytest.mark.parametrize(("source", "code"), [(s, c) for _, s, c in STATIC],
                         ids=[n for n, _, _ in STATIC])
def test_static_escapes_are_rejected_before_running(source, code):
    issues = check_program(source)
    assert issues, source
    assert code in {i.code for i in issues}
    assert all(i.message for i in issues)


def test_good_program_passes_the_whitelist():
    assert check_program(GOOD) == []


RUNTIME = [
    ("memory_bomb", "x = [0] * 100000\ny = x * 100000\n", "memory_limit"),
    ("string_bomb", "s = 'a' * 100000\nt = s * 100000\n", "memory_limit"),
    ("cpu_burn", "x = 0\nfor a in range(10000):\n    for b in range(10000):\n        x = x + 1\n",
     "cpu_limit|wall_timeout"),
    ("recursion_bomb", "def f(n):\n    return f(n + 1)\nf(0)\n", "recursion_limit"),
    ("range_cap", "for i in range(100000):\n    pass\n", "resource_limit"),
    ("name_error", "open_sesame()\n", "runtime_error"),
    ("no_task", "x = entities('chair')\n", "no_task"),
    ("builtins_are_absent", "print('hi')\n", "forbidden_name"),
]


@pytest.mark.parametrize(("source", "code"), [(s, c) for _, s, c in RUNTIME],
                         ids=[n for n, _, _ in RUNTIME])
def test_runtime_escapes_fail_in_the_worker_and_the_host_survives(runner, two_room_map,
                                                                  source, code):
    host_pid = os.getpid()
    result = runner.run(two_room_map, source, (1.0, 1.0))
    assert result.routeir is None
    # on a loaded machine the wall clock may stop a CPU burner before RLIMIT_CPU does
    assert set(code.split("|")) & {i.code for i in result.issues}, result.issues
    assert os.getpid() == host_pid
    again = runner.run(two_room_map, GOOD, (1.0, 1.0))
    assert again.ok, again.issues


def test_worker_is_a_separate_process_without_file_access(runner, two_room_map, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read")
    result = runner.run(two_room_map, f"x = open({str(secret)!r})\n", None)
    assert result.issues and result.routeir is None
    runner.run(two_room_map, GOOD, None)
    assert runner.pid is not None and runner.pid != os.getpid()


def test_wall_timeout_stops_a_sleeping_worker(two_room_map):
    from map2route.grounding.sandbox import SandboxRunner

    # a CPU limit above the wall limit: the wall clock must stop it
    with SandboxRunner(cpu_s=30.0, wall_s=0.5) as r:
        src = "x = 0\nfor a in range(10000):\n    for b in range(10000):\n        x = x + 1\n"
        result = r.run(two_room_map, src, None)
        assert [i.code for i in result.issues] == ["wall_timeout"]
        assert r.run(two_room_map, GOOD, None).ok
