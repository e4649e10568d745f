"""``nesy eval --agent llm``: run the LLM agent and say what it cost (helpers of the command)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click


def _announce(est: dict[str, Any]) -> None:
    click.echo(f"Estimate for {est['queries']} samples: {est['calls_low']}-{est['calls_high']} "
               f"calls, ~{est['prompt_tokens_low']:,}-{est['prompt_tokens_high']:,} prompt and "
               f"up to {est['completion_tokens_high']:,} completion tokens, "
               f"${est['cost_low_usd']:.2f}-${est['cost_high_usd']:.2f} (cached calls are free; "
               "tokens estimated at 4 characters each)", err=True)


def run_llm_agent(data: Path, task: int, config: str | None, out_dir: Path | None,
                  pred: Path | None, limit: int | None, *, quiet: bool
                  ) -> tuple[Path, dict[str, Any]]:
    """Answer Task ``task`` with the LLM agent; the predictions file and the run's totals.

    Raises:
        NesyError: no sample was answered (nothing to score), naming the transcripts.
    """
    from map2route.bench.nesy.llm_agent import NesyLLMAgent, run_agent, totals
    from map2route.nesy.errors import NesyError

    agent = NesyLLMAgent(config)
    out = out_dir or Path("out/bench/nesy") / f"llm-task{task}"
    run = run_agent(agent, data, task, out, pred=pred, limit=limit, progress=not quiet,
                    announce=_announce)
    result = totals(run.rows)
    result["out"] = str(out)
    scorable = [r for r in run.rows if r["prediction"].get("success", True) is not False]
    if not scorable:
        first = run.rows[0].get("error") if run.rows else None
        msg = (f"the LLM agent ({agent.model}) answered none of the {len(run.rows)} samples, so "
               f"there is nothing to score (first: {first}); the replies are in "
               f"{out / 'transcripts'}")
        raise NesyError(msg)
    return run.predictions, result


def print_llm_totals(t: dict[str, Any]) -> None:
    """The run's LLM line: calls, cache hits, tokens, cost, latency, outcomes."""
    click.echo(f"LLM {t['model']}: {t['llm_calls']} calls ({t['cache_hits']} from the cache), "
               f"{t['prompt_tokens']} prompt + {t['completion_tokens']} completion tokens, cost "
               f"${t['cost_usd']:.4f} (spent this run ${t['spent_usd']:.4f}), LLM latency "
               f"{t['llm_latency_s']:.1f} s; transcripts in {Path(t['out']) / 'transcripts'}")
    if t["refused"]:
        click.echo(f"{t['refused']} samples refused after the repair rounds (Task 1/2: written "
                   "with success false, which the official scorer skips, so they are not scored; "
                   "Task 3: an empty trajectory, non-adherent)")
    if t["planning_failed"]:
        click.echo(f"{t['planning_failed']} samples had vectors our A* could not route with "
                   "(empty trajectory, non-adherent)")
