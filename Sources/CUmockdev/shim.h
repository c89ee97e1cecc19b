#ifndef SEATKIT_CUMOCKDEV_SHIM_H
#define SEATKIT_CUMOCKDEV_SHIM_H
#include <umockdev.h>
#endif
