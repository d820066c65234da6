"""pscan for torch tensors: a drop-in for torch.segment_reduce over 1-D data."""

import math

from . import _core
from ._errors import InvalidArgument
from ._policy import cuda_chained

_UNCHECKED = cuda_chained(checked=False)

# What an empty segment gives without `initial`, per reduce, over floating data: torch's values.
# None: the operator's identity (0 for sums). Integer data take the identity for every reduce
# (the dtype's lowest for "max", its largest for "min").
EMPTY_SEGMENT = {"sum": None, "mean": math.nan, "max": -math.inf, "min": math.inf}

_OPS = {"sum": "sum", "mean": "sum", "max": "max", "min": "min"}


def _offsets_of_lengths(torch, lengths, device):
    if not isinstance(lengths, torch.Tensor):
        lengths = torch.as_tensor(lengths)
    if lengths.dim() != 1 or lengths.is_floating_point() or lengths.is_complex():
        raise InvalidArgument(f"lengths must be a 1-D integer tensor, got {lengths.dtype} of "
                              f"shape {tuple(lengths.shape)}")
    lengths = lengths.to(device=device)
    offsets = torch.zeros(lengths.shape[0] + 1, dtype=torch.int64, device=device)
    torch.cumsum(lengths, 0, dtype=torch.int64, out=offsets[1:])
    return offsets


def segment_reduce(data, reduce="sum", *, lengths=None, indices=None, offsets=None, axis=0,
                   unsafe=False, initial=None, exact=False):
    """torch.segment_reduce over 1-D data, on pscan's segmented reduce.

    reduce: "sum", "mean" (sum / length), "max" or "min"; "prod" raises NotImplementedError.
    Segments: `lengths` (converted to int64 offsets on data's device) or `offsets` (int64;
    int32 offsets are converted, a copy of the offsets only), one of the two.
    An empty segment gives `initial` when given, else EMPTY_SEGMENT[reduce] for floating data
    (0, nan, -inf, +inf: as torch), the operator's identity for integer data (which torch does
    not take). `initial` takes part in every segment, as in torch (a mean divides it too).
    exact=True ("sum", "mean"): each sum is the correctly rounded sum of the exact values.
    unsafe=True trusts the segments: on the GPU no check waits for the device (see
    pscan.cuda_chained(checked=False)); otherwise they must lie within data (they may end
    before its end). NaN: max and min do not propagate NaN as torch does.
    Returns a new tensor of data's dtype and device, one element a segment; no autograd.
    """
    import torch

    if not isinstance(data, torch.Tensor):
        raise TypeError(f"data must be a torch.Tensor, got {type(data).__name__}")
    if data.dim() != 1:
        raise InvalidArgument(f"pscan.torch.segment_reduce takes 1-D data, got shape "
                              f"{tuple(data.shape)}")
    if axis not in (0, -1):
        raise InvalidArgument(f"axis must be 0 for 1-D data, got {axis}")
    if indices is not None:
        raise NotImplementedError("segment_reduce: indices are not supported (nor by torch); "
                                  "give lengths or offsets")
    if reduce == "prod":
        raise NotImplementedError("segment_reduce: reduce='prod' is not supported: pscan has no "
                                  "product operator; use torch.segment_reduce")
    op = _OPS.get(reduce)
    if op is None:
        raise InvalidArgument(f"reduce must be 'sum', 'mean', 'max' or 'min', got {reduce!r}")
    if exact:
        if op != "sum":
            raise InvalidArgument(f"exact=True applies to 'sum' and 'mean', not {reduce!r}")
        op = "exact_sum"
    if (lengths is None) == (offsets is None):
        raise InvalidArgument("segment_reduce: give exactly one of lengths and offsets")
    floating = data.is_floating_point()
    if reduce == "mean" and not floating:
        raise InvalidArgument(f"reduce='mean' needs floating data, got {data.dtype}")
    if lengths is not None:
        offsets = _offsets_of_lengths(torch, lengths, data.device)

    init = initial
    if init is None and floating and reduce != "mean":
        init = EMPTY_SEGMENT[reduce]
    policy = (_UNCHECKED if unsafe else cuda_chained) if data.is_cuda else None
    out = _core.segmented_reduce(data, offsets, op, init=init, policy=policy)

    if reduce == "mean":
        if offsets.dtype != torch.int64:
            offsets = offsets.to(torch.int64)
        counts = offsets[1:] - offsets[:-1]
        out.div_(counts.clamp(min=1).to(out.dtype))
        if initial is None:
            out.masked_fill_(counts == 0, EMPTY_SEGMENT["mean"])
    return out
