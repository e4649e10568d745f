"""The hybrid grounder: the offline parser first, the LLM grounder for what it cannot explain.

The offline grounder refuses an instruction it cannot fully read (a word it would leave out, a
route-order reference, an unknown phrasing: :mod:`map2route.language.parser.coverage`) with
the span it could not read. The hybrid grounder takes such a refusal as the cue to ask the LLM
grounder, telling it which words the parser could not read; the result records which one
answered (``info["answered_by"]``) and, when the LLM answered, the offline refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from map2route.grounding.errors import GroundingError

if TYPE_CHECKING:
    from map2route.grounding.grounder import Grounder, Grounding
    from map2route.semantic_map import SemanticMap


class HybridGrounder:
    """Offline first; the LLM grounder when the offline one refuses.

    Args:
        offline: the offline grounder.
        llm: the LLM grounder, asked only after an offline refusal.
    """

    name = "hybrid"

    def __init__(self, offline: Grounder, llm: Grounder) -> None:
        self.offline = offline
        self.llm = llm

    def ground(self, instruction: str, m: SemanticMap,
               start_xy: tuple[float, float] | None = None) -> Grounding:
        """The offline grounding, or the LLM's when the offline grounder refuses.

        Raises:
            GroundingError: both refused; the message gives both reasons.
        """
        try:
            g = self.offline.ground(instruction, m, start_xy)
        except GroundingError as offline_err:
            try:
                g = self.llm.ground(instruction, m, start_xy)
            except GroundingError as llm_err:
                msg = (f"neither grounder could ground {instruction!r}:\n  offline: "
                       f"{offline_err}\n  llm: {llm_err}")
                raise GroundingError(msg, llm_err.issues) from llm_err
            g.info["answered_by"] = "llm"
            g.info["offline_refusal"] = str(offline_err)
            g.grounder = "hybrid(llm)"
            return g
        g.info["answered_by"] = "offline"
        g.grounder = "hybrid(offline)"
        return g


class AutoGrounder:
    """``grounder: auto`` (the default): the hybrid grounder when an LLM endpoint is
    configured, the offline one otherwise (then an offline refusal is the answer).

    The result records the choice and who answered: ``info["auto"]`` is ``hybrid`` or
    ``offline`` (with ``info["auto_reason"]``), ``info["answered_by"]`` is ``offline`` or
    ``llm``, and ``grounder`` reads ``auto:offline``, ``auto:hybrid(offline)`` or
    ``auto:hybrid(llm)``.

    Args:
        inner: the grounder chosen (a :class:`HybridGrounder` or the offline grounder).
        reason: why it was chosen, for the record.
    """

    name = "auto"

    def __init__(self, inner: Grounder, reason: str) -> None:
        self.inner = inner
        self.reason = reason

    def ground(self, instruction: str, m: SemanticMap,
               start_xy: tuple[float, float] | None = None) -> Grounding:
        """The chosen grounder's grounding, with the choice recorded.

        Raises:
            GroundingError: the chosen grounder refused (the hybrid one: both did).
        """
        g = self.inner.ground(instruction, m, start_xy)
        hybrid = isinstance(self.inner, HybridGrounder)
        g.info["auto"] = "hybrid" if hybrid else "offline"
        g.info["auto_reason"] = self.reason
        g.info.setdefault("answered_by", "offline")
        g.grounder = f"auto:{g.grounder}" if hybrid else "auto:offline"
        return g
