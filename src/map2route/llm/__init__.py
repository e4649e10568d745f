"""A small client for OpenAI-compatible chat-completions endpoints (vLLM, Ollama, llama.cpp, hosted)."""

from __future__ import annotations

from map2route.llm.client import ChatClient, LLMConfig
from map2route.llm.errors import LLMError

__all__ = ["ChatClient", "LLMConfig", "LLMError"]
