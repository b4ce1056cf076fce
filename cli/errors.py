"""Turn an exception a user can cause into (message, hint) for the terminal.

The user's environment is named, not blamed on medsim: a full disk, a read-only place, a
file that is not UTF-8, a damaged database. "This is a bug in medsim" is kept for what is.
"""

from __future__ import annotations

import errno
import re
import sqlite3

_OS_HINTS = {
    errno.ENOSPC: ("no space left on the device", "free some space, or write elsewhere (--db / --out)"),
    errno.EDQUOT: ("disk quota exceeded", "free some space, or write elsewhere (--db / --out)"),
    errno.EROFS: ("read-only file system", "write to a writable place (--db / --out)"),
    errno.EACCES: ("permission denied", "check the file's permissions, or use another path"),
    errno.EPERM: ("permission denied", "check the file's permissions, or use another path"),
    errno.ENOENT: ("no such file or directory", "check the path"),
    errno.EISDIR: ("is a folder, not a file", "give a file path"),
}


UTF8_HINT = "save it as UTF-8 (GBK/GB18030 files: `iconv -f GB18030 -t UTF-8 FILE > NEW`)"


def not_utf8(where: object, exc: UnicodeDecodeError) -> str:
    """``FILE:LINE:COL: byte 0x.. is not UTF-8``: where the first bad byte is, as editors jump to it."""
    raw = exc.object
    line = raw.count(b"\n", 0, exc.start) + 1
    col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
    return f"{where}:{line}:{col}: byte 0x{raw[exc.start]:02x} is not UTF-8"


def describe(exc: BaseException) -> tuple[str, str | None]:
    name = type(exc).__name__
    if name == "UnknownName":
        hints = {"scenario": "`medsim list` shows the bundled scenarios",
                 "case": "`medsim show SCENARIO` shows a scenario's cases"}
        given = re.match(r"unknown scenario '(.+?)'", str(exc))
        if given and (given.group(1).endswith((".yaml", ".yml")) or "/" in given.group(1)):
            # a path, not an id: say the file is missing rather than list the bundled ids
            return f"scenario file not found: {given.group(1)}", "check the path (or give a bundled id: `medsim list`)"
        return str(exc), hints.get(getattr(exc, "kind", ""))
    if name == "ScenarioInvalid":
        return str(exc), "fix the lines above, then run `medsim validate FILE`"
    if name in {"ConfigError", "BackendUnavailable", "StoreError", "RunStopped", "ImportFailed"}:
        return str(exc), getattr(exc, "hint", None)
    if isinstance(exc, UnicodeDecodeError):
        return (f"a file is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at byte {exc.start})",
                "save it as UTF-8 (GBK/GB18030 files: `iconv -f GB18030 -t UTF-8 FILE > NEW`)")
    if isinstance(exc, sqlite3.Error):
        return (f"a run store could not be used (SQLite: {exc})",
                "check the --db file: `sqlite3 FILE 'PRAGMA integrity_check'`; use another --db meanwhile")
    if isinstance(exc, OSError):
        what, hint = _OS_HINTS.get(exc.errno or -1, (exc.strerror or str(exc), None))
        where = exc.filename or ""
        return (f"{what}: {where}" if where else what), hint
    return (f"internal error ({name}): {exc}",
            "this is a bug in medsim; rerun with MEDSIM_DEBUG=1 for the traceback and report it")
