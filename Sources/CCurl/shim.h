#ifndef NETKIT_CCURL_SHIM_H
#define NETKIT_CCURL_SHIM_H
#include <curl/curl.h>
#endif
