"""Turn an exception a user can cause into (message, hint) for the terminal."""

from __future__ import annotations


def describe(exc: BaseException) -> tuple[str, str | None]:
    name = type(exc).__name__
    if name == "UnknownName":
        hints = {"scenario": "`medsim list` shows the bundled scenarios",
                 "case": "`medsim show SCENARIO` shows a scenario's cases"}
        return str(exc), hints.get(getattr(exc, "kind", ""))
    if name == "ScenarioInvalid":
        return str(exc), "fix the lines above, then run `medsim validate FILE`"
    if name in {"ConfigError", "BackendUnavailable", "StoreError"}:
        return str(exc), getattr(exc, "hint", None)
    if isinstance(exc, FileNotFoundError):
        return f"file not found: {exc.filename or exc}", None
    if isinstance(exc, PermissionError):
        return f"permission denied: {exc.filename or exc}", None
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text: {exc}", "save the file as UTF-8"
    return (f"internal error ({name}): {exc}",
            "this is a bug in medsim; rerun with MEDSIM_DEBUG=1 for the traceback and report it")
