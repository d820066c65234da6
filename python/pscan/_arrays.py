"""What pscan needs of an array: data pointer, element type, length and where the memory is.

Host arrays: numpy arrays, torch CPU tensors, objects numpy views without a copy
(``__array_interface__``, the buffer protocol) and DLPack CPU arrays. GPU arrays: torch CUDA
tensors, cupy arrays, objects with ``__cuda_array_interface__`` and DLPack CUDA arrays. Nothing
here copies values.
"""

import ctypes
import sys

from . import _capi
from ._errors import InvalidArgument

try:
    import numpy as np
except ImportError:  # numpy is optional for GPU-only use
    np = None

DTYPE_NAMES = {_capi.INT32: "int32", _capi.INT64: "int64", _capi.FLOAT32: "float32",
               _capi.FLOAT64: "float64"}
ITEM_SIZES = {_capi.INT32: 4, _capi.INT64: 8, _capi.FLOAT32: 4, _capi.FLOAT64: 8}
INTEGER_DTYPES = (_capi.INT32, _capi.INT64)
_BY_KIND_SIZE = {("i", 4): _capi.INT32, ("i", 8): _capi.INT64, ("f", 4): _capi.FLOAT32,
                 ("f", 8): _capi.FLOAT64}
_BY_TYPESTR = {"i4": _capi.INT32, "i8": _capi.INT64, "f4": _capi.FLOAT32, "f8": _capi.FLOAT64}
_DTYPES_TEXT = "int32, int64, float32 or float64"

# A valid address for empty arrays whose pointer is NULL (torch's empty tensors): never read.
_EMPTY_STORAGE = ctypes.create_string_buffer(16)
_EMPTY_ADDRESS = ctypes.addressof(_EMPTY_STORAGE)


class Array:
    """One array argument, described.

    lib: "numpy", "torch", "cupy" (the library that allocates outputs like it) or None.
    gpu: whether the memory is GPU memory; device: the CUDA device's index where known.
    """

    __slots__ = ("obj", "name", "lib", "gpu", "device", "ptr", "dtype", "n", "readonly",
                 "stream", "keep")

    def __init__(self, obj, name, lib, gpu, device, ptr, dtype, n, readonly=False, stream=None,
                 keep=None):
        self.obj = obj
        self.name = name
        self.lib = lib
        self.gpu = gpu
        self.device = device
        self.ptr = ptr if ptr else (_EMPTY_ADDRESS if n == 0 else ptr)
        self.dtype = dtype
        self.n = n
        self.readonly = readonly
        self.stream = stream  # the __cuda_array_interface__ stream entry, if any
        self.keep = keep  # what must stay alive while the pointer is used (a DLPack capsule)

    @property
    def nbytes(self):
        return self.n * ITEM_SIZES[self.dtype]

    def where(self) -> str:
        """The array's kind and memory, for messages."""
        if self.lib == "numpy":
            return "a numpy array in host memory"
        if self.lib == "torch":
            device = "the CPU" if not self.gpu else f"cuda:{self.device}"
            return f"a torch tensor on {device}"
        if self.lib == "cupy":
            return f"a cupy array on GPU {self.device}"
        if self.keep is not None:
            return "a DLPack array in " + ("GPU memory" if self.gpu else "host memory")
        if self.gpu:
            return "an array in GPU memory (__cuda_array_interface__)"
        return "an array in host memory"


def _bad_dtype(name, dtype):
    return InvalidArgument(f"{name} has dtype {dtype}; pscan takes {_DTYPES_TEXT}")


def _not_1d(name, shape):
    return InvalidArgument(f"{name} must be 1-D, got shape {tuple(shape)}")


def _not_contiguous(name, strides, hint):
    return InvalidArgument(f"{name} is not contiguous (strides {strides}); pass a contiguous "
                           f"copy ({hint})")


def _numpy_like_dtype(a, name, library):
    """The dtype code of a 1-D, C-contiguous numpy or cupy array (both have numpy's attributes)."""
    if a.ndim != 1:
        raise _not_1d(name, a.shape)
    dt = a.dtype
    code = _BY_KIND_SIZE.get((dt.kind, dt.itemsize))
    if code is None or not dt.isnative:
        raise _bad_dtype(name, dt)
    if not a.flags.c_contiguous:
        raise _not_contiguous(name, a.strides, f"{library}.ascontiguousarray")
    return code


def _from_numpy(a, name, obj):
    code = _numpy_like_dtype(a, name, "numpy")
    if not a.flags.aligned:
        raise InvalidArgument(f"{name} is not aligned to its element size")
    return Array(obj, name, "numpy", False, None, a.ctypes.data, code, a.shape[0],
                 readonly=not a.flags.writeable)


_torch_dtypes = None


def _from_torch(t, name, torch):
    # The cheapest of torch's accessors first (t.is_cuda, t.get_device(), t.numel() rather than
    # t.device and t.shape): a GPU call's Python overhead is mostly these.
    global _torch_dtypes
    if _torch_dtypes is None:
        _torch_dtypes = {torch.int32: _capi.INT32, torch.int64: _capi.INT64,
                         torch.float32: _capi.FLOAT32, torch.float64: _capi.FLOAT64}
    if t.layout is not torch.strided:
        raise InvalidArgument(f"{name} has layout {t.layout}; pscan takes dense tensors")
    if t.dim() != 1:
        raise _not_1d(name, t.shape)
    code = _torch_dtypes.get(t.dtype)
    if code is None:
        raise _bad_dtype(name, t.dtype)
    if t.is_cuda:
        gpu, index = True, t.get_device()
    elif t.device.type == "cpu":
        gpu, index = False, None
    else:
        raise InvalidArgument(f"{name} is on device {t.device}; pscan takes CPU and CUDA tensors")
    if not t.is_contiguous():
        raise _not_contiguous(name, tuple(t.stride()), "tensor.contiguous()")
    if t.requires_grad and torch.is_grad_enabled():
        raise InvalidArgument(f"{name} requires grad, and pscan records no autograd graph: pass "
                              f"{name}.detach() or call under torch.no_grad()")
    return Array(t, name, "torch", gpu, index, t.data_ptr(), code, t.numel())


def _from_cupy(a, name):
    code = _numpy_like_dtype(a, name, "cupy")
    return Array(a, name, "cupy", True, a.device.id, a.data.ptr, code, a.shape[0])


def _from_cai(obj, name, cai):
    shape = tuple(cai["shape"])
    if len(shape) != 1:
        raise _not_1d(name, shape)
    typestr = cai["typestr"]
    code = _BY_TYPESTR.get(typestr[1:]) if typestr[:1] in "<=" else None
    if code is None:
        raise _bad_dtype(name, typestr)
    n = shape[0]
    strides = cai.get("strides")
    if strides is not None and n > 1 and tuple(strides) != (ITEM_SIZES[code],):
        raise _not_contiguous(name, tuple(strides), "a C-contiguous copy")
    if cai.get("mask") is not None:
        raise InvalidArgument(f"{name} is a masked array; pscan takes plain arrays")
    ptr, readonly = cai["data"]
    return Array(obj, name, None, True, None, ptr, code, n, readonly=bool(readonly),
                 stream=cai.get("stream"))


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


_KDL_CPU, _KDL_CUDA, _KDL_CUDA_HOST, _KDL_CUDA_MANAGED = 1, 2, 3, 13
_DL_INT, _DL_FLOAT = 0, 2
_BY_DL_TYPE = {(_DL_INT, 32): _capi.INT32, (_DL_INT, 64): _capi.INT64,
               (_DL_FLOAT, 32): _capi.FLOAT32, (_DL_FLOAT, 64): _capi.FLOAT64}
_capsule_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_get_pointer.restype = ctypes.c_void_p
_capsule_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_is_valid = ctypes.pythonapi.PyCapsule_IsValid
_capsule_is_valid.restype = ctypes.c_int
_capsule_is_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]


def _from_dlpack(obj, name):
    # The capsule stays unconsumed and is kept alive for the call: its destructor frees the
    # DLManagedTensor afterwards, while obj keeps the memory itself.
    capsule = obj.__dlpack__()
    if not _capsule_is_valid(capsule, b"dltensor"):
        raise TypeError(f"{name}.__dlpack__() did not return a 'dltensor' capsule")
    managed = _DLManagedTensor.from_address(_capsule_get_pointer(capsule, b"dltensor"))
    t = managed.dl_tensor
    device_type = t.device.device_type
    if device_type in (_KDL_CPU, _KDL_CUDA_HOST):
        gpu, device = False, None
    elif device_type in (_KDL_CUDA, _KDL_CUDA_MANAGED):
        gpu, device = True, t.device.device_id
    else:
        raise InvalidArgument(f"{name} is a DLPack array on device type {device_type}; pscan "
                              f"takes host and CUDA memory")
    if t.ndim != 1:
        raise _not_1d(name, [t.shape[i] for i in range(t.ndim)])
    code = _BY_DL_TYPE.get((t.dtype.code, t.dtype.bits)) if t.dtype.lanes == 1 else None
    if code is None:
        raise _bad_dtype(name, f"(DLPack code {t.dtype.code}, {t.dtype.bits} bits, "
                               f"{t.dtype.lanes} lanes)")
    n = t.shape[0]
    if t.strides and n > 1 and t.strides[0] != 1:
        raise _not_contiguous(name, (t.strides[0] * ITEM_SIZES[code],), "a contiguous copy")
    ptr = (t.data or 0) + t.byte_offset
    return Array(obj, name, None, gpu, device, ptr, code, n, keep=capsule)


def _viewable_by_numpy(obj):
    if hasattr(obj, "__array_interface__") or hasattr(obj, "__array_struct__"):
        return True
    try:
        memoryview(obj).release()
        return True
    except TypeError:
        return False


def describe(obj, name) -> Array:
    """The Array of obj, checked to be 1-D, contiguous and of one of the four dtypes."""
    if np is not None and isinstance(obj, np.ndarray):
        return _from_numpy(obj, name, obj)
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(obj, torch.Tensor):
        return _from_torch(obj, name, torch)
    cupy = sys.modules.get("cupy")
    if cupy is not None and isinstance(obj, cupy.ndarray):
        return _from_cupy(obj, name)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        return _from_cai(obj, name, cai)
    if np is not None and _viewable_by_numpy(obj):
        return _from_numpy(np.asarray(obj), name, obj)
    if hasattr(obj, "__dlpack__"):
        return _from_dlpack(obj, name)
    raise TypeError(f"{name} must be an array (numpy, torch, cupy, __cuda_array_interface__, "
                    f"DLPack), got {type(obj).__name__}")


def new(like: Array, n: int, dtype: int = None, zeros: bool = False, name: str = "out"):
    """A new 1-D array of n elements, of like's library, memory and device, and its Array."""
    dtype = like.dtype if dtype is None else dtype
    if like.lib == "torch":
        torch = sys.modules["torch"]
        t = like.obj
        if zeros:
            out = torch.zeros(n, dtype=getattr(torch, DTYPE_NAMES[dtype]), device=t.device)
        elif n == like.n and dtype == like.dtype:
            out = torch.empty_like(t)  # the cheapest of torch's allocations from Python
        else:
            out = t.new_empty(n, dtype=getattr(torch, DTYPE_NAMES[dtype]))
        return out, Array(out, name, "torch", like.gpu, like.device, out.data_ptr(), dtype, n)
    type_name = DTYPE_NAMES[dtype]
    if like.lib == "numpy":
        out = (np.zeros if zeros else np.empty)(n, dtype=type_name)
    elif like.lib == "cupy":
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(like.device):
            out = (cupy.zeros if zeros else cupy.empty)(n, dtype=type_name)
    else:
        raise TypeError(f"{like.name} is {like.where()} of no library pscan allocates with "
                        f"(numpy, torch, cupy): pass the output array as out=")
    return out, describe(out, name)


def as_int64_offsets(offsets):
    """offsets itself if int64, else an int64 copy of int32 offsets (the offsets only)."""
    a = describe(offsets, "offsets")
    if a.dtype == _capi.INT64:
        return a
    if a.dtype != _capi.INT32:
        raise InvalidArgument(f"offsets has dtype {DTYPE_NAMES[a.dtype]}; offsets are int64 "
                              f"(or int32, converted)")
    if a.lib == "numpy":
        return describe(np.asarray(offsets, dtype=np.int64), "offsets")
    if a.lib == "torch":
        return describe(offsets.to(sys.modules["torch"].int64), "offsets")
    if a.lib == "cupy":
        return describe(offsets.astype("int64"), "offsets")
    raise InvalidArgument(f"offsets is {a.where()} of int32: pass int64 offsets")
