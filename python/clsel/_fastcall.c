/* _fastcall.c - the binding's per-call step in C: clsel_runtime_run on four arrays' data
 * addresses, read through the buffer protocol. clsel.select uses it for a call it has made
 * before (__init__.py's _calls): ctypes' own call and the four addresses through ctypes cost
 * about 2 us, most of a 1,000-element select. The library is the one ctypes loaded: its
 * clsel_runtime_run comes in as an address, so this module links nothing. Where it is not
 * built (no Python headers), __init__.py calls through ctypes instead. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

typedef int (*runtime_run_fn)(void *runtime, const void *plan, const void *cond,
                              const void *then_data, const void *else_data, void *out);

/* The address of an array's first element (where numpy's data pointer is), or NULL with a
 * Python error set. The buffer protocol first; numpy's __array_interface__ where an array does
 * not export a buffer (a dtype the protocol has no format for). */
static void *data_address(PyObject *array, int writable)
{
    Py_buffer view;
    if (PyObject_GetBuffer(array, &view, PyBUF_STRIDES | (writable ? PyBUF_WRITABLE : 0)) == 0) {
        void *at = view.buf;
        PyBuffer_Release(&view);
        return at;
    }
    PyErr_Clear();
    PyObject *interface = PyObject_GetAttrString(array, "__array_interface__");
    PyObject *data = interface ? PyDict_GetItemString(interface, "data") : NULL;
    void *at = NULL;
    if (data && PyTuple_Check(data) && PyTuple_GET_SIZE(data) > 0)
        at = PyLong_AsVoidPtr(PyTuple_GET_ITEM(data, 0));
    else if (!PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "clsel: an argument is not an array");
    Py_XDECREF(interface);
    return at;
}

/* run(function, runtime, plan, cond, then, else_, out) -> status: function, runtime and plan are
 * addresses (ints); the arrays are numpy arrays, out writeable. The GIL is released while the
 * library runs, as ctypes does. */
static PyObject *run(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "run() takes 7 arguments");
        return NULL;
    }
    void *addresses[3];
    for (int k = 0; k < 3; ++k) {
        addresses[k] = PyLong_AsVoidPtr(args[k]);
        if (PyErr_Occurred())
            return NULL;
    }
    const void *data[3];
    for (int k = 0; k < 3; ++k) {
        data[k] = data_address(args[3 + k], 0);
        if (!data[k] && PyErr_Occurred())
            return NULL;
    }
    void *out = data_address(args[6], 1);
    if (!out && PyErr_Occurred())
        return NULL;
    const runtime_run_fn runtime_run = (runtime_run_fn)addresses[0];
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = runtime_run(addresses[1], addresses[2], data[0], data[1], data[2], out);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(status);
}

static PyMethodDef methods[] = {
    {"run", (PyCFunction)(void (*)(void))run, METH_FASTCALL,
     "run(function, runtime, plan, cond, then, else_, out) -> clsel_status"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastcall", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__fastcall(void)
{
    return PyModule_Create(&module);
}
