import Foundation

/// How a CSV reader reads the body of a big file on every core: in windows of
/// `windowBytes`, each cut at line ends into one part per core, the parts read at the same
/// time (`ParallelMap`) and their results joined in file order.
///
/// A part must begin at a record boundary, and a line end is one only outside quotes. So a
/// window is cut only after a line end with an even number of `"` before it since the last
/// cut (`recordEnd`), and only after a line end that ends a non-empty line
/// (`safeLineEnd`), so no part begins or ends inside a run of blank lines, which a reader
/// reports as `empty line` in the middle of a file but not at its end. A reader that meets
/// any problem in a part reads the whole file again in one pass to report it, so problems
/// and their positions are exactly the one-pass reader's. A stray quote (in an unquoted
/// field) can put later cuts inside a record, but the part that holds it begins at a true
/// boundary and reports it, so such a file is always read again in one pass.
///
/// - Complexity: O(n) in the window's length for finding the cuts (`memchr`).
package enum CSVChunks {
  /// Bytes per window: 8 MiB. What is resident of a mapped file is about one window.
  package static let windowBytes = 1 << 23
  /// Files whose body is smaller than this are read in one pass: 4 MiB.
  package static let minimumBytes = 1 << 22

  /// The next window from `start` (a record boundary): `start..<end`, `end` a record end
  /// (`recordEnd`) at or after `start + size`, or the end of `bytes`.
  ///
  /// `quoted: false` is for JSON Lines, where a line end is always a record's (a JSON
  /// string holds no raw line end), so quotes are not counted.
  package static func window(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int, size: Int = windowBytes, quoted: Bool = true
  ) -> Range<Int> {
    let n = bytes.count
    guard n - start > size, let cut = recordEnd(in: bytes, base: start, from: start + size, quoted: quoted) else {
      return start..<n
    }
    return start..<cut
  }

  /// `window` cut into at most `count` parts of about equal size at record ends, in order.
  package static func parts(
    of window: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, count: Int, quoted: Bool = true
  ) -> [Range<Int>] {
    var parts: [Range<Int>] = []
    var start = window.lowerBound
    let size = window.count / max(1, count)
    for k in 1..<max(1, count) {
      let target = window.lowerBound + k * size
      guard target > start, let cut = recordEnd(in: bytes, base: start, from: target, quoted: quoted),
        cut < window.upperBound
      else { break }
      parts.append(start..<cut)
      start = cut
    }
    parts.append(start..<window.upperBound)
    return parts
  }

  /// Reads `bytes[start...]` window by window: each window (`window`) is cut into at most
  /// `parts` parts (`parts(of:in:count:quoted:)`), the parts are read at the same time
  /// (`ParallelMap`) by `readPart`, and handed to `join` in file order with their ranges;
  /// then the window's pages of `mapped` are let go of (`MappedInputFile.release`).
  ///
  /// With `quoted`, a window is first cut at line ends without counting quotes, and each
  /// part's quotes are counted while it is read, on its core: when every part holds an
  /// even number of them, each cut has an even number before it, so the cuts are exactly
  /// those that counting first finds (the first safe line end at or after each target).
  /// Otherwise (a quoted field holds a line end near a cut) the window is cut again,
  /// counting quotes first, and read again. Counting first was a pass over every window
  /// on one core, and it was also where the mapped file's pages were first touched.
  ///
  /// - Returns: false as soon as `readPart` returns nil for a part of a window (that
  ///   window's parts are not joined, later windows are not read); true when every part
  ///   was read and joined.
  /// - Complexity: O(n) in the bytes from `start`, plus the parts' reading and joining;
  ///   memory: one window's parts at a time.
  package static func read<Part>(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, quoted: Bool = true, mapped: MappedInputFile?,
    windowBytes: Int = CSVChunks.windowBytes, parts: Int = ParallelMap.partCount,
    readPart: (Range<Int>) -> Part?, join: (Part, Range<Int>) -> Void
  ) -> Bool {
    var start = start
    while start < bytes.count {
      // Cut at line ends alone (`quoted: false`), counting each part's quotes as it is read.
      let window = Self.window(in: bytes, from: start, size: windowBytes, quoted: false)
      var cuts = Self.parts(of: window, in: bytes, count: parts, quoted: false)
      var read = ParallelMap.map(cuts) { range in
        (part: readPart(range), evenQuotes: !quoted || count(UInt8(ascii: "\""), in: bytes, range) % 2 == 0)
      }
      var end = window.upperBound
      if !read.allSatisfy(\.evenQuotes) {
        let counted = Self.window(in: bytes, from: start, size: windowBytes, quoted: true)
        cuts = Self.parts(of: counted, in: bytes, count: parts, quoted: true)
        read = ParallelMap.map(cuts) { (part: readPart($0), evenQuotes: true) }
        end = counted.upperBound
      }
      guard !read.contains(where: { $0.part == nil }) else { return false }
      for (part, cut) in zip(read, cuts) { join(part.part!, cut) }
      mapped?.release(before: end)
      start = end
    }
    return true
  }

  /// The rows to reserve for the whole of `remaining` bytes when a first part of
  /// `sampleBytes` bytes held `sampleRows` rows: the part's density, plus 1/16 and 64 rows.
  /// A reader's columns reserved so grow without copying unless the rest of the file is
  /// denser; capacity never written costs address space, not resident memory.
  ///
  /// - Complexity: O(1).
  package static func estimatedRows(_ sampleRows: Int, in sampleBytes: Int, remaining: Int) -> Int {
    guard sampleBytes > 0, sampleRows > 0 else { return 0 }
    let rows = Double(sampleRows) * Double(remaining) / Double(sampleBytes)
    return Int(min(rows * 17 / 16, Double(Int32.max))) + 64
  }

  /// The offset just after the first safe line end (`safeLineEnd`) at or after `from` that
  /// lies outside quotes: with `quoted`, after an even number of `"` bytes counted from
  /// `base`, a record boundary (a `""` inside a quoted field counts twice, so the parity
  /// says whether a byte is inside a quoted field). Nil when there is none.
  static func recordEnd(in bytes: UnsafeBufferPointer<UInt8>, base: Int, from: Int, quoted: Bool) -> Int? {
    guard quoted else { return safeLineEnd(in: bytes, from: from) }
    var quotes = count(UInt8(ascii: "\""), in: bytes, base..<from)
    var i = from
    while let cut = safeLineEnd(in: bytes, from: i) {
      quotes += count(UInt8(ascii: "\""), in: bytes, i..<cut)
      if quotes % 2 == 0 { return cut }
      i = cut
    }
    return nil
  }

  /// The number of LF bytes in `bytes[range]`. O(n), eight bytes at a time: line feeds
  /// are dense, and `count`'s one `memchr` call per hit cost a call per line.
  package static func lineFeeds(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    denseCount(UInt8(ascii: "\n"), in: bytes, range)
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

  /// The number of `byte`s in `bytes[range]`, for a byte that is rare (a quote): one
  /// `memchr` from one to the next, which skips a stretch without it at `memchr`'s speed.
  /// O(n).
  static func count(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var found = 0
    var i = range.lowerBound
    while i < range.upperBound, let hit = memchr(base + i, Int32(byte), range.upperBound - i) {
      found += 1
      i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
    }
    return found
  }

  /// The number of `byte`s in `bytes[range]`, for a byte that is common (a line feed):
  /// eight bytes at a time, a byte equal to `byte` being a zero byte of `x ^ pattern`,
  /// counted exactly (`zeroBytes`). O(n).
  static func denseCount(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    guard let base = bytes.baseAddress, !range.isEmpty else { return 0 }
    let raw = UnsafeRawPointer(base)
    let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
    var found = 0
    var i = range.lowerBound
    while i &+ 8 <= range.upperBound {
      let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ pattern
      found &+= zeroBytes(x)
      i &+= 8
    }
    while i < range.upperBound {
      if base[i] == byte { found &+= 1 }
      i &+= 1
    }
    return found
  }

  /// The number of zero bytes in `x`, exactly: bit 7 of each byte of `t` is set when its
  /// low seven bits are not all zero, `t | x` has it set when the byte is not zero.
  @inline(__always)
  static func zeroBytes(_ x: UInt64) -> Int {
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let t = (x & low7) &+ low7
    let nonZero = (t | x) & 0x8080_8080_8080_8080
    return 8 &- nonZero.nonzeroBitCount
  }
}

