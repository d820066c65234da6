"""pscan: scans, reductions and segmented primitives over 1-D arrays, on the CPU and the GPU.

A binding of the C library libpscan_c through ctypes. Arrays are numpy arrays (and other host
arrays) for the CPU policies, and torch CUDA tensors, cupy arrays or any object with
``__cuda_array_interface__`` or ``__dlpack__`` for the GPU one; they are 1-D, contiguous, and of
dtype int32, int64, float32 or float64. Results are written through the arrays' own pointers,
without copies.

Policies: ``pscan.seq`` (the calling thread), ``pscan.omp(threads=0)`` (OpenMP),
``pscan.cuda_chained(stream=None, deterministic=False, checked=True)`` (CUDA). Without a policy,
host arrays go to omp (seq when the library has no OpenMP) and GPU arrays to cuda_chained on the
caller's current stream (torch's or cupy's, or the ``__cuda_array_interface__`` stream).

Operators: "sum", "min", "max", "exact_sum" (each output the correctly rounded sum of the exact
values: the same bits on every backend, thread count and run; over integers, "sum").

``pscan.torch.segment_reduce`` is a drop-in for ``torch.segment_reduce`` over 1-D data.
"""

from ._capi import abi_version
from ._core import (cumsum, exclusive_scan, exclusive_scan_by_offsets, inclusive_scan,
                    inclusive_scan_by_offsets, reduce, reduce_by_key, segmented_reduce,
                    synchronize)
from ._errors import CudaError, Error, InvalidArgument, LibraryError, OutOfMemory, Unsupported
from ._policy import Policy, backend_available, cuda_chained, omp, seq

__all__ = [
    "inclusive_scan", "exclusive_scan", "reduce", "inclusive_scan_by_offsets",
    "exclusive_scan_by_offsets", "segmented_reduce", "reduce_by_key", "cumsum", "synchronize",
    "seq", "omp", "cuda_chained", "Policy", "backend_available", "abi_version",
    "Error", "InvalidArgument", "Unsupported", "CudaError", "OutOfMemory", "LibraryError",
]


def __getattr__(name):
    # pscan.torch imports torch, so it loads on first use rather than with pscan.
    if name == "torch":
        import importlib
        return importlib.import_module(".torch", __name__)
    raise AttributeError(f"module 'pscan' has no attribute {name!r}")
