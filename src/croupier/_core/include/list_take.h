/* A list's items in a given order: out[q] = items[order[q]], each item's reference count
 * raised (the compiled form of `[items[i] for i in order]`).
 *
 * The items of a long list lie all over memory, and each one taken is touched to count
 * the new reference: one cache miss an item, waited for in turn.  Prefetching the list's
 * slot TAKE_SLOTS_AHEAD places ahead and the item it names TAKE_ITEMS_AHEAD places ahead
 * keeps some twenty of those misses in flight at once.
 */
#ifndef CROUPIER_LIST_TAKE_H
#define CROUPIER_LIST_TAKE_H

#include <Python.h>

#define CROUPIER_TAKE_SLOTS_AHEAD 32
#define CROUPIER_TAKE_ITEMS_AHEAD 16

/* The first place q with order[q] outside 0 .. n - 1, or count when there is none. */
static inline Py_ssize_t croupier_take_check(const Py_ssize_t *order, Py_ssize_t count,
                                             Py_ssize_t n) {
    for (Py_ssize_t q = 0; q < count; q++) {
        if ((size_t)order[q] >= (size_t)n) {
            return q;
        }
    }
    return count;
}

/* out[q] = items[order[q]] with a new reference, for every q (order checked before). */
static inline void croupier_take(PyObject *const *items, const Py_ssize_t *order,
                                 Py_ssize_t count, PyObject **out) {
    for (Py_ssize_t q = 0; q < count; q++) {
        if (q + CROUPIER_TAKE_SLOTS_AHEAD < count) {
            __builtin_prefetch(items + order[q + CROUPIER_TAKE_SLOTS_AHEAD]);
        }
        if (q + CROUPIER_TAKE_ITEMS_AHEAD < count) {
            __builtin_prefetch(items[order[q + CROUPIER_TAKE_ITEMS_AHEAD]], 1);
        }
        PyObject *item = items[order[q]];
        Py_INCREF(item);
        out[q] = item;
    }
}

#endif
