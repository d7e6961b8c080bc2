import SmartStackBase

internal import CZlib

/// A raw DEFLATE decoder (RFC 1951) over the system zlib: `inflate` with windowBits -15
/// (a 32 KiB window, no zlib or gzip wrapper). `Gzip` reads the gzip headers and trailers
/// around it.
///
/// ```swift
/// let inflater = try ZlibInflater()
/// let end = try inflater.inflate(input, from: 10) { piece in output += piece }
/// ```
///
/// This is the one type of the package that hands pointers to zlib. Its invariants:
/// - `stream` points to one heap-allocated `z_stream`, initialised by `inflateInit2` in
///   `init` and released (`inflateEnd`, then deallocated) in `deinit`, nowhere else. zlib
///   keeps a pointer back to it, so it must never move: it is never copied into a Swift
///   value, and the class is `final` and never shared between threads (not `Sendable`).
/// - `chunk` holds `chunkSize` bytes, allocated in `init` and deallocated in `deinit`.
///   zlib writes only into it: `next_out`/`avail_out` are set to the whole chunk before
///   every call, and `consume` sees only the bytes written, before the next call.
/// - `next_in` points into the caller's `input` only while `inflate` runs (the caller
///   lends the buffer for that long); it is cleared before `inflate` returns or throws, so
///   no pointer to the caller's memory outlives the call. zlib only reads through it.
/// - Each call starts from `inflateReset`, with an empty window, so one instance decodes
///   several streams in turn and distances never reach into an earlier stream.
///
/// Malformed input is an `ArchiveError` (`.corrupt` with zlib's reason and a byte offset,
/// or `.truncated`), never a crash.
///
/// - Complexity: O(n + m) for n input and m output bytes; O(1) memory besides zlib's
///   state (about 7 KiB), its 32 KiB window and the chunk.
final class ZlibInflater {
  /// The most bytes handed to `consume` at once.
  static let chunkSize = 1 << 16

  private let stream: UnsafeMutablePointer<z_stream>
  private let chunk: UnsafeMutablePointer<UInt8>

  /// A decoder ready for its first stream.
  ///
  /// - Throws: `.tooLarge` when zlib cannot allocate its state.
  init() throws(ArchiveError) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let status = czlib_inflate_init2(stream, -15)
    guard status == Z_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      // Z_VERSION_ERROR or Z_STREAM_ERROR would mean headers and library disagree: a
      // broken build, not bad input.
      precondition(status == Z_MEM_ERROR, "zlib inflateInit2 failed with status \(status)")
      throw Self.outOfMemory()
    }
    chunk = .allocate(capacity: Self.chunkSize)
  }

  deinit {
    inflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
    chunk.deallocate()
  }

  /// Decodes the DEFLATE stream that starts at byte `start` of `input`, hands the decoded
  /// bytes to `consume` in order (pieces of at most `chunkSize` bytes, valid only during
  /// the call), and returns the offset just after the stream's last byte (bytes after the
  /// final block are not read).
  ///
  /// - Throws: `.truncated` when `input` ends before the final block does; `.corrupt`
  ///   with zlib's reason (`invalid block type`, `invalid distance too far back`, ...) and
  ///   the offset of the byte where decoding failed; whatever `consume` throws.
  func inflate(
    _ input: UnsafeBufferPointer<UInt8>, from start: Int,
    consume: (UnsafeBufferPointer<UInt8>) throws(ArchiveError) -> Void
  ) throws(ArchiveError) -> Int {
    guard let base = input.baseAddress, start < input.count else {
      throw ArchiveError(.truncated, "deflate: the compressed data is missing")
    }
    precondition(inflateReset(stream) == Z_OK, "zlib inflateReset failed")
    defer {
      stream.pointee.next_in = nil
      stream.pointee.avail_in = 0
    }
    var fed = start  // bytes of `input` handed to zlib so far
    while true {
      if stream.pointee.avail_in == 0 && fed < input.count {
        // avail_in is 32-bit; inputs are at most InputLimits.maximumFileBytes (2 GiB).
        let count = min(input.count - fed, Int(UInt32.max))
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base + fed)
        stream.pointee.avail_in = uInt(count)
        fed += count
      }
      stream.pointee.next_out = chunk
      stream.pointee.avail_out = uInt(Self.chunkSize)
      let status = CZlib.inflate(stream, Z_NO_FLUSH)
      let produced = Self.chunkSize - Int(stream.pointee.avail_out)
      if produced > 0 { try consume(UnsafeBufferPointer(start: chunk, count: produced)) }
      let position = fed - Int(stream.pointee.avail_in)  // the next unread byte
      switch status {
      case Z_STREAM_END:
        return position
      case Z_OK:
        continue  // progress was made; call again (a further call reports the end)
      case Z_BUF_ERROR:
        // No progress with room for output: the input ran out inside the stream.
        throw ArchiveError(
          .truncated, "deflate: the compressed data ends inside a block (truncated)")
      case Z_DATA_ERROR:
        let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
        throw ArchiveError(.corrupt, "deflate: \(reason) near byte \(max(start, position - 1))")
      case Z_MEM_ERROR:
        throw Self.outOfMemory()
      default:
        // Z_STREAM_ERROR or Z_NEED_DICT cannot happen for a raw stream set up as above.
        preconditionFailure("zlib inflate returned status \(status)")
      }
    }
  }

  private static func outOfMemory() -> ArchiveError {
    ArchiveError(.tooLarge, "not enough memory to decompress (zlib could not allocate its state)")
  }
}
