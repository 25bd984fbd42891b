"""clsel for Python: Select-1 (out = cond ? then : else) on numpy arrays, through ctypes.

    >>> import numpy as np, clsel
    >>> clsel.where(np.array([0.5, 0.0]), 1.0, np.array([10, 20]))
    array([ 1., 20.])
    >>> clsel.select(np.array([True, False]), np.array([1, 2]), np.array([10, 20]))
    array([ 1, 20])

No compiled extension: the module loads the built C library, from the file named by
the environment variable CLSEL_LIBRARY, or else from inside the package (where
`pip install .` puts it), or else from the build tree next to this package
(build/lib/libclsel.so), or else from the system's library path.

Functions: where (numpy.where's rules), select (Select-1's rules), infer_shape, devices,
version. Failures raise ClselError, which
carries the status name (e.g. "CLSEL_ERROR_INVALID_SHAPE") and the library's message.
bfloat16 arrays travel as ml_dtypes.bfloat16.
"""
import atexit
import ctypes
import ctypes.util
import os
import threading

import numpy as np

__all__ = ["where", "select", "infer_shape", "devices", "version", "ClselError", "library_path"]

MAX_RANK = 8
STATUS_NAMES = [
    "CLSEL_SUCCESS",
    "CLSEL_ERROR_INVALID_ARGUMENT",
    "CLSEL_ERROR_INVALID_SHAPE",
    "CLSEL_ERROR_INVALID_DTYPE",
    "CLSEL_ERROR_OVERFLOW",
    "CLSEL_ERROR_BUFFER",
    "CLSEL_ERROR_OUT_OF_MEMORY",
    "CLSEL_ERROR_NO_DEVICE",
    "CLSEL_ERROR_BUILD",
    "CLSEL_ERROR_OPENCL",
]
BROADCASTS = {"numpy": 0, "none": 1, "explicit": 1, "pdpd": 2}
COND_BROADCASTS = {"one-way": 0, "bidirectional": 1}
DEVICES = {"auto": 0, "cpu": 1, "opencl": 2}


class ClselError(Exception):
    """A clsel call failed: `status` is the status name, `message` the library's text."""

    def __init__(self, status, message):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


class _Shape(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int32), ("dims", ctypes.c_int64 * MAX_RANK)]


class _Attrs(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("broadcast", ctypes.c_int), ("axis", ctypes.c_int64),
                ("cond_broadcast", ctypes.c_int)]


class _Strides(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("strided", ctypes.c_uint32),
                ("strides", (ctypes.c_int64 * MAX_RANK) * 4)]


class _DeviceInfo(ctypes.Structure):
    _fields_ = [
        ("platform_index", ctypes.c_int32), ("device_index", ctypes.c_int32),
        ("platform_name", ctypes.c_char * 128), ("platform_version", ctypes.c_char * 128),
        ("name", ctypes.c_char * 128), ("version", ctypes.c_char * 128),
        ("driver_version", ctypes.c_char * 64), ("type", ctypes.c_char * 16),
        ("global_mem_bytes", ctypes.c_uint64), ("max_alloc_bytes", ctypes.c_uint64),
        ("compute_units", ctypes.c_int32), ("available", ctypes.c_int32),
        ("fp16", ctypes.c_int32), ("fp64", ctypes.c_int32), ("auto_choice", ctypes.c_int32),
    ]


def _find_library():
    explicit = os.environ.get("CLSEL_LIBRARY")
    if explicit:
        return explicit
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "libclsel.so"),  # installed by pip, inside the package
                      os.path.join(here, "..", "..", "build", "lib", "libclsel.so")):  # the source tree's build
        if os.path.exists(candidate):
            return os.path.normpath(candidate)
    found = ctypes.util.find_library("clsel")
    if found:
        return found
    raise OSError("cannot find libclsel: build it (cmake --build build) or set CLSEL_LIBRARY")


library_path = _find_library()
_lib = ctypes.CDLL(library_path)


def _declare(name, restype, *argtypes):
    function = getattr(_lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)
    return function


_P = ctypes.c_void_p
_status_string = _declare("clsel_status_string", ctypes.c_char_p, ctypes.c_int)
_last_error = _declare("clsel_last_error", ctypes.c_char_p)
_version = _declare("clsel_version", ctypes.c_char_p)
_check_dtypes = _declare("clsel_check_dtypes", ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int)
_infer_shape = _declare("clsel_infer_shape", ctypes.c_int, ctypes.POINTER(_Shape), ctypes.POINTER(_Shape),
                        ctypes.POINTER(_Shape), ctypes.POINTER(_Attrs), ctypes.POINTER(_Shape))
_plan_create = _declare("clsel_plan_create_strided", ctypes.c_int, ctypes.c_int, ctypes.POINTER(_Shape),
                        ctypes.POINTER(_Shape), ctypes.POINTER(_Shape), ctypes.POINTER(_Attrs),
                        ctypes.POINTER(_Strides), ctypes.POINTER(_P))
_plan_destroy = _declare("clsel_plan_destroy", None, _P)
_plan_output_shape = _declare("clsel_plan_output_shape", ctypes.POINTER(_Shape), _P)
_runtime_create = _declare("clsel_runtime_create", ctypes.c_int, ctypes.c_int, ctypes.POINTER(_P))
_runtime_destroy = _declare("clsel_runtime_destroy", None, _P)
_runtime_device = _declare("clsel_runtime_device", ctypes.c_int, _P)
_runtime_device_name = _declare("clsel_runtime_device_name", ctypes.c_char_p, _P)
_runtime_run = _declare("clsel_runtime_run", ctypes.c_int, _P, _P, _P, _P, _P, _P)
_runtime_set_min_device_bytes = _declare("clsel_runtime_set_min_device_bytes", ctypes.c_int, _P, ctypes.c_uint64)


def _load_fastcall():
    """The compiled per-call step (_fastcall.c) from beside the library that was loaded (pip
    puts both in the package; a build tree in build/lib), or None: then calls go through
    ctypes. CLSEL_FASTCALL=0 asks for ctypes."""
    if os.environ.get("CLSEL_FASTCALL") == "0":
        return None
    import glob
    import importlib.machinery
    import importlib.util
    folder = os.path.dirname(os.path.abspath(library_path))
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    for path in sorted(glob.glob(os.path.join(folder, "_fastcall*"))):
        if not any(path.endswith(suffix) for suffix in suffixes):
            continue
        try:
            spec = importlib.util.spec_from_file_location("clsel._fastcall", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
        except (ImportError, OSError):
            continue  # another Python's build, or one with sanitizers: ctypes does it
    return None


_fastcall = _load_fastcall()
_runtime_run_address = ctypes.cast(_lib.clsel_runtime_run, ctypes.c_void_p).value
_list_devices = _declare("clsel_list_devices", ctypes.c_int, ctypes.POINTER(_DeviceInfo), ctypes.c_int32,
                         ctypes.POINTER(ctypes.c_int32))
_dtype_from_name = _declare("clsel_dtype_from_name", ctypes.c_int, ctypes.c_char_p)

# numpy dtype name -> clsel_dtype, in the enum's order, as the library reads numpy's spelling
# (clsel_dtype_from_name): every name numpy has, and bfloat16 (ml_dtypes), asked once.
_numpy_names = {np.dtype(t).name for t in set(np.sctypeDict.values())} | {"bfloat16"}
DTYPES = dict(sorted(((name, code) for name in _numpy_names if (code := _dtype_from_name(name.encode())) != 0),
                     key=lambda item: item[1]))


def _check(status):
    if status != 0:
        name = STATUS_NAMES[status] if 0 <= status < len(STATUS_NAMES) else f"status {status}"
        raise ClselError(name, _last_error().decode("utf-8", "replace"))


def version():
    """The version of the loaded library, "MAJOR.MINOR.PATCH"."""
    return _version().decode()


def _shape(dims, name):
    dims = tuple(int(d) for d in dims)
    if len(dims) > MAX_RANK:  # a clsel_shape has no room for it: say so as the library would
        raise ClselError("CLSEL_ERROR_INVALID_SHAPE", f"{name} rank {len(dims)} is outside 0..{MAX_RANK}")
    shape = _Shape()
    shape.rank = len(dims)
    for i, d in enumerate(dims):
        shape.dims[i] = d
    return shape


def _attrs(broadcast, axis, cond_broadcast):
    try:
        return _Attrs(ctypes.sizeof(_Attrs), BROADCASTS[broadcast], int(axis), COND_BROADCASTS[cond_broadcast])
    except KeyError as missing:
        raise ClselError("CLSEL_ERROR_INVALID_ARGUMENT",
                         f"unknown value {missing} (broadcast: {sorted(BROADCASTS)}, "
                         f"cond_broadcast: {sorted(COND_BROADCASTS)})") from None


def infer_shape(cond_shape, then_shape, else_shape, broadcast="numpy", axis=-1, cond_broadcast="one-way"):
    """The output shape Select gives for these input shapes (a tuple), or ClselError."""
    out = _Shape()
    _check(_infer_shape(_shape(cond_shape, "cond"), _shape(then_shape, "then"), _shape(else_shape, "else"),
                        _attrs(broadcast, axis, cond_broadcast), out))
    return tuple(out.dims[i] for i in range(out.rank))


# The same table keyed by dtype object: a dtype's name is built anew on every access
# (about 5 us), a dtype hashes in 0.1 us. Filled as dtypes are met.
_codes_by_dtype = {}


def _dtype_code(array, name):
    """The clsel_dtype of an array; a dtype clsel has no enum for is refused by name here,
    where it is still known (the library would only see an unknown number)."""
    code = _codes_by_dtype.get(array.dtype)
    if code is not None:
        return code
    code = DTYPES.get(array.dtype.name)
    if code is not None:
        _codes_by_dtype[array.dtype] = code
    if code is None:
        raise ClselError("CLSEL_ERROR_INVALID_DTYPE",
                         f"{name} dtype {array.dtype.name} is not supported (supported: {', '.join(DTYPES)})")
    return code


def _view(value):
    """An array in native byte order, as it lies: views (transposed, stepped, reversed,
    broadcast, Fortran order) are passed to the library with their strides, not copied.
    Only a byte swap, or strides that are not whole elements, make a copy."""
    array = np.asarray(value)
    if not array.dtype.isnative:  # a byte swap: exact
        array = array.astype(array.dtype.newbyteorder("="))
    if any(stride % array.itemsize for stride in array.strides):
        array = array.copy(order="C")
    return array


def _layout(array):
    """An array's element strides, or None where it is C-contiguous (the library's default)."""
    if array.flags.c_contiguous:
        return None
    return tuple(stride // array.itemsize for stride in array.strides)


_runtimes = {}
_runtimes_lock = threading.Lock()


def _runtime(device):
    """One runtime per device request, kept for the life of the process (kernels build once)."""
    if device not in DEVICES:
        raise ClselError("CLSEL_ERROR_INVALID_ARGUMENT", f"device must be one of {sorted(DEVICES)}, not {device!r}")
    with _runtimes_lock:
        if device not in _runtimes:
            handle = _P()
            _check(_runtime_create(DEVICES[device], ctypes.byref(handle)))
            if device == "opencl":  # asked for by name: every run on the device, small ones too
                _check(_runtime_set_min_device_bytes(handle, 0))
            _runtimes[device] = handle
        return _runtimes[device]


@atexit.register
def _release_runtimes():
    with _plans_lock:
        _plans.clear()
        _calls.clear()
    with _runtimes_lock:
        for handle in _runtimes.values():
            _runtime_destroy(handle)
        _runtimes.clear()


def runtime_device(device="auto"):
    """What a device request runs on: ("opencl", name) or ("cpu", "cpu")."""
    handle = _runtime(device)
    kind = "opencl" if _runtime_device(handle) == 2 else "cpu"
    return kind, _runtime_device_name(handle).decode()


class _Plan:
    """A clsel_plan and its output shape, destroyed with the last reference to it."""
    __slots__ = ("handle", "out_shape")

    def __init__(self, handle, out_shape):
        self.handle, self.out_shape = handle, out_shape

    def __del__(self):
        if _plan_destroy is not None:  # None while the interpreter shuts down
            _plan_destroy(self.handle)


# Plans by (dtype, shapes, attributes): a plan is immutable and shareable, and making one
# (shapes and attributes through ctypes, plan_create, plan_destroy) is most of the fixed
# cost of a small select. The oldest entry goes when the cache is full; a call that is
# still using it holds its own reference.
_PLAN_CACHE_SIZE = 256
_plans = {}
_plans_lock = threading.Lock()


def _strides(layouts):
    """clsel_strides for the four tensors' element strides (None: dense)."""
    strides = _Strides(ctypes.sizeof(_Strides), 0)
    for op, layout in enumerate(layouts):
        if layout is not None:
            strides.strided |= 1 << op
            for axis, stride in enumerate(layout):
                strides.strides[op][axis] = stride
    return strides


def _plan(codes, shapes, broadcast, axis, cond_broadcast, layouts=(None, None, None, None)):
    key = (codes, shapes, broadcast, axis, cond_broadcast, layouts)
    with _plans_lock:
        plan = _plans.get(key)
    if plan is not None:
        return plan
    _check(_check_dtypes(*codes))
    handle = _P()
    _check(_plan_create(codes[1], *[_shape(s, n) for s, n in zip(shapes, ("cond", "then", "else"))],
                        _attrs(broadcast, axis, cond_broadcast), _strides(layouts), ctypes.byref(handle)))
    out = _plan_output_shape(handle).contents
    plan = _Plan(handle, tuple(out.dims[i] for i in range(out.rank)))
    with _plans_lock:
        if len(_plans) >= _PLAN_CACHE_SIZE:
            del _plans[next(iter(_plans))]
        _plans[key] = plan
    return plan


def _address(array):
    """An array's data address as an int (ctypes passes it as void *). Through the buffer
    protocol for a writeable array (1 us), else numpy's ctypes attribute (3 us); a
    read-only or empty array takes the second way."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(array))
    except (TypeError, ValueError):
        return array.ctypes.data


def _out_mismatches(out, shape, dtype):
    """How a caller's output array (numpy or PyOpenCL) differs from the result's dtype and
    shape, as phrases for the error message."""
    problems = []
    if out.dtype != dtype:
        problems.append(f"dtype {out.dtype.name} (the result's is {dtype.name})")
    if tuple(out.shape) != shape:
        problems.append(f"shape {tuple(out.shape)} (the result's is {shape})")
    return problems


def _check_out(out, shape, dtype):
    """The caller's output array: exactly the result's dtype and shape, writeable, in
    native byte order and whole-element strides (the library writes its elements where
    they lie; any view, a transposed or stepped one too)."""
    if not isinstance(out, np.ndarray):
        raise ClselError("CLSEL_ERROR_INVALID_ARGUMENT", f"out must be a numpy array, not {type(out).__name__}")
    problems = _out_mismatches(out, shape, dtype)
    if not out.dtype.isnative:
        problems.append("not in native byte order")
    if any(stride % out.itemsize for stride in out.strides):
        problems.append(f"strides {out.strides} that are not whole elements")
    if not out.flags.writeable:
        problems.append("read-only")
    if problems:
        raise ClselError("CLSEL_ERROR_INVALID_ARGUMENT", "out has " + ", ".join(problems))


def select(cond, then, else_, broadcast="numpy", axis=-1, cond_broadcast="one-way", device="auto", out=None):
    """out = cond ? then : else_, bit for bit, as a new numpy array (or written into `out`).

    cond: bool or uint8 array (nonzero = true). then, else_: arrays of one common dtype
    (bool, (u)int8..64, float16/32/64, ml_dtypes.bfloat16). broadcast: "numpy" (default),
    "none" (alias "explicit") or "pdpd" with `axis`. cond_broadcast: "one-way" (default,
    as Select-1 says) or "bidirectional" (OpenVINO's runtime, ONNX Where). device:
    "auto" (an OpenCL GPU or accelerator if there is one, else the CPU path on every
    core; runs that move less than 1 MiB take the CPU path), "cpu" or "opencl" (every
    run on the device). Inputs of any layout (views, Fortran order, broadcast_to) are
    read where they lie, without copies. out: an array of the result's dtype and shape
    (writeable; any layout, a view too: only its elements are written) to write into and
    return; it may be `then` or `else_` itself when that has the result's shape and
    layout; any other overlap with an input is an error. Without out, the result takes
    the memory order of the first input with its shape (then, else_, cond), as numpy's
    order="K" does, else C order.
    """
    call_key = _call_key(cond, then, else_, broadcast, axis, cond_broadcast, device, out)
    if call_key is not None:
        call = _calls.get(call_key)
        if call is not None:  # a call made before: no checks, layouts or plan lookup to redo
            return _repeat_call(call, cond, then, else_, out)
    given = (cond, then, else_)
    cond, then, else_ = _view(cond), _view(then), _view(else_)
    codes = (_dtype_code(cond, "cond"), _dtype_code(then, "then"), _dtype_code(else_, "else"))
    key_shapes = (cond.shape, then.shape, else_.shape)
    in_layouts = (_layout(cond), _layout(then), _layout(else_))
    shape = _plan(codes, key_shapes, broadcast, axis, cond_broadcast, in_layouts + (None,)).out_shape
    like = -1
    if out is None:
        out, like = _new_output(shape, then.dtype, (then, else_, cond))
    else:
        _check_out(out, shape, then.dtype)
    plan = _plan(codes, key_shapes, broadcast, axis, cond_broadcast, in_layouts + (_layout(out),))
    runtime = _runtime(device)
    _check(_runtime_run(runtime, plan.handle, _address(cond), _address(then), _address(else_), _address(out)))
    if call_key is not None and all(a is b for a, b in zip(given, (cond, then, else_))):
        _remember_call(call_key, (plan, runtime, shape, then.dtype, like, (runtime.value, plan.handle.value)))
    return out


# Calls by everything that decides them (the inputs' dtypes, shapes and strides, the
# attributes, the device, and out's dtype, shape and strides when given): their plan,
# runtime, output shape, dtype and layout, so that a call repeated on new data (a model's
# loop) skips the checks, layouts and plan lookup that made it the first time: most of a
# small select's cost in Python. Only calls whose inputs were arrays used as they lie (no
# byte swap or copy). The library still checks every run's buffers for overlap.
_CALL_CACHE_SIZE = 256
_calls = {}


def _call_key(cond, then, else_, broadcast, axis, cond_broadcast, device, out):
    """The call's key in _calls; None where the arguments are not all arrays, or out is
    one the checks must see again (read-only: they refuse it)."""
    if type(cond) is not np.ndarray or type(then) is not np.ndarray or type(else_) is not np.ndarray:
        return None
    if out is None:
        out_key = None
    elif type(out) is np.ndarray and out.flags.writeable:
        out_key = (out.dtype, out.shape, out.strides)
    else:
        return None
    return (cond.dtype, then.dtype, else_.dtype, cond.shape, then.shape, else_.shape, cond.strides, then.strides,
            else_.strides, broadcast, axis, cond_broadcast, device, out_key)


def _repeat_call(call, cond, then, else_, out):
    """A remembered call (_calls) on new arrays of the same dtypes, shapes and strides."""
    plan, runtime, shape, dtype, like, addresses = call
    if out is None:
        out = np.empty(shape, dtype) if like < 0 else np.empty_like((then, else_, cond)[like], dtype, "K")
    if _fastcall is not None:
        _check(_fastcall.run(_runtime_run_address, *addresses, cond, then, else_, out))
    else:
        _check(_runtime_run(runtime, plan.handle, _address(cond), _address(then), _address(else_), _address(out)))
    return out


def _remember_call(key, call):
    with _plans_lock:
        if len(_calls) >= _CALL_CACHE_SIZE:
            del _calls[next(iter(_calls))]
        _calls[key] = call


def _new_output(shape, dtype, inputs):
    """A new result array laid out as the first input of its shape (numpy's order="K"),
    so that a transposed or Fortran-order run is walked as a dense one; and which input
    that was (-1: none, C order)."""
    for index, array in enumerate(inputs):
        if array.shape == shape and array.ndim > 1 and not array.flags.c_contiguous and 0 not in array.strides:
            return np.empty_like(array, dtype=dtype, order="K"), index
    return np.empty(shape, dtype=dtype), -1


def devices():
    """Every OpenCL device as a dict (platform, name, type, memory, fp16/fp64, auto_choice);
    an empty list when there is no OpenCL (the CPU path is then used)."""
    count = ctypes.c_int32(0)
    status = _list_devices(None, 0, ctypes.byref(count))
    if status == STATUS_NAMES.index("CLSEL_ERROR_NO_DEVICE"):
        return []
    _check(status)
    infos = (_DeviceInfo * max(count.value, 1))()
    _check(_list_devices(infos, count.value, ctypes.byref(count)))
    result = []
    for info in infos[:count.value]:
        result.append({
            "platform_index": info.platform_index, "device_index": info.device_index,
            "platform": info.platform_name.decode(), "platform_version": info.platform_version.decode(),
            "name": info.name.decode(), "version": info.version.decode(),
            "driver_version": info.driver_version.decode(), "type": info.type.decode(),
            "global_mem_bytes": info.global_mem_bytes, "max_alloc_bytes": info.max_alloc_bytes,
            "compute_units": info.compute_units, "available": bool(info.available),
            "fp16": bool(info.fp16), "fp64": bool(info.fp64), "auto_choice": bool(info.auto_choice),
        })
    return result


# Python scalars take part in numpy's type promotion by kind only ("weak" scalars, NEP 50):
# np.where(c, int8_array, 300) is int8. Arrays, lists and numpy scalars take part by dtype.
_WEAK_SCALARS = (bool, int, float, complex)
_MISSING = object()


def _where_dtype(x, y, xa, ya):
    """The result dtype numpy.where gives for x and y, or None where numpy itself would
    have to say (an error, or a dtype clsel has no enum for)."""
    try:
        dtype = np.result_type(*(v if type(v) in _WEAK_SCALARS else a for v, a in ((x, xa), (y, ya))))
    except (TypeError, ValueError, OverflowError):
        return None
    return dtype if _known_dtype(dtype) else None


def _known_dtype(dtype):
    """Whether clsel has a type for this dtype, through the dtype-keyed table (a dtype's
    name costs microseconds to build)."""
    if dtype in _codes_by_dtype:
        return True
    code = DTYPES.get(dtype.name)
    if code is None:
        return False
    _codes_by_dtype[dtype] = code
    return True


def where(condition, x=_MISSING, y=_MISSING, *, device="auto", out=None):
    """numpy.where(condition, x, y), bit for bit, through clsel where it can run it.

    The rules are numpy's: condition of any numeric dtype (nonzero = true, NaN true),
    x and y anything numpy accepts (arrays of any layout or byte order, numpy or Python
    scalars, lists), the result dtype by numpy's promotion of x and y (Python scalars
    weak, as NEP 50 says), the three shapes broadcast together two ways. With neither x
    nor y it is numpy's where(condition): condition's nonzero indices. Inputs clsel has no
    type for (complex, object, strings, dates) or more than 8 dims go to numpy.where
    itself, as do shapes that do not broadcast (numpy's own error is raised). device and
    out as in select: out must have the result's dtype and shape.
    """
    call_key = _call_key(condition, x, y, "numpy", -1, "bidirectional", device, out)
    if call_key is not None:
        # A call that select made before with where's attributes (below): only calls whose
        # arrays it took as they lie are remembered, so numpy's rules gave select's result.
        call = _calls.get(call_key)
        if call is not None:
            return _repeat_call(call, condition, x, y, out)
    if (type(condition) is np.ndarray and type(x) is np.ndarray and type(y) is np.ndarray and x.dtype == y.dtype
            and condition.dtype.char in "?B" and x.dtype.isnative and x.dtype in _codes_by_dtype
            and max(condition.ndim, x.ndim, y.ndim) <= MAX_RANK):
        # The common call, arrays of one dtype clsel has met and a bool or uint8 condition:
        # numpy's result dtype is theirs, and select's own cache of calls does the rest.
        return _where_by_select(condition, x, y, device, out, (condition, x, y))
    if x is _MISSING and y is _MISSING:
        return np.asarray(condition).nonzero()
    if x is _MISSING or y is _MISSING:
        raise ValueError("either both or neither of x and y should be given")
    cond, xa, ya = np.asarray(condition), np.asarray(x), np.asarray(y)
    dtype = _where_dtype(x, y, xa, ya)
    numeric_cond = cond.dtype.kind in "biuf" or _known_dtype(cond.dtype)
    if dtype is None or not numeric_cond or max(cond.ndim, xa.ndim, ya.ndim) > MAX_RANK:
        return _numpy_where(condition, x, y, out)
    if cond.dtype != np.bool_ and cond.dtype != np.uint8:  # clsel reads bool or uint8: nonzero as numpy says
        cond = cond.astype(np.bool_)
    xa, ya = xa.astype(dtype, copy=False), ya.astype(dtype, copy=False)  # numpy's casts, warnings and all
    return _where_by_select(cond, xa, ya, device, out, (condition, x, y))


def _where_by_select(cond, x, y, device, out, given):
    """numpy.where's result through select (two-way broadcasting), or through numpy.where on
    the arguments as given where the shapes do not broadcast: numpy's own error."""
    try:
        return select(cond, x, y, cond_broadcast="bidirectional", device=device, out=out)
    except ClselError as error:
        if error.status != "CLSEL_ERROR_INVALID_SHAPE":
            raise
        return _numpy_where(*given, out)


def _numpy_where(condition, x, y, out):
    result = np.where(condition, x, y)
    if out is None:
        return result
    _check_out(out, result.shape, result.dtype)
    out[...] = result
    return out
