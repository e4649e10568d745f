"""config/grounding.yaml as a typed GroundingConfig: overlay of a user file, every problem named."""

from __future__ import annotations

import pytest

from map2route.grounding import GroundingError, load_config
from map2route.grounding.grounder import OfflineGrounder, make_grounder


def test_the_shipped_file_is_the_defaults() -> None:
    cfg = load_config()
    # the default is auto (issue 19): hybrid where an LLM endpoint is configured, else offline
    assert (cfg.grounder, cfg.repair_rounds, cfg.offline.executor) == ("auto", 3, "inprocess")
    assert (cfg.sandbox.cpu_s, cfg.sandbox.wall_s, cfg.sandbox.memory_mb) == (2.0, 5.0, 512)
    assert cfg.llm.client.model == cfg.llm.model and cfg.llm.max_tokens == 1200
    g = make_grounder("offline", config=cfg)
    assert isinstance(g, OfflineGrounder) and g.rounds == 3 and g.executor.mode == "inprocess"


def test_a_user_file_changes_only_its_keys(tmp_path) -> None:
    user = tmp_path / "g.yaml"
    user.write_text("repair_rounds: 1\nsandbox: {cpu_s: 0.5}\n")
    cfg = load_config(user)
    assert cfg.repair_rounds == 1 and cfg.sandbox.cpu_s == 0.5 and cfg.sandbox.wall_s == 5.0


def test_a_bad_file_names_every_problem(tmp_path) -> None:
    user = tmp_path / "g.yaml"
    user.write_text("grounder: magic\nrepair_round: 2\nsandbox: {cpu_s: fast}\n")
    with pytest.raises(GroundingError) as info:
        load_config(user)
    msg = str(info.value)
    assert "'cpu_s' must be a number, got 'fast'" in msg
    user.write_text("grounder: magic\nrepair_round: 2\n")
    with pytest.raises(GroundingError) as info:
        load_config(user)
    msg = str(info.value)
    assert "unknown key 'repair_round' (did you mean 'repair_rounds'?)" in msg
    user.write_text("grounder: magic\n")
    with pytest.raises(GroundingError, match="grounder must be one of"):
        load_config(user)
    user.write_text("grounder: [\n")
    with pytest.raises(GroundingError, match="is not valid YAML: line 2"):
        load_config(user)
