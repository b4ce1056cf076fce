"""Before a run: can the endpoint be reached at all? One quick look, so a wrong URL, a server
that is down or a rejected key is said once, naming the URL, instead of as N failed items."""

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
    try:
        await asyncio.wait_for(client_of().models.list(), timeout=timeout_s)
    except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
        return f"{base_url or 'the OpenAI API'} refused the API key (HTTP {exc.status_code})"
    except openai.APIConnectionError as exc:
        return f"cannot reach {base_url or 'the OpenAI API'}: {type(exc.__cause__ or exc).__name__}: {exc.__cause__ or exc}"
    except (openai.APIStatusError, TimeoutError, ValueError):
        return None
    return None
