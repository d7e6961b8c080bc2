/// A place in a text file as a person counts it: 1-based line and column.
///
/// `column` counts Unicode scalars from the start of the line, i.e. the UTF-8 bytes
/// that are not continuation bytes (`0b10xx_xxxx`); for ASCII text it is the byte column.
public struct TextPosition: Sendable, Hashable, CustomStringConvertible {
  /// 1-based line number.
  public var line: Int
  /// 1-based column, in Unicode scalars.
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// `LINE:COLUMN`.
  public var description: String { "\(line):\(column)" }
}

/// The start offset of every line of a UTF-8 buffer, for turning byte offsets into
/// `TextPosition`s when a problem is reported.
///
/// Lines end at `\n`; a `\r\n` pair is one line end (the `\r` is the last byte of its
/// line) and a lone `\r` is an ordinary byte. A buffer of `n` line feeds has `n + 1`
/// lines (the last one possibly empty).
///
/// Build it once per file, and only when there is something to report: construction
/// is a single pass over the bytes. The index keeps the bytes (sharing the storage of
/// an `[UInt8]` it is built from) because columns are counted in scalars.
public struct LineIndex: Sendable {
  /// The indexed bytes.
  public let bytes: [UInt8]
  /// `lineStarts[k]` is the byte offset where line `k + 1` begins; `lineStarts[0] == 0`.
  public let lineStarts: [Int]

  /// Indexes `bytes`. - Complexity: O(n) in the number of bytes.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var starts = [0]
    bytes.withUnsafeBufferPointer { buffer in
      for offset in buffer.indices where buffer[offset] == UInt8(ascii: "\n") {
        starts.append(offset + 1)
      }
    }
    self.lineStarts = starts
  }

  /// Indexes a copy of `bytes`. - Complexity: O(n) in the number of bytes.
  public init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.init(Array(bytes))
  }

  /// Indexes the UTF-8 encoding of `text`. - Complexity: O(n) in the number of bytes.
  public init(_ text: String) {
    self.init(Array(text.utf8))
  }

  /// The number of lines (at least 1).
  public var lineCount: Int { lineStarts.count }

  /// The line and column of the byte at `offset`.
  ///
  /// An offset at a line's `\n` is on that line (one column after its last character).
  /// Offsets below 0 are treated as 0 and offsets beyond the end as the end, so any
  /// integer is accepted.
  ///
  /// - Complexity: O(log lines + c), where c is the column.
  public func position(ofByte offset: Int) -> TextPosition {
    let offset = min(max(offset, 0), bytes.count)
    // The last line start <= offset.
    var low = 0
    var high = lineStarts.count
    while high - low > 1 {
      let mid = low + (high - low) / 2
      if lineStarts[mid] <= offset { low = mid } else { high = mid }
    }
    let start = lineStarts[low]
    var column = 1
    bytes.withUnsafeBufferPointer { buffer in
      for k in start..<offset where buffer[k] & 0b1100_0000 != 0b1000_0000 {
        column += 1
      }
    }
    return TextPosition(line: low + 1, column: column)
  }
}
