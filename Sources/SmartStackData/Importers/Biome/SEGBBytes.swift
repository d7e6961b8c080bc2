import SmartStackBase
/// Bounds-checked little-endian reads from a file's bytes: every read returns nil
/// instead of reading outside the array, so no input can make the reader trap.
///
/// The reader's only unsafe code is in `crc32`, which hands zlib a buffer pointer to the
/// bytes of `range`. Invariant: that buffer lies inside the array, checked there (a range
/// outside the file gives checksum 0 rather than a read outside it; the reader never asks
/// for one, since every record's range is checked against the file size first).
struct SEGBBytes {
  private let bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var count: Int { bytes.count }

  /// True when `pattern` lies at `offset`.
  func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
    offset >= 0 && offset <= bytes.count - pattern.count
      && bytes[offset..<offset + pattern.count].elementsEqual(pattern)
  }

  /// The little-endian `UInt64` of `width` bytes at `offset`, or nil when they are not
  /// all inside the file.
  private func load(_ offset: Int, width: Int) -> UInt64? {
    guard offset >= 0, offset <= bytes.count - width else { return nil }
    var value: UInt64 = 0
    for i in (0..<width).reversed() { value = value << 8 | UInt64(bytes[offset + i]) }
    return value
  }

  func uint32(at offset: Int) -> UInt32? { load(offset, width: 4).map { UInt32(truncatingIfNeeded: $0) } }

  func int32(at offset: Int) -> Int32? { uint32(at: offset).map { Int32(bitPattern: $0) } }

  func double(at offset: Int) -> Double? { load(offset, width: 8).map { Double(bitPattern: $0) } }

  /// The CRC-32 of the bytes in `range`; 0 when `range` is not inside the file.
  func crc32(_ range: Range<Int>) -> UInt32 {
    guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return 0 }
    return bytes.withUnsafeBufferPointer { CRC32.checksum(UnsafeBufferPointer(rebasing: $0[range])) }
  }
}
