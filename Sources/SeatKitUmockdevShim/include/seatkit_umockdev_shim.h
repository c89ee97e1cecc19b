/* The one function of the umockdev preload shim that the replay worker calls (by dlsym, as the
   shim is preloaded, not linked): see SystemQuirks.swift. The shim's other symbols replace the
   C library's (fstat, fopen, clock_gettime...) in the worker only. */
#ifndef SEATKIT_UMOCKDEV_SHIM_H
#define SEATKIT_UMOCKDEV_SHIM_H
#include <stddef.h>
void seatkit_shim_serve_quirks(const char *directory, int count, const char *const *names,
                               const char *const *texts, const size_t *lengths);
#endif
