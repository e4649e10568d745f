"""``map2route bench groke-quality``: our scores against human labels, on tiny hand-computed
tables, the join, every error, and one run on a real ``bench groke`` output.

Every label file here is synthetic (made up to exercise the code path): no human labels exist
for data this project may read, so none of these numbers is a result.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from map2route.bench.errors import BenchmarkError
from map2route.bench.groke.quality import (
    PLOT_NAME,
    SUMMARY_NAME,
    compare,
    fisher_ci,
    load_labels,
    load_results,
    roc_auc,
)
from map2route.cli import main
from map2route.paths import shared_dir

HEADER = "index,id,held_out,ne_m,sr,sdtw,quality,official_ne_m,official_sr"


def _quality_csv(folder: Path, rows: list[tuple]) -> Path:
    """A quality.csv of (id, ne_m, quality, official_ne_m, official_sr) rows."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [HEADER] + [f"{k},{i},0,{ne},,,{q},{one},{osr}"
                        for k, (i, ne, q, one, osr) in enumerate(rows)]
    (folder / "quality.csv").write_text("\n".join(lines) + "\n")
    return folder


def _scores(summary: dict) -> dict[str, dict]:
    return {s["score"]: s for s in summary["scores"]}


# Graded (Likert) labels y = [2, 1, 4, 3, 5] on ids 1..5; quality x = [.1, .2, .3, .4, .5].
# Centred: dx = [-2, -1, 0, 1, 2] / 10, dy = [-1, -2, 1, 0, 2]
#   Sxy = (2 + 2 + 0 + 0 + 4) / 10 = 0.8, Sxx = 10 / 100, Syy = 10  ->  r = 0.8 / 1 = 0.8.
# Both are already ranks, so Spearman rho = r = 0.8.
# p: t = r sqrt(n-2) / sqrt(1-r^2) = 0.8 * 1.7321 / 0.6 = 2.3094, two-sided on 3 df -> 0.1041.
# 95 % CI: z = atanh(0.8) = 1.0986, half width 1.95996 / sqrt(5-3) = 1.3859,
#   tanh(1.0986 -+ 1.3859) = [-0.2796, 0.9862].
# Official NE = 100 (1 - x) m is a decreasing function of x: r = -0.8, same CI mirrored.
GRADED = [("1", 90.0, 0.1, 90.0, 0), ("2", 80.0, 0.2, 80.0, 0), ("3", 70.0, 0.3, 70.0, 0),
          ("4", "", 0.4, 60.0, 0), ("5", 50.0, 0.5, 50.0, 0)]


def test_graded_labels_hand_computed(tmp_path: Path) -> None:
    results = load_results(_quality_csv(tmp_path / "run", GRADED))
    (tmp_path / "labels.csv").write_text("id,likert\n1,2\n2,1\n3,4\n4,3\n5,5\n")
    summary = compare(results, load_labels(tmp_path / "labels.csv"))
    assert summary["label_kind"] == "graded" and summary["label_column"] == "likert"
    assert summary["n_joined"] == 5
    s = _scores(summary)
    q = s["quality"]
    assert q["n"] == 5 and "auc" not in q
    assert q["pearson_r"] == pytest.approx(0.8, abs=1e-4)
    assert q["spearman_rho"] == pytest.approx(0.8, abs=1e-4)
    assert q["pearson_p"] == pytest.approx(0.1041, abs=1e-4)
    assert q["ci95"] == pytest.approx([-0.2796, 0.9862], abs=1e-4)
    o = s["official_ne_m"]
    assert o["pearson_r"] == pytest.approx(-0.8, abs=1e-4)
    assert o["ci95"] == pytest.approx([-0.9862, 0.2796], abs=1e-4)
    # Panorama NE is empty for id 4: 4 rows, x = [90, 80, 70, 50], y = [2, 1, 4, 5];
    # dx = [17.5, 7.5, -2.5, -22.5], dy = [-1, -2, 1, 2]: Sxy = -17.5 - 15 - 2.5 - 45 = -80,
    # Sxx = 306.25 + 56.25 + 6.25 + 506.25 = 875, Syy = 10 -> r = -80 / sqrt(8750) = -0.8552.
    assert s["ne_m"]["n"] == 4
    assert s["ne_m"]["pearson_r"] == pytest.approx(-0.8552, abs=1e-4)
    # Official SR is 0 everywhere: no correlation, said so.
    assert s["official_sr"]["pearson_r"] is None and "constant" in s["official_sr"]["note"]
    assert summary["reference"] == {"name": "GROKE paper (its LLM navigator, test)",
                                    "score": "NE", "pearson_r": -0.31}


# Binary labels [1, 1, 0, 0, 1] on quality [.9, .8, .3, .8, .2].
# AUC = P(navigable scores above non-navigable), ties half: positives {.9, .8, .2},
#   negatives {.3, .8}: .9 beats both (2), .8 beats .3 (1) and ties .8 (0.5), .2 beats none
#   -> 3.5 / (3 * 2) = 0.5833.
# Point-biserial = Pearson on 0/1: means 0.6 and 0.6, dq = [.3, .2, -.3, .2, -.4],
#   dl = [.4, .4, -.6, -.6, .4]: Sxy = .12 + .08 + .18 - .12 - .16 = 0.10, Sxx = 0.42,
#   Syy = 1.2 -> r = 0.10 / sqrt(0.504) = 0.1409
#   (= (M1 - M0) / s_pop * sqrt(p q) = (0.6333 - 0.55) / 0.2898 * 0.4899).
# Official NE = 100 (1 - q): r = -0.1409, and its AUC (on -NE) is the same 0.5833.
BINARY = [("11", 10.0, 0.9, 10.0, 1), ("12", 20.0, 0.8, 20.0, 1), ("13", 70.0, 0.3, 70.0, 0),
          ("14", 20.0, 0.8, 20.0, 1), ("15", 80.0, 0.2, 80.0, 0)]


def test_binary_labels_hand_computed(tmp_path: Path) -> None:
    results = load_results(_quality_csv(tmp_path / "run", BINARY) / "quality.csv")
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps({"instructions_id": i, "navigable": v}) + "\n"
                              for i, v in ((11, True), (12, 1), (13, 0), (14, 0), (15, 1))))
    summary = compare(results, load_labels(labels))
    assert summary["label_kind"] == "binary" and summary["id_column"] == "instructions_id"
    s = _scores(summary)
    assert s["quality"]["auc"] == pytest.approx(3.5 / 6, abs=1e-4)
    assert s["quality"]["pearson_r"] == pytest.approx(0.1409, abs=1e-4)
    assert s["official_ne_m"]["pearson_r"] == pytest.approx(-0.1409, abs=1e-4)
    assert s["official_ne_m"]["auc"] == pytest.approx(3.5 / 6, abs=1e-4)
    # Official SR [1, 1, 0, 1, 0] vs [1, 1, 0, 0, 1]: positives {1, 1, 0}, negatives {0, 1}:
    # 1 beats 0 and ties 1 (1.5) twice, 0 ties 0 (0.5) -> 3.5 / 6 again.
    assert s["official_sr"]["auc"] == pytest.approx(3.5 / 6, abs=1e-4)


def test_auc_and_fisher_ci_edges() -> None:
    assert roc_auc([0.1, 0.2, 0.3, 0.4], [0, 0, 1, 1]) == 1.0
    assert roc_auc([0.4, 0.3, 0.2, 0.1], [0, 0, 1, 1]) == 0.0
    assert roc_auc([0.5, 0.5, 0.5, 0.5], [0, 1, 0, 1]) == 0.5
    with pytest.raises(BenchmarkError, match="both labels"):
        roc_auc([0.1, 0.2], [1, 1])
    assert fisher_ci(0.5, 3) is None  # n - 3 = 0: no interval
    assert fisher_ci(1.0, 10) == (1.0, 1.0)


def test_join_reports_unmatched_ids_and_averages_repeated_labels(tmp_path: Path) -> None:
    results = load_results(_quality_csv(tmp_path / "run", GRADED))
    # JSON list; ids 1..3 and 5 match (5 as a float), 4 has no label, 8 and 9 are not ours;
    # id 1 has two annotators (2 and 4 -> 3).
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps([{"id": 1, "label": 2}, {"id": 1, "label": 4},
                                  {"id": "2", "label": 1}, {"id": 3, "label": 4},
                                  {"id": 5.0, "label": 5}, {"id": 8, "label": 1},
                                  {"id": 9, "label": 2}]))
    summary = compare(results, load_labels(labels))
    assert summary["n_joined"] == 4 and summary["labels_averaged"] == 1
    assert summary["unmatched_results"] == {"n": 1, "ids": ["4"]}
    assert summary["unmatched_labels"] == {"n": 2, "ids": ["8", "9"]}
    assert summary["label_rows"] == 7
    assert [r["label"] for r in summary["joined"]] == [3.0, 1.0, 4.0, 5.0]
    # {id: label} JSON and a named column in a CSV with several columns
    (tmp_path / "map.json").write_text(json.dumps({"1": 0, "2": 1, "3": 1}))
    assert load_labels(tmp_path / "map.json").values == {"1": 0.0, "2": 1.0, "3": 1.0}
    (tmp_path / "wide.csv").write_text("annotator,iid,clear,notes\na,1,4,x\nb,2,3,y\n")
    wide = load_labels(tmp_path / "wide.csv", label_column="clear", id_column="iid")
    assert wide.values == {"1": 4.0, "2": 3.0}


def _run(args: list[str], capsys) -> tuple[int, str]:
    rc = main(["bench", "groke-quality", *args])
    return rc, capsys.readouterr().err


def test_errors_exit_1_with_a_message(tmp_path: Path, capsys) -> None:
    run = _quality_csv(tmp_path / "run", GRADED)
    good = tmp_path / "good.csv"
    good.write_text("id,label\n1,1\n2,2\n3,3\n")

    def err(labels_text: str | None, *extra: str, results: Path = run) -> str:
        path = tmp_path / "labels.csv"
        if labels_text is not None:
            path.write_text(labels_text)
        rc, text = _run(["--results", str(results), "--labels", str(path), *extra], capsys)
        assert rc == 1 and text.startswith("Error: ")
        return text

    assert "no quality.csv at" in err(None, results=tmp_path / "nowhere")
    assert "bench groke --out" in err(None, results=tmp_path / "nowhere")
    (tmp_path / "labels.csv").unlink(missing_ok=True)
    assert "labels file" in err(None) and "not found" in err(None)
    assert "no id column" in err("name,label\n1,1\n2,0\n3,1\n")
    assert "--id-column" in err("name,label\n1,1\n2,0\n3,1\n")
    assert "no column 'nav'" in err("id,label\n1,1\n", "--label-column", "nav")
    text = err("id,label\n1,1\n2,yes\n3,1\n")
    assert "'yes', not a number" in text and "id 2" in text
    assert "not a number" in err("id,label\n1,1\n2,\n3,1\n")  # an empty label
    assert "only 2 instruction(s) joined" in err("id,label\n1,1\n2,0\n77,1\n")
    assert "at least 3" in err("id,label\n1,1\n2,0\n77,1\n")
    assert "every joined label is 1" in err("id,label\n1,1\n2,1\n3,1\n")
    assert "not valid JSON" in _run(["--results", str(run), "--labels",
                                     str(_write(tmp_path / "l.json", "[{"))], capsys)[1]
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "quality.csv").write_text("id,score\n1,2\n")
    assert "lacks the column(s)" in err("id,label\n1,1\n", results=bad)
    # the good file passes
    rc, _ = _run(["--results", str(run), "--labels", str(good), "--json"], capsys)
    assert rc == 0


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


REAL = shared_dir() / "data" / "map2seq"
FRESH = Path(__file__).resolve().parents[3] / "episodes" / "groke_fresh_v1.json"


@pytest.mark.skipif(not (REAL / "osm_nodes.txt").is_file(), reason="shared Map2Seq data absent")
def test_end_to_end_on_a_real_groke_run_with_synthetic_labels(tmp_path: Path, capsys,
                                                              monkeypatch) -> None:
    """``bench groke`` on the fresh set v1, then ``bench groke-quality`` with SYNTHETIC labels
    (navigable = official SR, flipped on two ids, plus an id of no run): exercises the path,
    is not a result."""
    monkeypatch.setenv("COLUMNS", "200")  # rich: one line per table row
    out = tmp_path / "groke"
    assert main(["bench", "groke", "--data", str(REAL), "--split", str(FRESH), "--out",
                 str(out), "--json"]) == 0
    capsys.readouterr()
    rows = (out / "quality.csv").read_text().splitlines()[1:]
    ids = [r.split(",")[1] for r in rows]
    sr = {r.split(",")[1]: r.split(",")[8] for r in rows}
    labels = ["id,navigable"] + [f"{i},{1 - int(sr[i]) if k < 2 else sr[i]}"
                                 for k, i in enumerate(ids[:-1])] + ["123456789,1"]
    (tmp_path / "labels.csv").write_text("\n".join(labels) + "\n")
    report = tmp_path / "report"
    assert main(["bench", "groke-quality", "--results", str(out), "--labels",
                 str(tmp_path / "labels.csv"), "--out", str(report)]) == 0
    printed = capsys.readouterr().out
    assert "GROKE paper (its LLM navigator, test)" in printed and "-0.31" in printed
    assert "Pearson r" in printed and "AUC" in printed
    assert f"1 instructions in quality.csv without a label: {ids[-1]}" in printed
    summary = json.loads((report / SUMMARY_NAME).read_text())
    assert summary["n_joined"] == len(ids) - 1 and summary["label_kind"] == "binary"
    assert summary["unmatched_labels"] == {"n": 1, "ids": ["123456789"]}
    s = _scores(summary)
    assert all(math.isfinite(s[c]["pearson_r"]) for c in ("official_ne_m", "quality"))
    assert s["official_sr"]["pearson_r"] > 0  # labels agree with SR on all but two ids
    assert (report / PLOT_NAME).stat().st_size > 1000
