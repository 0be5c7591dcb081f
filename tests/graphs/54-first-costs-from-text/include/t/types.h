// the element types every algorithm is built for: an X-list
#pragma once
#include <cub/device/device_radix_sort.cuh>
#define T_TYPES(X) X(int) X(unsigned) X(float) X(double) X(long)
