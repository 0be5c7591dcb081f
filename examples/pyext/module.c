/* module.c -- the Python module: pyext.check() runs both kernels and
 * returns "PASS", "FAIL ..." or "SKIP no CUDA device" */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "pyext.h"

static PyObject *check(PyObject *self, PyObject *args)
{
	float f[100];
	int v[100];
	for (int i = 0; i < 100; i++)
		f[i] = (float)i;
	if (pyext_scale(f, 100, 2.0f) != 0)
		return PyUnicode_FromString("SKIP no CUDA device");
	if (pyext_fill_int(v, 100, 7) != 0)
		return PyUnicode_FromString("FAIL fill");
	for (int i = 0; i < 100; i++)
		if (f[i] != 2.0f * (float)i || v[i] != 7)
			return PyUnicode_FromFormat("FAIL at %d", i);
	return PyUnicode_FromString("PASS");
}

static PyMethodDef methods[] = {
	{ "check", check, METH_NOARGS, "run the kernels: PASS, FAIL ... or SKIP ..." },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = { PyModuleDef_HEAD_INIT, "pyext", NULL, -1, methods };

PyMODINIT_FUNC PyInit_pyext(void)
{
	return PyModule_Create(&module);
}
