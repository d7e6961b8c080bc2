import Foundation

/// Line handling shared by the JSON Lines readers (donation logs, context files): where a
/// line ends, which lines are blank, and how one line is handed to a `JSONDecoding` so
/// that its positions are the whole file's.
package enum JSONLines {
  /// Calls `body(range, &json)` for each line of `buffer` that is not blank (`isBlank`),
  /// after making `json` read it (`decode`); `range` is the line's text in `json.bytes`.
  /// A line longer than `InputLimits.maximumLineBytes` is refused at its first byte past
  /// the limit, not read. Stops once `json` has reported as many problems as it takes.
  ///
  /// - Complexity: O(n) in the input's length, plus what `body` costs.
  package static func forEachLine(
    _ buffer: UnsafeBufferPointer<UInt8>, json: inout JSONDecoding, _ body: (Range<Int>, inout JSONDecoding) -> Void
  ) {
    var start = 0
    var line = 1
    while start < buffer.count && !json.problems.truncated {
      let end = lineEnd(buffer, from: start)
      if end - start > InputLimits.maximumLineBytes {
        decode(buffer, start..<start + InputLimits.maximumLineBytes + 1, line: line, json: &json)
        json.report(InputLimits.lineTooLong(end - start), at: json.bytes.count - 1)
      } else if !isBlank(buffer, start..<end) {
        let range = decode(buffer, start..<end, line: line, json: &json)
        body(range, &json)
      }
      start = end + 1
      line += 1
    }
  }

  /// Makes `json` read `buffer[range]`, the start of line `line` (at `range.lowerBound`),
  /// and returns where that text is in `json.bytes`. A line after the first is copied
  /// after a `\n`, so it is not at offset 0 (where a byte order mark would be skipped) and
  /// its columns count from the line's start, as in the whole file.
  @discardableResult
  package static func decode(
    _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int, json: inout JSONDecoding
  ) -> Range<Int> {
    let text = UnsafeBufferPointer(rebasing: buffer[range])
    if range.lowerBound == 0 {
      json.replaceText(Array(text), lineBase: line - 1)
      return 0..<text.count
    }
    var copy: [UInt8] = [0x0A]
    copy.append(contentsOf: text)
    json.replaceText(copy, lineBase: line - 2)
    return 1..<copy.count
  }

  /// The 1-based column (in characters, as `TextPosition` counts) of byte `offset` on
  /// the line starting at `start`.
  package static func column(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to offset: Int) -> Int {
    var column = 1
    for k in start..<offset where buffer[k] & 0b1100_0000 != 0b1000_0000 { column += 1 }
    return column
  }

  /// The offset of the first `\n` at or after `start`, or the end of the buffer.
  package static func lineEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = buffer.baseAddress, start < buffer.count else { return buffer.count }
    guard let found = memchr(base + start, 0x0A, buffer.count - start) else { return buffer.count }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }

  /// True for a line of spaces, tabs and CRs (and a byte order mark at the very start).
  package static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    var i = range.lowerBound
    if i == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = min(3, range.upperBound) }
    while i < range.upperBound {
      switch bytes[i] {
      case 0x20, 0x09, 0x0D: i += 1
      default: return false
      }
    }
    return true
  }
}
