#ifndef CZIP_SHIM_H
#define CZIP_SHIM_H
/* libzip (Debian libzip-dev 1.7.3): writes and reads GAEN chunk zips in memory. */
#include <zip.h>
#endif
