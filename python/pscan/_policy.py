"""Execution policies: which backend runs a call, and how."""

import ctypes
import sys

from . import _capi
from ._errors import InvalidArgument

_BACKEND_NAMES = {_capi.SEQ: "seq", _capi.OMP: "omp", _capi.CUDA_CHAINED: "cuda_chained"}


def backend_available(backend: str) -> bool:
    """Whether the library was built with `backend` ("seq", "omp", "cuda_chained") and, for
    cuda_chained, a device is present."""
    for code, name in _BACKEND_NAMES.items():
        if name == backend:
            return bool(_capi.backend_available(code))
    raise ValueError(f"unknown backend {backend!r}; backends: seq, omp, cuda_chained")


class Policy:
    """A backend and its settings; build them with pscan.seq, pscan.omp(...),
    pscan.cuda_chained(...)."""

    __slots__ = ("backend", "threads", "stream", "deterministic", "checked")

    def __init__(self, backend, threads=0, stream=None, deterministic=False, checked=True):
        self.backend = backend
        self.threads = threads
        self.stream = stream
        self.deterministic = deterministic
        self.checked = checked

    @property
    def gpu(self) -> bool:
        """Whether the policy runs on the GPU (takes arrays in GPU memory)."""
        return self.backend == _capi.CUDA_CHAINED

    def struct(self, stream: int = 0) -> _capi.Policy:
        """The pscan_policy, with `stream` where self.stream is None."""
        if self.stream is not None:
            stream = self.stream
        return _capi.Policy(self.backend, self.threads, stream or None,
                            1 if self.deterministic else 0, 1 if self.checked else 0)

    def __repr__(self):
        name = _BACKEND_NAMES[self.backend]
        if self.backend == _capi.OMP:
            return f"pscan.omp(threads={self.threads})"
        if self.backend == _capi.CUDA_CHAINED:
            return (f"pscan.cuda_chained(stream={self.stream!r}, "
                    f"deterministic={self.deterministic}, checked={self.checked})")
        return f"pscan.{name}"


class _Omp(Policy):
    __slots__ = ()

    def __call__(self, threads: int = 0) -> Policy:
        """omp with a team of `threads` (0: OpenMP's default, OMP_NUM_THREADS)."""
        return omp_policy(threads)


class _CudaChained(Policy):
    __slots__ = ()

    def __call__(self, stream=None, deterministic: bool = False, checked: bool = True) -> Policy:
        """cuda_chained on `stream`, deterministic and checked as given (see pscan.cuda_chained)."""
        return cuda_chained_policy(stream, deterministic, checked)


def omp_policy(threads=0):
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise InvalidArgument(f"omp: threads must be an int >= 0 (0: OpenMP's default), got "
                              f"{threads!r}")
    return _Omp(_capi.OMP, threads=threads)


def _stream_handle(stream):
    """The cudaStream_t of an int or of a torch/cupy/numba stream object."""
    if isinstance(stream, int) and not isinstance(stream, bool):
        if stream < 0:
            raise InvalidArgument(f"cuda_chained: stream must be a handle >= 0, got {stream}")
        return stream
    for attribute in ("cuda_stream", "ptr", "handle"):  # torch, cupy, numba
        handle = getattr(stream, attribute, None)
        if handle is not None:
            return handle.value if isinstance(handle, ctypes.c_void_p) else int(handle)
    raise TypeError(f"cuda_chained: stream must be None, an int handle or a torch/cupy/numba "
                    f"stream, got {type(stream).__name__}")


def cuda_chained_policy(stream=None, deterministic=False, checked=True):
    handle = None if stream is None else _stream_handle(stream)
    return _CudaChained(_capi.CUDA_CHAINED, stream=handle, deterministic=bool(deterministic),
                        checked=bool(checked))


seq = Policy(_capi.SEQ)
omp = _Omp(_capi.OMP)
cuda_chained = _CudaChained(_capi.CUDA_CHAINED)

_default_cpu = None


def default_cpu_policy() -> Policy:
    global _default_cpu
    if _default_cpu is None:
        _default_cpu = omp if _capi.backend_available(_capi.OMP) else seq
    return _default_cpu


def _torch_current_stream(torch, device) -> int:
    # The raw handle, without the torch.cuda.Stream object current_stream() builds (8 us).
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None and device is not None:
        return raw(device)
    return torch.cuda.current_stream(device).cuda_stream


def _torch_current_device(torch) -> int:
    # torch.cuda.current_device() checks torch's lazy initialization first (0.6 us, half of it).
    get = getattr(torch._C, "_cuda_getDevice", None)
    return get() if get is not None else torch.cuda.current_device()


# The pscan_policy structs passed so far, by their fields (a call's policy and stream are most
# often the ones before): building one costs more than finding it.
_structs = {}
_MAX_STRUCTS = 256


def policy_ref(policy, stream: int = 0):
    """A reference to the pscan_policy of `policy` on `stream` (where policy.stream is None)."""
    key = (policy.backend, policy.threads, policy.stream if policy.stream is not None else stream,
           policy.deterministic, policy.checked)
    ref = _structs.get(key)
    if ref is None:
        if len(_structs) >= _MAX_STRUCTS:
            _structs.clear()
        ref = ctypes.byref(policy.struct(stream))  # byref keeps the struct alive
        _structs[key] = ref
    return ref


def _current_stream(first) -> int:
    """The stream a GPU call on `first` runs on when its policy names none: the caller's current
    stream in first's library (torch, cupy), the __cuda_array_interface__ stream entry, else 0."""
    if first.lib == "torch":
        return _torch_current_stream(sys.modules["torch"], first.device)
    if first.lib == "cupy":
        return sys.modules["cupy"].cuda.get_current_stream().ptr
    if first.stream is not None:
        return first.stream
    return 0


def ambient_stream() -> int:
    """The caller's current stream with no array to go by: torch's (once CUDA is initialized
    there), else cupy's, else 0 (the default stream)."""
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_initialized():
        return torch.cuda.current_stream().cuda_stream
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        return cupy.cuda.get_current_stream().ptr
    return 0


def _device_context(first):
    """What makes first's device current, or None where it already is (or has none)."""
    if first.lib == "torch":
        torch = sys.modules["torch"]
        # Entering torch.cuda.device costs microseconds: only where the device changes.
        if first.device is None or first.device == _torch_current_device(torch):
            return None
        return torch.cuda.device(first.device)
    if first.lib == "cupy":
        return sys.modules["cupy"].cuda.Device(first.device)
    return None


class Call:
    """One call's policy over its arrays: checks where they live, then runs the C call."""

    __slots__ = ("policy", "first", "_anchor")

    def __init__(self, policy, first):
        if policy is None:
            policy = cuda_chained if first.gpu else default_cpu_policy()
        elif not isinstance(policy, Policy):
            raise TypeError(f"policy must be pscan.seq, pscan.omp(...) or "
                            f"pscan.cuda_chained(...), got {type(policy).__name__}")
        if policy.gpu != first.gpu:
            side = "the GPU (arrays in GPU memory)" if policy.gpu else "the CPU (host arrays)"
            raise InvalidArgument(f"policy {policy!r} runs on {side}, but {first.name} is "
                                  f"{first.where()}")
        self.policy = policy
        self.first = first
        self._anchor = first  # the array whose library gives the device and the current stream

    def add(self, *others):
        """Checks that `others` live where the first array does."""
        first = self.first
        for other in others:
            if other.gpu != first.gpu or (other.gpu and other.device is not None
                                          and first.device is not None
                                          and other.device != first.device):
                raise InvalidArgument(f"{other.name} is {other.where()}, but {first.name} is "
                                      f"{first.where()}: pass both in the same memory")
            if self._anchor.lib is None and other.lib is not None:
                self._anchor = other
        return self

    def run(self, function, name, *args):
        """function(policy struct by reference, *args) with the arrays' device current (on the
        caller's current stream where the policy names none); raises what a nonzero status says
        (function: pscan_<name> of the C library)."""
        policy = self.policy
        context = None
        if policy.gpu:
            anchor = self._anchor
            context = _device_context(anchor)
            if context is not None:
                context.__enter__()
            ref = policy_ref(policy, _current_stream(anchor) if policy.stream is None else 0)
        else:
            ref = policy_ref(policy)
        try:
            status = function(ref, *args)
        finally:
            if context is not None:
                context.__exit__(None, None, None)
        if status:
            _capi.raise_status(status, name)
