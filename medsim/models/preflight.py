"""Before a run: can the endpoint be reached at all? One quick look, so a wrong URL, a server
that is down, a web page where the API was expected or a rejected key is said once, naming
the URL, instead of as N failed items."""

from __future__ import annotations

import asyncio
from typing import Any


async def endpoint_problem(model: Any, *, timeout_s: float = 10.0) -> str | None:
    """A sentence saying why ``model``'s endpoint cannot serve a run, or None when it can (or
    when the model is not behind an endpoint). Only certain failures count: a server without
    ``/models`` (404) or a slow one is given the benefit of the doubt."""
    client_of = getattr(model, "_client", None)
    base_url = getattr(model, "base_url", None)
    if client_of is None:
        return None
    openai = model._openai
    where = base_url or "the OpenAI API"
    try:
        # The raw JSON, not the SDK's page object: a web UI's HTML must be said, not crash it.
        body = await asyncio.wait_for(client_of().get("/models", cast_to=object), timeout=timeout_s)
    except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
        return f"{where} refused the API key (HTTP {exc.status_code})"
    except openai.APIConnectionError as exc:
        return f"cannot reach {where}: {type(exc.__cause__ or exc).__name__}: {exc.__cause__ or exc}"
    except (openai.APIStatusError, TimeoutError, ValueError):
        return None
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    if isinstance(body, str):
        start = " ".join(body[:120].split())
        kind = "an HTML page" if "<html" in start.lower() or start.lower().startswith("<!doctype") else "text"
        return (f"GET {str(where).rstrip('/')}/models answered {kind}, not the API's JSON: is {where} the API's "
                f"address (often ending in /v1), not a web UI or a proxy's login page? It began: {start!r}")
    return None
