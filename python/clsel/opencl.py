"""clsel on data that already lives on an OpenCL device: PyOpenCL arrays in, an output
array and its event out, enqueued on the caller's queue (clsel_cl_enqueue).

    >>> import pyopencl as cl, pyopencl.array as cla, clsel.opencl
    >>> out, event = clsel.opencl.select(queue, cond_dev, then_dev, else_dev)

Needs pyopencl. The kernels are built once per (context, device) and kept for the life
of the process.
"""
import atexit
import ctypes
import threading

import pyopencl as cl
import pyopencl.array as cla

from . import _P, ClselError, _check, _declare, _dtype_code, _out_mismatches, _plan

__all__ = ["select"]

_context_create = _declare("clsel_cl_context_create", ctypes.c_int, _P, _P, ctypes.POINTER(_P))
_context_destroy = _declare("clsel_cl_context_destroy", None, _P)
_enqueue = _declare("clsel_cl_enqueue", ctypes.c_int, _P, _P, _P, _P, ctypes.c_size_t, _P, ctypes.c_size_t, _P,
                    ctypes.c_size_t, _P, ctypes.c_size_t, ctypes.c_uint32, ctypes.POINTER(_P), ctypes.POINTER(_P))

_contexts = {}
_contexts_lock = threading.Lock()


def _clsel_context(queue):
    """The clsel_cl_context of the queue's (context, device), made on first use."""
    key = (queue.context.int_ptr, queue.device.int_ptr)
    with _contexts_lock:
        handle = _contexts.get(key)
        if handle is None:
            handle = _P()
            _check(_context_create(queue.context.int_ptr, queue.device.int_ptr, ctypes.byref(handle)))
            _contexts[key] = handle
        return handle


def _check_array(array, name, queue):
    if not isinstance(array, cla.Array):
        raise ClselError("CLSEL_ERROR_INVALID_ARGUMENT",
                         f"{name} must be a pyopencl.array.Array, not {type(array).__name__}")
    if array.context != queue.context:
        raise ClselError("CLSEL_ERROR_INVALID_ARGUMENT", f"{name} lives in another OpenCL context than the queue")
    if any(stride % array.dtype.itemsize for stride in array.strides):
        raise ClselError("CLSEL_ERROR_INVALID_ARGUMENT", f"{name} strides {array.strides} are not whole elements")


def _layout(array):
    """Element strides of a strided array (a slice with steps, a transpose), None when C-contiguous."""
    if array.flags.c_contiguous:
        return None
    return tuple(stride // array.dtype.itemsize for stride in array.strides)


def _tensor(array):
    """(cl_mem address or None, byte offset) of an array."""
    data = array.base_data
    return (data.int_ptr if data is not None else None), array.offset


def select(queue, cond, then, else_, out=None, wait_for=None, broadcast="numpy", axis=-1,
           cond_broadcast="one-way"):
    """out = cond ? then : else_ on `queue`'s device, bit for bit; returns (out, event).

    cond, then, else_ (and out): pyopencl.array.Array in the queue's context, of any
    strides (sliced with steps, transposed: read and written where they lie, no copies),
    at any offset in their buffers; dtypes and broadcasting as clsel.select. out: None
    (a new array) or an array of the result's dtype and shape; it may be then or else_
    itself (same buffer and offset, the result's shape), any other overlap is an error.
    The call waits for wait_for and for the arrays' own pending events, enqueues without
    blocking, and records the returned event on `out` as PyOpenCL arrays do.
    """
    arrays = {"cond": cond, "then": then, "else": else_}
    for name, array in arrays.items():
        _check_array(array, name, queue)
    codes = tuple(_dtype_code(array, name) for name, array in arrays.items())
    shapes, layouts = (cond.shape, then.shape, else_.shape), (_layout(cond), _layout(then), _layout(else_))
    plan = _plan(codes, shapes, broadcast, axis, cond_broadcast, layouts + (None,))
    if out is None:
        out = cla.empty(queue, plan.out_shape, then.dtype)
    else:
        _check_array(out, "out", queue)
        problems = _out_mismatches(out, plan.out_shape, then.dtype)
        if problems:
            raise ClselError("CLSEL_ERROR_INVALID_ARGUMENT", "out has " + ", ".join(problems))
        plan = _plan(codes, shapes, broadcast, axis, cond_broadcast, layouts + (_layout(out),))
    waits = list(wait_for or []) + [e for a in (cond, then, else_, out) for e in a.events]
    wait_list = (_P * max(len(waits), 1))(*[e.int_ptr for e in waits])
    event = _P()
    tensors = [value for array in (cond, then, else_, out) for value in _tensor(array)]
    _check(_enqueue(_clsel_context(queue), plan.handle, queue.int_ptr, *tensors, len(waits),
                    wait_list if waits else None, ctypes.byref(event)))
    done = cl.Event.from_int_ptr(event.value, retain=False)
    out.add_event(done)
    return out, done


@atexit.register
def _release_contexts():
    with _contexts_lock:
        for handle in _contexts.values():
            _context_destroy(handle)
        _contexts.clear()

