// The system zlib (https://zlib.net), as the Swift module CZlib.
//
// SmartStackKit uses it for gzip (Importers/ZlibInflater.swift, Importers/CRC32.swift).
// zlib's own headers declare inflateInit2 as a macro, which Swift cannot call; the inline
// function below is that macro, spelled out.
#ifndef SMARTSTACK_CZLIB_SHIM_H
#define SMARTSTACK_CZLIB_SHIM_H

#include <zlib.h>

/// inflateInit2(stream, windowBits): windowBits -15 is a raw DEFLATE stream (RFC 1951)
/// with a 32 KiB window, no zlib or gzip wrapper.
static inline int czlib_inflate_init2(z_streamp stream, int windowBits) {
  return inflateInit2(stream, windowBits);
}

#endif
