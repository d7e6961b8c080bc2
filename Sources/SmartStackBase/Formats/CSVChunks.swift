import Foundation

/// How a CSV reader reads the body of a big file on every core: in windows of
/// `windowBytes`, each cut at line ends into one part per core, the parts read at the same
/// time (`ParallelMap`) and their results joined in file order.
///
/// A part must begin at a record boundary, and a line end is one only outside quotes. So a
/// window is cut only when it holds no `"` byte at all (`window(in:from:)` gives nil
/// otherwise, and the reader reads the rest of the file in one pass), and only after a
/// line end that ends a non-empty line (`safeLineEnd`), so no part begins or ends inside a
/// run of blank lines, which a reader reports as `empty line` in the middle of a file but
/// not at its end. A reader that meets any problem in a part reads the whole file again in
/// one pass to report it, so problems and their positions are exactly the one-pass
/// reader's.
///
/// - Complexity: O(n) in the window's length for finding the cuts (`memchr`).
package enum CSVChunks {
  /// Bytes per window: 32 MiB. What is resident of a mapped file is about one window.
  package static let windowBytes = 1 << 25
  /// Files whose body is smaller than this are read in one pass: 4 MiB.
  package static let minimumBytes = 1 << 22

  /// The next window from `start` (a record boundary): `start..<end`, `end` a safe line end
  /// (just after it) at or after `start + size`, or the end of `bytes`. Nil when the
  /// window holds a `"`, which may hide line ends inside quotes.
  ///
  /// `quoted: false` is for JSON Lines, where a line end is always a record's (a JSON
  /// string holds no raw line end), so quotes do not matter.
  package static func window(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int, size: Int = windowBytes, quoted: Bool = true
  ) -> Range<Int>? {
    let n = bytes.count
    var end = n
    if n - start > size, let cut = safeLineEnd(in: bytes, from: start + size) { end = cut }
    guard !quoted || !contains(UInt8(ascii: "\""), in: bytes, start..<end) else { return nil }
    return start..<end
  }

  /// The number of LF bytes in `bytes[range]`. O(n).
  package static func lineFeeds(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var count = 0
    var i = range.lowerBound
    while i < range.upperBound,
      let hit = memchr(base + i, Int32(UInt8(ascii: "\n")), range.upperBound - i)
    {
      count += 1
      i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
    }
    return count
  }

  /// `window` cut into at most `count` parts of about equal size at safe line ends, in order.
  package static func parts(of window: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, count: Int) -> [Range<Int>] {
    var parts: [Range<Int>] = []
    var start = window.lowerBound
    let size = window.count / max(1, count)
    for k in 1..<max(1, count) {
      let target = window.lowerBound + k * size
      guard target > start, let cut = safeLineEnd(in: bytes, from: target), cut < window.upperBound else { break }
      parts.append(start..<cut)
      start = cut
    }
    parts.append(start..<window.upperBound)
    return parts
  }

  /// The offset just after the first LF at or after `from` that ends a non-empty line
  /// (the byte before it is neither LF nor a CR that follows LF or begins the data), or nil.
  static func safeLineEnd(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    var i = from
    while i < bytes.count {
      guard let hit = memchr(base + i, Int32(UInt8(ascii: "\n")), bytes.count - i) else { return nil }
      let j = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
      var before = j - 1
      if before >= 0 && bytes[before] == UInt8(ascii: "\r") { before -= 1 }
      if before >= 0 && bytes[before] != UInt8(ascii: "\n") && bytes[before] != UInt8(ascii: "\r") { return j + 1 }
      i = j + 1
    }
    return nil
  }

  /// True when `byte` occurs in `bytes[range]`.
  static func contains(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    guard let base = bytes.baseAddress, !range.isEmpty else { return false }
    return memchr(base + range.lowerBound, Int32(byte), range.count) != nil
  }
}

