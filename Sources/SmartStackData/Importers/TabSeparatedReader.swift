import SmartStackBase

/// A reader of tab-separated values over UTF-8 bytes, one line at a time, fields as byte
/// ranges of the input (nothing is copied, no `String` is made).
///
/// The format is the plain one that `pandas.read_csv(sep='\t')` and spreadsheet exports
/// write for data without tabs or line breaks inside fields: records end at LF (a CR just
/// before it is dropped), fields are separated by TAB, and quotes are ordinary
/// characters. An optional UTF-8 byte order mark at the start is skipped.
///
/// The first record is the header; every later record must have as many fields.
/// Problems, each at its line and column (columns in Unicode scalars): `empty line`
/// (blank lines at the very end are allowed), a CR that is not just before a LF (nor the
/// input's last byte): `carriage return (CR) without a line feed` (CR-only line ends are
/// refused, never read as one long line), a line longer than
/// `InputLimits.maximumLineBytes` (at the first byte past the limit), `invalid UTF-8`,
/// `NUL byte (0x00) in a field`, and
/// `expected N tab-separated fields as in the header, found M` (at the first extra
/// field, or at the end of a short line). After a problem the reader goes on with the
/// next line; one problem is reported per line (a lone CR first, then the limit).
///
/// - Complexity: O(n) in the input; one pass over each byte, plus a UTF-8 check of lines
///   with non-ASCII bytes. Memory: only fields that end within the line limit are kept,
///   so a line of 50 MB of tabs holds at most one range per byte of its first MiB.
struct TabSeparatedReader {
  enum Step: Equatable {
    case record
    case problem(offset: Int, message: String)
    case end
  }

  let bytes: UnsafeBufferPointer<UInt8>
  /// Offset of the next unread byte.
  private(set) var offset: Int
  /// 1-based line of the current record.
  private(set) var line = 0
  /// Offset of the current record's first byte.
  private(set) var lineStart = 0
  /// The current record's fields, as ranges of `bytes`.
  private(set) var fields: [Range<Int>] = []
  /// The header's field count, once read.
  private(set) var expectedFieldCount: Int?

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    let bom = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    offset = bom ? 3 : 0
    fields.reserveCapacity(8)
  }

  /// Field `index` of the current record.
  func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[fields[index]])
  }

  /// Reads the next line.
  mutating func next() -> Step {
    fields.removeAll(keepingCapacity: true)
    let n = bytes.count
    guard offset < n else { return .end }
    line += 1
    lineStart = offset
    var i = offset
    var fieldStart = offset
    var high: UInt8 = 0
    var firstNul = -1
    var firstLoneCR = -1
    let limitOffset = lineStart &+ InputLimits.maximumLineBytes
    while i < n {
      let c = bytes[i]
      if c == 0x0A { break }
      if c == 0x09 {
        if i <= limitOffset { fields.append(fieldStart..<i) }
        fieldStart = i + 1
      } else if c == 0 && firstNul < 0 {
        firstNul = i
      } else if c == 0x0D && firstLoneCR < 0 && i + 1 < n && bytes[i + 1] != 0x0A {
        firstLoneCR = i
      }
      high |= c
      i += 1
    }
    var end = i
    if end > fieldStart && bytes[end - 1] == 0x0D { end -= 1 }
    fields.append(fieldStart..<end)
    offset = i < n ? i + 1 : n

    if end == lineStart && fields.count == 1 {
      if restIsBlank() {
        offset = n
        return .end
      }
      return .problem(offset: lineStart, message: "empty line")
    }
    if firstLoneCR >= 0 && firstLoneCR < limitOffset {
      return .problem(offset: firstLoneCR, message: CSVReader.loneCarriageReturn)
    }
    if end - lineStart > InputLimits.maximumLineBytes {
      return .problem(
        offset: lineStart + InputLimits.maximumLineBytes,
        message: InputLimits.lineTooLong(end - lineStart))
    }
    if high & 0x80 != 0, let bad = UTF8Validation.firstInvalidByte(in: bytes, lineStart..<end) {
      return .problem(offset: bad, message: "invalid UTF-8")
    }
    if firstNul >= 0 { return .problem(offset: firstNul, message: "NUL byte (0x00) in a field") }
    guard let expected = expectedFieldCount else {
      expectedFieldCount = fields.count
      return .record
    }
    if fields.count != expected {
      let at = fields.count > expected ? fields[expected].lowerBound : end
      return .problem(
        offset: at,
        message: "expected \(expected) tab-separated fields as in the header, found \(fields.count)"
      )
    }
    return .record
  }

  /// The 1-based column of `offset` on the current line (Unicode scalars).
  func column(of target: Int) -> Int {
    var column = 1
    var k = lineStart
    let end = min(target, bytes.count)
    while k < end {
      if bytes[k] & 0xC0 != 0x80 { column += 1 }
      k += 1
    }
    return column
  }

  private func restIsBlank() -> Bool {
    var i = lineStart
    while i < bytes.count {
      if bytes[i] != 0x0A && bytes[i] != 0x0D { return false }
      i += 1
    }
    return true
  }
}
