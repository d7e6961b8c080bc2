/// An RFC 4180 tokenizer over UTF-8 bytes: one record at a time, fields as byte ranges.
///
/// The reader never copies a field it does not have to: an unquoted field, and a quoted
/// field without a doubled quote, are slices of the input; only a quoted field that contains
/// `""` is unescaped, into a scratch buffer owned by the reader. No `String` is created.
///
/// Accepted input:
/// - an optional UTF-8 byte order mark at the very start (skipped);
/// - records separated by LF or CRLF; the last record may or may not end with one;
/// - fields separated by `,`; a field is either unquoted (no `"`, `,`, LF inside, and no CR
///   except just before a LF, where it is part of the line end, or as the input's last
///   byte) or quoted (`"…"`, where `""` stands for one `"` and `,`, CR and LF are data;
///   line numbers keep counting inside it);
/// - blank lines at the very end of the input.
///
/// The first record is the header. Every later record must have as many fields as the
/// header. Problems are reported with the byte offset, line and column where they are:
/// `empty line`, `unterminated quoted field: this quote is never closed` (at the opening
/// quote, where a person must look), `unexpected '"' inside an unquoted field`,
/// `text after a closing quote`, `expected N fields as in the header, found M`,
/// `invalid UTF-8`, `NUL byte`, a CR outside quotes that is not followed by a LF
/// (`carriage return (CR) without a line feed`: CR-only line ends are refused, never read
/// as one long line), and a record longer than `InputLimits.maximumLineBytes` (at the
/// first byte past the limit). After a problem the reader resumes at the next record, so a
/// caller can report every bad record; at most one problem, the earliest in the record, is
/// reported per record.
///
/// Memory is bounded by the line limit, whatever the input: fields that end past
/// `InputLimits.maximumLineBytes` bytes from the record's start are scanned (to find where
/// the record ends) but neither kept nor unescaped, so a record of 100 MB of commas holds
/// at most about one field per byte of its first MiB.
///
/// ```swift
/// bytes.withUnsafeBufferPointer { buffer in
///   var csv = CSVReader(buffer)
///   while true {
///     switch csv.next() {
///     case .record: let first = csv.field(0)   // UnsafeBufferPointer<UInt8>
///     case .problem(let problem): print(problem.line, problem.column, problem.message)
///     case .end: return
///     }
///   }
/// }
/// ```
///
/// The reader borrows `bytes`: it must stay valid while the reader is used. Field buffers
/// returned by `field(_:)` are valid until the next call to `next()`.
public struct CSVReader {
  /// One field of the current record.
  public struct Field: Sendable, Hashable {
    /// The field's content: a range of the input, or of the scratch buffer when `isUnescaped`.
    @usableFromInline package var start: Int
    @usableFromInline package var end: Int
    /// Offset in the input of the field's first byte (its opening quote when quoted).
    public var sourceStart: Int
    /// True when the field was written in quotes.
    public var isQuoted: Bool
    /// True when the content lives in the scratch buffer (the field contained `""`).
    public var isUnescaped: Bool
  }

  /// A syntax problem at one place in the input.
  public struct SyntaxError: Error, Sendable, Hashable {
    /// 0-based byte offset in the input (the BOM, when present, counts).
    public var offset: Int
    /// 1-based line.
    public var line: Int
    /// 1-based column in Unicode scalars.
    public var column: Int
    /// What is wrong, no trailing period.
    public var message: String
  }

  /// What `next()` found.
  public enum Step: Sendable, Equatable {
    /// A well-formed record: read it with `fieldCount`, `field(_:)`, `recordLine`.
    case record
    /// A malformed record (skipped); the reader continues after it.
    case problem(SyntaxError)
    /// No more records.
    case end
  }

  /// The input.
  public let bytes: UnsafeBufferPointer<UInt8>
  /// Offset of the next unread byte.
  public private(set) var offset: Int
  /// The number of fields every record must have; set by the first record (the header).
  public private(set) var expectedFieldCount: Int?
  /// 1-based line on which the current record starts.
  public private(set) var recordLine = 1
  /// Offset of the current record's first byte.
  public private(set) var recordStart = 0

  /// Whether `next()` reads a plain record by `nextPlainRecord()`. Always true but in a
  /// test, which reads with false for the general path's result to compare with.
  var readsPlainRecordsFast = true
  private var line = 1
  private var lineStart = 0
  private var recordLineStart = 0
  /// The current record's fields are `fields[..<fieldCount]`: the array only grows, and
  /// a record overwrites the last one's fields in place (clearing it each record was a
  /// call of its own, about 3 % of reading a visit log).
  @usableFromInline package var fields: [Field] = []
  @usableFromInline package let scratch = ScratchBytes()
  private var scratchCount = 0

  /// Starts reading `bytes`, skipping a UTF-8 byte order mark.
  public init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    var start = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
    offset = start
    lineStart = start
    recordStart = start
    recordLineStart = start
    fields.reserveCapacity(16)
  }

  /// Starts reading `bytes`, a part of a file that begins at a record boundary after the
  /// header (`CSVChunks`), as if its records followed a header of `expectedFieldCount`
  /// fields. No byte order mark is skipped; lines count from 1 within the part, so the
  /// positions of problems are not the file's (a chunked reader reads the file again from
  /// its start to report them).
  package init(chunk bytes: UnsafeBufferPointer<UInt8>, expectedFieldCount: Int) {
    self.bytes = bytes
    offset = 0
    self.expectedFieldCount = expectedFieldCount
    fields.reserveCapacity(16)
  }

  /// The number of fields in the current record.
  public private(set) var fieldCount = 0

  /// The bytes of field `index` of the current record, unescaped; valid until `next()`.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    precondition(index < fieldCount, "CSVReader.field: index out of range")
    let f = fields[index]
    if f.isUnescaped {
      return UnsafeBufferPointer(start: scratch.pointer + f.start, count: f.end - f.start)
    }
    return UnsafeBufferPointer(rebasing: bytes[f.start..<f.end])
  }

  /// Where field `index` of the current record is in the input.
  public func fieldInfo(_ index: Int) -> Field {
    precondition(index < fieldCount, "CSVReader.fieldInfo: index out of range")
    return fields[index]
  }

  /// The input offset of byte `k` of field `index`'s content (`k` may equal the content's
  /// length, meaning just after it). Accounts for the opening quote and for `""` escapes.
  ///
  /// - Complexity: O(1), or O(field length) for a field that contained `""`.
  public func sourceOffset(ofField index: Int, byte k: Int) -> Int {
    let f = fields[index]
    guard f.isQuoted else { return f.sourceStart + k }
    var source = f.sourceStart + 1
    guard f.isUnescaped else { return source + k }
    var remaining = k
    while remaining > 0 && source < bytes.count {
      source += bytes[source] == UInt8(ascii: "\"") ? 2 : 1
      remaining -= 1
    }
    return source
  }

  /// Line and column of a byte offset at or after the start of the current record.
  ///
  /// Only for reporting problems: O(distance from the record start).
  public func position(ofByte target: Int) -> TextPosition {
    var line = recordLine
    var start = recordLineStart
    var i = recordStart
    let end = min(target, bytes.count)
    while i < end {
      if bytes[i] == UInt8(ascii: "\n") {
        line += 1
        start = i + 1
      }
      i += 1
    }
    var column = 1
    var k = start
    while k < end {
      if bytes[k] & 0xC0 != 0x80 { column += 1 }
      k += 1
    }
    return TextPosition(line: line, column: column)
  }

  private func problem(at offset: Int, _ message: String) -> SyntaxError {
    let p = position(ofByte: offset)
    return SyntaxError(offset: offset, line: p.line, column: p.column, message: message)
  }
}

/// A growable byte buffer with a stable address between growths (the reader's scratch).
@usableFromInline
final package class ScratchBytes {
  @usableFromInline package var pointer: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int

  init() {
    capacity = 256
    pointer = .allocate(capacity: capacity)
  }

  /// Makes room for `count` bytes, keeping the first `keeping`.
  func reserve(_ count: Int, keeping: Int) {
    guard count > capacity else { return }
    var newCapacity = capacity
    while newCapacity < count { newCapacity &*= 2 }
    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    bigger.update(from: pointer, count: keeping)
    pointer.deallocate()
    pointer = bigger
    capacity = newCapacity
  }

  deinit { pointer.deallocate() }
}

extension CSVReader {
  private static let quote = UInt8(ascii: "\"")
  private static let comma = UInt8(ascii: ",")
  private static let newline = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")
  /// The message for a CR outside quotes that does not end a line.
  package static let loneCarriageReturn =
    "carriage return (CR) without a line feed: lines must end with LF or CRLF"
    + " (convert CR-only line ends first, e.g. with tr '\\r' '\\n')"

  /// Reads the next record.
  ///
  /// - Complexity: O(record length).
  public mutating func next() -> Step {
    fieldCount = 0
    scratchCount = 0
    let n = bytes.count
    guard offset < n else { return .end }
    recordStart = offset
    recordLine = line
    recordLineStart = lineStart

    if isAtLineEnd(offset) {
      if restIsBlank(from: offset) {
        offset = n
        return .end
      }
      let p = problem(at: offset, "empty line")
      skipLineEnd()
      return .problem(p)
    }
    if readsPlainRecordsFast, let step = nextPlainRecord() { return step }

    var firstProblem: SyntaxError?
    var firstNul = -1
    var firstLoneCR = -1
    let limitOffset = recordStart &+ InputLimits.maximumLineBytes
    while true {
      let fieldStart = offset
      var high: UInt8 = 0
      var contentStart = fieldStart
      var contentEnd: Int
      var isQuoted = false
      var hasEscape = false

      if offset < n && bytes[offset] == Self.quote {
        isQuoted = true
        var i = offset + 1
        contentStart = i
        while true {
          if i >= n {
            let p =
              firstProblem
              ?? problem(at: fieldStart, "unterminated quoted field: this quote is never closed")
            offset = n
            return .problem(p)
          }
          let c = bytes[i]
          if c == Self.quote {
            if i + 1 < n && bytes[i + 1] == Self.quote {
              hasEscape = true
              i += 2
              continue
            }
            break
          }
          if c == Self.newline {
            line += 1
            lineStart = i + 1
          } else if c == 0 && firstNul < 0 {
            firstNul = i
          }
          high |= c
          i += 1
        }
        contentEnd = i
        i += 1
        offset = i
        if i < n && bytes[i] != Self.comma && !isAtLineEnd(i) {
          if firstProblem == nil {
            firstProblem = problem(
              at: i, bytes[i] == Self.carriageReturn ? Self.loneCarriageReturn : "text after a closing quote")
          }
          var ignoredQuote = -1
          offset = scanUnquoted(
            from: i, high: &high, firstQuote: &ignoredQuote, firstNul: &firstNul,
            firstLoneCR: &firstLoneCR)
        }
      } else {
        var quote = -1
        offset = scanUnquoted(
          from: offset, high: &high, firstQuote: &quote, firstNul: &firstNul, firstLoneCR: &firstLoneCR)
        contentEnd = offset
        if contentEnd > contentStart && bytes[contentEnd - 1] == Self.carriageReturn
          && (offset == n || bytes[offset] == Self.newline)
        {
          contentEnd -= 1
        }
        if firstLoneCR >= 0, firstProblem == nil, quote < 0 || firstLoneCR < quote {
          firstProblem = problem(at: firstLoneCR, Self.loneCarriageReturn)
        }
        if quote >= 0, firstProblem == nil {
          firstProblem = problem(at: quote, "unexpected '\"' inside an unquoted field")
        }
      }

      if high & 0x80 != 0, firstProblem == nil,
        let bad = UTF8Validation.firstInvalidByte(in: bytes, contentStart..<contentEnd)
      {
        firstProblem = problem(at: bad, "invalid UTF-8")
      }
      if firstNul >= 0, firstProblem == nil {
        firstProblem = problem(at: firstNul, "NUL byte (0x00) in a field")
      }

      // Past the line limit the record is refused: its fields are scanned, not kept.
      if offset <= limitOffset {
        var field = Field(
          start: contentStart, end: contentEnd, sourceStart: fieldStart,
          isQuoted: isQuoted, isUnescaped: false)
        if hasEscape { unescape(&field) }
        appendField(field)
      }

      // After the field: a comma, a line end, or the end of the input.
      if offset < n && bytes[offset] == Self.comma {
        offset += 1
        continue
      }
      break
    }
    let recordEnd = offset
    skipLineEnd()

    if let firstProblem, firstProblem.offset < limitOffset { return .problem(firstProblem) }
    if recordEnd - recordStart > InputLimits.maximumLineBytes {
      return .problem(problem(at: limitOffset, InputLimits.lineTooLong(recordEnd - recordStart)))
    }
    if let firstProblem { return .problem(firstProblem) }
    guard let expected = expectedFieldCount else {
      expectedFieldCount = fieldCount
      return .record
    }
    if fieldCount != expected {
      let at = fieldCount > expected ? fields[expected].sourceStart : recordEnd
      return .problem(
        problem(at: at, "expected \(expected) fields as in the header, found \(fieldCount)"))
    }
    return .record
  }

  /// The record at `offset` when it is plain, as nearly every log row is: unquoted ASCII
  /// fields on one line that ends with a LF (or the input's end), no `"`, CR or NUL, the
  /// header's number of fields, within the line limit. Such a record reads as `next()`'s
  /// general path would read it, without its per-field checks: its bytes are scanned eight
  /// at a time for one below 0x2D (`,` LF `"` CR NUL among them) or above 0x7F, and only
  /// those are looked at. Nil, with the reader unchanged but for its fields, for any other
  /// record: the general path then reads it (and reports what is wrong with it).
  ///
  /// - Complexity: O(record length).
  @inline(__always)
  private mutating func nextPlainRecord() -> Step? {
    guard let base = bytes.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    let n = bytes.count
    let limit = min(n, recordStart &+ InputLimits.maximumLineBytes)
    var fieldStart = offset
    var i = offset
    // Eight bytes at a time; `flags` has bit 7 of each byte below 0x2D or above 0x7F set,
    // exactly (no borrow crosses bytes: each byte is ORed with 0x80 before 0x2D is taken
    // off), so every flagged byte of a word is looked at without loading it again.
    var flags: UInt64 = 0
    while i < limit {
      let width: Int
      if i &+ 8 <= limit {
        let x = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        flags = (~((x | 0x8080_8080_8080_8080) &- 0x2D2D_2D2D_2D2D_2D2D) | x) & 0x8080_8080_8080_8080
        width = 8
      } else {
        // The last bytes before `limit`, one at a time.
        let c = base[i]
        flags = c < 0x2D || c >= 0x80 ? 0x80 : 0
        width = 1
      }
      while flags != 0 {
        let stop = i &+ (flags.trailingZeroBitCount &>> 3)
        flags &= flags &- 1
        let c = base[stop]
        if c == Self.newline {
          // The record's end (`stop < limit`, so within the line limit): its last field,
          // then the line end.
          return endPlainRecord(fieldStart: fieldStart, at: stop)
        }
        if c == Self.comma {
          appendPlainField(fieldStart, stop)
          fieldStart = stop &+ 1
        } else if c >= 0x80 || c == Self.quote || c == Self.carriageReturn || c == 0 {
          fieldCount = 0
          return nil
        }
      }
      i &+= width
    }
    // No line feed before `limit`: the input's last line (without a line end) when `limit`
    // is the input's end; else past the line limit, which the general path reports.
    guard limit == n else {
      fieldCount = 0
      return nil
    }
    return endPlainRecord(fieldStart: fieldStart, at: n)
  }

  /// Ends a plain record whose last field ends at `end`, a line feed or the input's end:
  /// the record when it has the header's number of fields (the first record sets it), else
  /// nil with no fields, for the general path to report.
  @inline(__always)
  private mutating func endPlainRecord(fieldStart: Int, at end: Int) -> Step? {
    appendPlainField(fieldStart, end)
    if let expected = expectedFieldCount {
      guard fieldCount == expected else {
        fieldCount = 0
        return nil
      }
    } else {
      expectedFieldCount = fieldCount
    }
    if end < bytes.count {
      offset = end &+ 1
      line &+= 1
      lineStart = offset
    } else {
      offset = end
    }
    return .record
  }

  /// Sets the record's next field: overwrites the last record's field at `fieldCount`
  /// when there is one, else appends (`fields` keeps its elements from record to record).
  @inline(__always)
  private mutating func appendField(_ field: Field) {
    if fieldCount < fields.count { fields[fieldCount] = field } else { fields.append(field) }
    fieldCount &+= 1
  }

  /// `appendField` of an unquoted field of `start..<end` with nothing to unescape.
  @inline(__always)
  private mutating func appendPlainField(_ start: Int, _ end: Int) {
    appendField(Field(start: start, end: end, sourceStart: start, isQuoted: false, isUnescaped: false))
  }

  /// Scans an unquoted stretch up to a `,`, a LF or the end; returns where it stopped.
  /// `firstQuote` receives the offset of the first `"` met (left for the caller to report),
  /// `firstNul` that of the first NUL byte and `firstLoneCR` that of the first CR followed
  /// by neither a LF nor the end of the input, each when it is still negative;
  /// `high` collects the bits of every byte scanned (bit 7 set means non-ASCII was seen).
  ///
  /// Eight bytes at a time: every byte that needs a look is below 0x2D (`,` is 0x2C, `"`
  /// 0x22, LF 0x0A), so a word whose bytes are all >= 0x2D (letters, digits, `-`, `.`,
  /// `:`, `;`, `=`, non-ASCII) is skipped whole.
  @inline(__always)
  private func scanUnquoted(
    from start: Int, high: inout UInt8, firstQuote: inout Int, firstNul: inout Int,
    firstLoneCR: inout Int
  ) -> Int {
    var i = start
    let n = bytes.count
    var h = high
    guard let base = bytes.baseAddress else { return i }
    let raw = UnsafeRawPointer(base)
    var words: UInt64 = 0
    while true {
      var candidate = false
      while i &+ 8 <= n {
        let x = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        // High bit of byte k set when byte k < 0x2D (exact for the lowest such byte).
        let below = (x &- 0x2D2D_2D2D_2D2D_2D2D) & ~x & 0x8080_8080_8080_8080
        if below != 0 {
          let k = below.trailingZeroBitCount &>> 3
          words |= k == 0 ? 0 : x & (~UInt64(0) &>> UInt64(64 &- 8 &* k))
          i &+= k
          candidate = true
          break
        }
        words |= x
        i &+= 8
      }
      if !candidate {
        // Fewer than 8 bytes left: one at a time.
        while i < n {
          let c = bytes[i]
          if c == Self.comma || c == Self.newline { break }
          if c == Self.quote && firstQuote < 0 { firstQuote = i }
          if c == 0 && firstNul < 0 { firstNul = i }
          if c == Self.carriageReturn && firstLoneCR < 0 && !isAtLineEnd(i) { firstLoneCR = i }
          h |= c
          i &+= 1
        }
        break
      }
      let c = bytes[i]
      if c == Self.comma || c == Self.newline { break }
      if c == Self.quote && firstQuote < 0 { firstQuote = i }
      if c == 0 && firstNul < 0 { firstNul = i }
      if c == Self.carriageReturn && firstLoneCR < 0 && !isAtLineEnd(i) { firstLoneCR = i }
      i &+= 1
    }
    if words & 0x8080_8080_8080_8080 != 0 { h |= 0x80 }
    high = h
    return i
  }

  /// True at a LF, a CRLF, or a CR that ends the input.
  private func isAtLineEnd(_ i: Int) -> Bool {
    let c = bytes[i]
    if c == Self.newline { return true }
    if c == Self.carriageReturn {
      return i + 1 == bytes.count || bytes[i + 1] == Self.newline
    }
    return false
  }

  /// Moves past a LF or CRLF (or a final CR) at `offset`, counting the line.
  private mutating func skipLineEnd() {
    let n = bytes.count
    guard offset < n else { return }
    if bytes[offset] == Self.carriageReturn { offset += 1 }
    if offset < n && bytes[offset] == Self.newline {
      offset += 1
      line += 1
      lineStart = offset
    }
  }

  private func restIsBlank(from start: Int) -> Bool {
    var i = start
    while i < bytes.count {
      if bytes[i] != Self.newline && bytes[i] != Self.carriageReturn { return false }
      i += 1
    }
    return true
  }

  /// Copies a quoted field's content into the scratch buffer with `""` turned into `"`.
  private mutating func unescape(_ field: inout Field) {
    let length = field.end - field.start
    scratch.reserve(scratchCount + length, keeping: scratchCount)
    let out = scratch.pointer
    let begin = scratchCount
    var w = scratchCount
    var i = field.start
    while i < field.end {
      let c = bytes[i]
      out[w] = c
      w += 1
      i += c == Self.quote ? 2 : 1
    }
    field.start = begin
    field.end = w
    field.isUnescaped = true
    scratchCount = w
  }
}
