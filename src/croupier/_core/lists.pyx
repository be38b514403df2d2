# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""A list's items in a given order (C: ``include/list_take.h``): the compiled form of
``croupier.shuffling.arrays.take_in_order_reference``.

>>> import numpy as np
>>> take(["a", "b", "c"], np.array([2, 0, 1], np.intp))
['c', 'a', 'b']
"""

from cpython.list cimport PyList_New
from cpython.object cimport PyObject


cdef extern from "list_take.h":
    Py_ssize_t croupier_take_check(const Py_ssize_t *order, Py_ssize_t count, Py_ssize_t n) nogil
    void croupier_take(PyObject **items, const Py_ssize_t *order, Py_ssize_t count,
                       PyObject **out)


cdef extern from "Python.h":
    ctypedef struct PyListObject:
        PyObject **ob_item


def take(list items, const Py_ssize_t[::1] order):
    """A new list of ``items[order[q]]`` for every place ``q`` (``order``: ``intp``
    positions, each below ``len(items)``, repeats allowed)."""
    cdef Py_ssize_t count = order.shape[0]
    cdef Py_ssize_t n = len(items)
    cdef Py_ssize_t bad = count
    if count:
        bad = croupier_take_check(&order[0], count, n)
    if bad < count:
        raise IndexError(f"order[{bad}] = {order[bad]} is not a place of a list of {n}")
    cdef list out = PyList_New(count)
    if count:
        croupier_take((<PyListObject *>items).ob_item, &order[0], count,
                      (<PyListObject *>out).ob_item)
    return out
