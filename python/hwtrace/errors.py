"""The exceptions and warnings of the hwtrace package."""


class HwtraceError(Exception):
    """A failure the library reported: its message names the file, the
    record or offset, the option, and what to do. ``code`` is the
    library's negative HWT_ERR_* value, ``name`` its short name."""

    def __init__(self, message, code=0):
        super().__init__(message)
        self.code = code
        self.name = ERROR_NAMES.get(code, "")


class LibraryNotFound(HwtraceError, OSError):
    """libhwtrace.so could not be loaded; the message lists where it was
    looked for."""


class HwtraceWarning(UserWarning):
    """A warning of the decode or the symbolizer (what `hwtrace decode`
    prints on standard error)."""


# The library's error classes (include/hwtrace/error.h).
ERROR_NAMES = {
    -1: "nomem", -2: "inval", -3: "io", -4: "noent", -5: "format",
    -6: "nosup", -7: "perm", -8: "config", -9: "truncated",
    -10: "decode", -11: "nospc", -12: "eof", -13: "busy",
}
