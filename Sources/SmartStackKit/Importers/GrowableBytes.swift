/// A byte buffer that grows by doubling up to a limit, written through a raw pointer.
final class GrowableBytes {
  private(set) var pointer: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int
  /// The number of bytes written.
  var count = 0

  /// An empty buffer with room for `capacity` bytes (at least 64), but never more than
  /// `limit`, so that `reserve` is asked, and refuses, before the limit is passed.
  init(capacity: Int, limit: Int) {
    self.capacity = min(max(capacity, 64), max(limit, 0))
    pointer = .allocate(capacity: max(self.capacity, 1))
  }

  deinit { pointer.deallocate() }

  /// Makes room for `extra` more bytes.
  ///
  /// - Throws: `.tooLarge` when `count + extra` exceeds `limit`.
  func reserve(_ extra: Int, limit: Int) throws(ArchiveError) {
    let (needed, overflow) = count.addingReportingOverflow(extra)
    if !overflow && needed <= capacity { return }
    guard !overflow, needed <= limit else {
      throw ArchiveError(
        .tooLarge,
        "the data expands beyond the limit of \(limit) bytes; refusing it as a possible "
          + "decompression bomb (raise the limit with --max-expanded-bytes if the file is genuine)")
    }
    var newCapacity = capacity
    while newCapacity < needed { newCapacity = newCapacity > limit / 2 ? limit : newCapacity &* 2 }
    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    bigger.update(from: pointer, count: count)
    pointer.deallocate()
    pointer = bigger
    capacity = newCapacity
  }

  /// The bytes written, as an array (one copy).
  func array() -> [UInt8] {
    Array(UnsafeBufferPointer(start: pointer, count: count))
  }

  /// Bytes `range` in place (valid until the next `reserve`).
  func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: pointer + range.lowerBound, count: range.count)
  }
}
