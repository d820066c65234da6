"""pscan's exceptions: each is also the built-in exception a Python caller expects."""


class Error(Exception):
    """Base of the errors pscan raises for a failed call."""


class InvalidArgument(Error, ValueError):
    """A bad argument: dtype, shape, layout, offsets, policy or memory (PSCAN_INVALID_ARGUMENT)."""


class Unsupported(Error, NotImplementedError):
    """A backend the library was built without, or no device (PSCAN_UNSUPPORTED)."""


class CudaError(Error, RuntimeError):
    """A CUDA call failed; the message names it (PSCAN_CUDA_ERROR)."""


class OutOfMemory(Error, MemoryError):
    """Temporaries could not be allocated; nothing was written (PSCAN_OUT_OF_MEMORY)."""


class LibraryError(Error, RuntimeError):
    """Any other failure of the C library (PSCAN_ERROR)."""
