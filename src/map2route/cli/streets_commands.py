"""``map2route bench groke`` and ``map2route streets ...``: street-graph following (GROKE)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from map2route.cli.app import app, bench
from map2route.execution.options import executor_options


def _default_data() -> Path:
    from map2route.paths import shared_dir

    return shared_dir() / "data" / "map2seq"


@bench.command("groke")
@click.option("--data", type=click.Path(path_type=Path), default=None,
              help="Map2Seq/Touchdown folder (default: shared/data/map2seq).")
@click.option("--split", default="val", show_default=True,
              help="Split file stem in --data, or a .json instruction file on the same graph "
              "(e.g. episodes/groke_fresh_v1.json).")
@click.option("--agent", type=click.Choice(["heuristic", "heuristic-oracle-length", "offline",
                                            "llm"]), default="offline", show_default=True,
              help="Follower agent (heuristic-oracle-length is told the reference length, "
              "as GROKE's baseline).")
@click.option("--scoring", type=click.Choice(["official", "panorama"]), default="official",
              show_default=True, help="official: GROKE's path handling on the OSM street-node "
              "graph (for tables next to the paper); panorama: the walked panorama path.")
@click.option("--part", type=click.Choice(["all", "dev", "unread"]), default="all",
              show_default=True, help="Part of the seeded-hash split of the instances to run.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Only the first N instructions.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("out/groke"),
              show_default=True, help="Folder for results.jsonl, quality.csv, summary.json, "
              "ne_hist.png.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--config", "llm_config_path", type=click.Path(dir_okay=False, exists=True,
                                                             path_type=Path), default=None,
              help="Agent llm: YAML with the llm: and navigator: blocks "
              "(config/groke_llm.yaml).")
@click.option("--llm-url", default=None, help="OpenAI-compatible base URL (agent llm; "
              "overrides the config's).")
@click.option("--llm-model", default=None, help="Model name (agent llm; overrides the config's).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Local processes (1: this process).")
@executor_options
def groke(data: Path | None, split: str, agent: str, scoring: str, part: str,
          limit: int | None, out: Path, as_json: bool, llm_config_path: Path | None,
          llm_url: str | None, llm_model: str | None, workers: int, executor: str,
          address: str | None, max_in_flight: int | None) -> None:
    """Follow Map2Seq instructions on the street graph; score them (NE, SR, OSR, nDTW, SDTW)."""
    from rich.console import Console
    from rich.table import Table

    from map2route.bench.groke.llm import GrokeLLMConfig
    from map2route.bench.groke.run import run_bench, write_outputs
    from map2route.execution.executors import make_executor

    llm = None
    if agent == "llm":
        llm = GrokeLLMConfig.load(llm_config_path, base_url=llm_url, model=llm_model)
    report = run_bench(data or _default_data(), split=split, agent_name=agent, limit=limit,
                       llm=llm, on_estimate=_print_llm_estimate, show_progress=not as_json,
                       scoring=scoring, part=part,
                       executor=make_executor(executor, workers=workers, address=address,
                                              max_in_flight=max_in_flight))
    written = write_outputs(report, out)
    summary = report.summary()
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    table = Table(title=f"GROKE {agent} on {split}, {scoring} scoring ({summary['seconds']:.1f} s)",
                  caption=f"scored on: {summary['scored_on']}")
    cols = [("part", ""), ("n", "n"), ("NE m", "ne_m"), ("SR %", "sr"), ("OSR %", "osr"),
            ("nDTW", "ndtw"), ("SDTW", "sdtw")]
    if scoring == "panorama":
        cols += [("acc50", "acc_50"), ("acc100", "acc_100"), ("acc150", "acc_150")]
    else:
        cols += [("wrong", "completely_wrong")]
    for name, _ in cols:
        table.add_column(name, justify="right")
    for name in ("all", "dev", "unread"):
        row = summary[name]
        if not row["n"]:
            continue
        cells = [name]
        for _, key in cols[1:]:
            v = row.get(key, 0.0)
            if key not in row:
                cells.append("-")
            elif key in ("n", "completely_wrong"):
                cells.append(str(int(v)))
            elif key in ("sr", "osr", "acc_50", "acc_100", "acc_150"):
                cells.append(f"{100 * v:.1f}")
            elif key == "ne_m":
                cells.append(f"{v:.1f}")
            else:
                cells.append(f"{v:.3f}")
        table.add_row(*cells)
    console = Console()
    console.print(table)
    if summary["errors"]:
        console.print(f"[yellow]{summary['errors']} instructions failed; see results.jsonl")
    if agent == "llm":
        u = summary["llm_usage"]
        console.print(f"LLM {u.get('model', '')}: {u.get('llm_calls', 0)} calls "
                      f"({u.get('cache_hits', 0)} from the cache), {u.get('prompt_tokens', 0)} "
                      f"prompt + {u.get('completion_tokens', 0)} completion tokens, cost "
                      f"${u.get('cost_usd', 0):.4f} (spent this run ${u.get('spent_usd', 0):.4f}),"
                      f" LLM latency {u.get('llm_latency_s', 0):.1f} s")
    console.print("wrote " + ", ".join(str(p) for p in written))


@bench.command("groke-quality")
@click.option("--results", "results_path", type=click.Path(path_type=Path), required=True,
              help="Output folder of `map2route bench groke` (or its quality.csv).")
@click.option("--labels", "labels_path", type=click.Path(path_type=Path), required=True,
              help="Human labels: CSV/TSV, JSON or JSONL with an instruction id and a numeric "
              "label (navigable 0/1, or a Likert score).")
@click.option("--label-column", default=None,
              help="Label column (default: label, navigable, navigability, ... or the only "
              "non-id column).")
@click.option("--id-column", default=None,
              help="Id column (default: id, instructions_id, instruction_id or instance_id).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Folder for human_labels.json and human_labels.png (default: the results "
              "folder).")
def groke_quality(results_path: Path, labels_path: Path, label_column: str | None,
                  id_column: str | None, as_json: bool, out: Path | None) -> None:
    """Correlate our instruction-quality scores (quality.csv) with human navigability labels."""
    from rich.console import Console
    from rich.table import Table

    from map2route.bench.groke.quality import run_label_comparison

    summary, written = run_label_comparison(results_path, labels_path,
                                            label_column=label_column, id_column=id_column,
                                            out=out)
    if as_json:
        click.echo(json.dumps({k: v for k, v in summary.items() if k != "joined"}, indent=2))
        return
    binary = summary["label_kind"] == "binary"
    table = Table(title=f"Our scores (quality = exp(-NE/100 m)) vs human labels ({summary['label_column']!r}, "
                  f"{summary['label_kind']}; {summary['n_joined']} instructions joined)",
                  caption="label read as higher = more navigable: NE should correlate "
                  "negatively, quality and SR positively" + (
                      "; AUC on -NE for NE; point-biserial r = Pearson r" if binary else ""))
    for name in ["score", "n", "Pearson r", "p", "95 % CI", "Spearman rho"] + (
            ["AUC"] if binary else []):
        table.add_column(name, justify="left" if name == "score" else "right",
                         no_wrap=name != "score")

    def fmt(v: float | None, spec: str = "+.3f") -> str:
        return "-" if v is None else format(v, spec)

    for s in summary["scores"]:
        ci = s["ci95"]
        cells = [s["name"], str(s["n"]), fmt(s["pearson_r"]), fmt(s["pearson_p"], ".3g"),
                 "-" if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]",
                 fmt(s["spearman_rho"])]
        if binary:
            cells.append(fmt(s["auc"], ".3f"))
        table.add_row(*cells)
    ref = summary["reference"]
    table.add_row(ref["name"], "-", f"{ref['pearson_r']:+.2f} ({ref['score']})", "", "", "",
                  *([""] if binary else []), style="dim")
    console = Console()
    console.print(table)
    for side, what in (("unmatched_results", "in quality.csv without a label"),
                       ("unmatched_labels", "labelled but not in quality.csv")):
        u = summary[side]
        if u["n"]:
            more = ", ..." if u["n"] > len(u["ids"]) else ""
            console.print(f"{u['n']} instructions {what}: {', '.join(u['ids'])}{more}")
    if summary["labels_averaged"]:
        console.print(f"{summary['labels_averaged']} ids had several labels: averaged")
    console.print("wrote " + ", ".join(str(p) for p in written))


def _print_llm_estimate(e: dict[str, object]) -> None:
    """The calls, tokens and cost an LLM run may take, on stderr before it starts."""
    click.echo(f"estimate for {e['instances']} instructions on {e['model']}: ~{e['calls']} "
               f"calls, ~{e['prompt_tokens']} prompt + ~{e['completion_tokens']} completion "
               f"tokens, ~${e['cost_usd']} (before cache hits; 4 characters a token)", err=True)


@app.group()
def streets() -> None:
    """Street graphs: load Touchdown/Map2Seq or OSM extracts, export, follow one instruction."""


@streets.command("export")
@click.option("--data", type=click.Path(path_type=Path), default=None,
              help="Map2Seq/Touchdown folder (default: shared/data/map2seq).")
@click.option("--osm", type=click.Path(path_type=Path), default=None,
              help="Load this .osm.pbf extract instead (needs map2route[streets]).")
@click.option("--network", default="walking", show_default=True,
              help="pyrosm network type for --osm.")
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="Output Nav2 Route Server GeoJSON file.")
def export(data: Path | None, osm: Path | None, network: str, out: Path) -> None:
    """Export a street graph as Nav2 Route Server GeoJSON."""
    from map2route.streets.geojson import write_nav2_geojson
    from map2route.streets.loaders import load_osm_pbf, load_touchdown

    graph = (load_osm_pbf(osm, network_type=network) if osm is not None
             else load_touchdown(data or _default_data()))
    write_nav2_geojson(graph, out)
    s = graph.summary()
    click.echo(f"wrote {out}: {s['nodes']} nodes, {s['links']} edges, "
               f"{s['intersections']} intersections, {s['attached_pois']} POIs attached")


@streets.command("follow")
@click.argument("instruction")
@click.option("--data", type=click.Path(path_type=Path), default=None,
              help="Map2Seq/Touchdown folder (default: shared/data/map2seq).")
@click.option("--start", required=True, help="Start node id (a panorama id).")
@click.option("--heading", type=float, required=True, help="Initial heading (deg from north).")
@click.option("--agent", type=click.Choice(["heuristic", "offline"]), default="offline",
              show_default=True)
@click.option("--view", "show_view", is_flag=True, help="Print the first local view as JSON.")
def follow_cmd(instruction: str, data: Path | None, start: str, heading: float, agent: str,
               show_view: bool) -> None:
    """Follow one INSTRUCTION from --start facing --heading; print sub-goals and the path."""
    from map2route.bench.registry import make_agent
    from map2route.streets.loaders import load_touchdown
    from map2route.streets.navigator import follow
    from map2route.streets.view import build_view

    graph = load_touchdown(data or _default_data())
    node = graph.node(start)
    if show_view:
        click.echo(build_view(graph, node, heading).to_json(graph))
    result = follow(graph, instruction, node, heading, make_agent(agent))
    for g in result.subgoals:
        click.echo(g.describe())
    click.echo(json.dumps(result.to_dict(graph)))
