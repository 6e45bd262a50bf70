#ifndef NETKIT_CZLIB_SHIM_H
#define NETKIT_CZLIB_SHIM_H
#include <zlib.h>

/* permessage-deflate (RFC 7692) for the curl transport's WebSocket: raw deflate streams
   (NetCurl/WebSocket/CurlWebSocketDeflate.swift). The init macros take sizeof(z_stream) and the
   library version, which Swift cannot expand; these wrappers do. */

static inline int netkit_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}

static inline int netkit_deflate_init_raw(z_stream *stream, int window_bits) {
    return deflateInit2(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -window_bits, 8, Z_DEFAULT_STRATEGY);
}
#endif
