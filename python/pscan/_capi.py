"""ctypes binding of libpscan_c (capi/include/pscan/pscan_c.h, ABI version 1).

The library is found, in order: the full path in the environment variable PSCAN_C_LIBRARY; the
package's own folder pscan/_lib/ (where `cmake --install` puts it); the system's search path
(`ctypes.util.find_library("pscan_c")`).
"""

import ctypes
import ctypes.util
import os
import sys

from ._errors import CudaError, InvalidArgument, LibraryError, OutOfMemory, Unsupported

ABI_VERSION = 1

# pscan_status
OK = 0
INVALID_ARGUMENT = 1
UNSUPPORTED = 2
CUDA_ERROR = 3
OUT_OF_MEMORY = 4
ERROR = 5

# pscan_dtype
INT32 = 0
INT64 = 1
FLOAT32 = 2
FLOAT64 = 3

# pscan_op
SUM = 0
MIN = 1
MAX = 2
EXACT_SUM = 3

# pscan_backend
SEQ = 0
OMP = 1
CUDA_CHAINED = 2

_ENV = "PSCAN_C_LIBRARY"
_LIB_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_lib")
if sys.platform == "darwin":
    _FILE_NAME = "libpscan_c.dylib"
elif sys.platform == "win32":
    _FILE_NAME = "pscan_c.dll"
else:
    _FILE_NAME = "libpscan_c.so"


class Policy(ctypes.Structure):
    """struct pscan_policy, field for field."""

    _fields_ = [
        ("backend", ctypes.c_int),
        ("threads", ctypes.c_int),
        ("stream", ctypes.c_void_p),
        ("deterministic", ctypes.c_int),
        ("checked", ctypes.c_int),
    ]


_status = ctypes.c_int
_enum = ctypes.c_int
_ptr = ctypes.c_void_p
_i64 = ctypes.c_int64
_policy_p = ctypes.POINTER(Policy)

# name: (restype, argtypes), in the header's order.
_SIGNATURES = {
    "pscan_abi_version": (ctypes.c_int, []),
    "pscan_backend_available": (ctypes.c_int, [_enum]),
    "pscan_last_error": (ctypes.c_char_p, []),
    "pscan_synchronize": (_status, [_policy_p]),
    "pscan_inclusive_scan": (_status, [_policy_p, _enum, _enum, _ptr, _ptr, _i64]),
    "pscan_exclusive_scan": (_status, [_policy_p, _enum, _enum, _ptr, _ptr, _i64, _ptr]),
    "pscan_reduce": (_status, [_policy_p, _enum, _enum, _ptr, _i64, _ptr, _ptr]),
    "pscan_inclusive_scan_by_offsets": (
        _status, [_policy_p, _enum, _enum, _ptr, _i64, _ptr, _i64, _ptr]),
    "pscan_exclusive_scan_by_offsets": (
        _status, [_policy_p, _enum, _enum, _ptr, _i64, _ptr, _i64, _ptr, _ptr]),
    "pscan_segmented_reduce": (
        _status, [_policy_p, _enum, _enum, _ptr, _i64, _ptr, _i64, _ptr, _ptr]),
    "pscan_reduce_by_key": (
        _status,
        [_policy_p, _enum, _enum, _enum, _ptr, _ptr, _i64, _ptr, _ptr, ctypes.POINTER(_i64)]),
}


_HINT = (f"Set {_ENV} to the full path of {_FILE_NAME} (a CMake build puts it in "
         f"<build>/capi/), or install it into {_LIB_DIR} with `cmake --install <build>`.")


def _candidates():
    """(path, where it came from) to try, in order; an explicit PSCAN_C_LIBRARY is the only one."""
    explicit = os.environ.get(_ENV)
    if explicit:
        return [(explicit, _ENV)]
    found = []
    own = os.path.join(_LIB_DIR, _FILE_NAME)
    if os.path.exists(own):
        found.append((own, "the package folder"))
    system = ctypes.util.find_library("pscan_c")
    if system:
        found.append((system, "the system's library path"))
    return found


def _load():
    tried = []
    for path, origin in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append(f"{path} (from {origin}): {e}")
    if tried:
        raise ImportError("pscan: cannot load the C library libpscan_c: " + "; ".join(tried)
                          + ". " + _HINT)
    raise ImportError("pscan: cannot find the C library libpscan_c. " + _HINT)


lib, path = _load()

_missing = [name for name in _SIGNATURES if not hasattr(lib, name)]
if _missing:
    raise ImportError(f"pscan: {path} lacks {', '.join(_missing)}: not a libpscan_c of ABI "
                      f"version {ABI_VERSION}. " + _HINT)
for _name, (_restype, _argtypes) in _SIGNATURES.items():
    _f = getattr(lib, _name)
    _f.restype = _restype
    _f.argtypes = _argtypes

abi_version = lib.pscan_abi_version()
if abi_version != ABI_VERSION:
    raise ImportError(f"pscan: {path} has C ABI version {abi_version}; this package needs "
                      f"{ABI_VERSION}. " + _HINT)

backend_available = lib.pscan_backend_available
synchronize = lib.pscan_synchronize
inclusive_scan = lib.pscan_inclusive_scan
exclusive_scan = lib.pscan_exclusive_scan
reduce = lib.pscan_reduce
inclusive_scan_by_offsets = lib.pscan_inclusive_scan_by_offsets
exclusive_scan_by_offsets = lib.pscan_exclusive_scan_by_offsets
segmented_reduce = lib.pscan_segmented_reduce
reduce_by_key = lib.pscan_reduce_by_key

_EXCEPTIONS = {
    INVALID_ARGUMENT: InvalidArgument,
    UNSUPPORTED: Unsupported,
    CUDA_ERROR: CudaError,
    OUT_OF_MEMORY: OutOfMemory,
    ERROR: LibraryError,
}


def last_error() -> str:
    """This thread's last message from the library ("" before any failure)."""
    message = lib.pscan_last_error()
    return message.decode("utf-8", "replace") if message else ""


def raise_status(status: int, function: str):
    """Raises the exception of a non-zero pscan_status, carrying pscan_last_error()."""
    message = last_error() or f"{function} returned status {status} without a message"
    raise _EXCEPTIONS.get(status, LibraryError)(message)
