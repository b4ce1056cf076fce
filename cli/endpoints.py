"""One quick look at every endpoint a command is about to call, before it starts: a wrong URL or a
server that is down is said once, naming the URL, instead of after minutes of retries."""

from __future__ import annotations

import asyncio
from typing import Any

ENDPOINT_HINT = ("check that the server is up and answering (`curl BASE_URL/models`); a slow or busy server (llama.cpp "
                 "on a CPU, or other clients in its queue) may need a longer `first_byte_timeout_s` (a long prompt), "
                 "`idle_timeout_s` or `timeout_s` in its models.yaml entry")


def check_endpoints(models: list[tuple[str, Any]]) -> None:
    """Raise ConfigError naming each (role, model) whose endpoint certainly cannot serve; offline
    models (no endpoint) pass."""
    from medsim.models.config import ConfigError
    from medsim.models.preflight import endpoint_problem

    async def look() -> list[str]:
        problems = []
        for role, model in models:
            problem = await endpoint_problem(model)
            if problem:
                problems.append(f"{role} model {getattr(model, 'name', '')}: {problem}")
            close = getattr(model, "aclose", None)
            if close:
                await close()  # its HTTP client belongs to this short-lived event loop
        return problems

    problems = asyncio.run(look())
    if problems:
        raise ConfigError("; ".join(problems) + ". Check --base-url / models.yaml, that the server is up, "
                          "and the API key variable.")


def service_models(config, services) -> list[tuple[str, Any]]:
    """The models a run's services will call: the clinician, each judge, an LLM patient."""
    judges = services.judge if isinstance(services.judge, list) else [services.judge]
    models = [("clinician", services.clinician), *(("judge", j) for j in judges if j is not None)]
    if config.patient.startswith("llm:") and services.resolver:
        models.append(("patient", services.resolver(config.patient.split(":", 1)[1])))
    return models
