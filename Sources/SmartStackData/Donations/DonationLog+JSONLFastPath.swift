import SmartStackBase

// The fast path of the JSON Lines reader: one flat donation object read straight from the
// bytes, without a JSON tree or intermediate Strings.

/// One JSON Lines row in the common, flat form, located in the file:
///
///     {"timestamp":"…","user":"…","kind":"…","intent":"…"|null,"parameters":{"k":"v",…}|null,
///      "utc_offset":-18000|null}
///
/// with any of the six fields in any order (`utc_offset` as a plain integer: an optional
/// `-`, digits without a leading zero, within ±`UTCOffset.limit`) (absent ones as the general reader treats
/// them), whitespace between tokens, and strings without escapes or control characters
/// (UTF-8 is checked as the general parser checks it; keys must be ASCII).
///
/// `scan` accepts only rows that the general reader would read *without a problem*, and
/// `append` adds exactly the donation the general reader would add. Anything else —
/// unknown or repeated keys, other value types, escapes, an empty or bad timestamp, an
/// empty kind or parameter name, a byte order mark, trailing text — makes `scan` return
/// nil, and the caller reads the line with the general parser, which reports every
/// problem with the same messages as ever. No state changes before `scan` succeeds.
struct JSONLinesFastRow {
  var timestamp: Range<Int>? = nil
  var user: Range<Int>? = nil
  var kind: Range<Int>? = nil
  var intent: Range<Int>? = nil
  /// Parameter names and values, in file order (reused between rows).
  var parameters: [(key: Range<Int>, value: Range<Int>)] = []
  /// The `parameters` object as written, `{` to `}`, when it has a pair.
  var parametersText: Range<Int>? = nil
  /// Each distinct `parameters` object text this row reader has added, with the set id it
  /// was given in the sink (`append`): a text seen before is neither decoded nor looked up
  /// again, as in the CSV reader.
  private var parameterTexts = ParameterTextCache()
  /// The instant read from `timestamp` (epoch ms).
  var milliseconds: Int64 = 0
  /// The row's own UTC offset: `utc_offset` when given and not null, else the numeric
  /// offset written in `timestamp`, else `UTCOffset.none` (as the general reader takes it).
  var utcOffset: Int32 = UTCOffset.none
  /// The kind of a naive `timestamp` (nil for one with `Z` or an offset), for the
  /// caller to note (`LocalTimeReport`) as the general reader does.
  var localTime: LocalTimeKind? = nil
  /// The `utc_offset` value read, or `UTCOffset.none` (absent or null).
  private var offsetField: Int32 = UTCOffset.none

  private var seen: UInt8 = 0
  private static let timestampBit: UInt8 = 1
  private static let userBit: UInt8 = 2
  private static let kindBit: UInt8 = 4
  private static let intentBit: UInt8 = 8
  private static let parametersBit: UInt8 = 16
  private static let utcOffsetBit: UInt8 = 32

  /// Reads the line starting at `start` (which holds no `\n` before its end). Returns
  /// the offset of the line's end (its `\n`, or the end of the buffer) when the line is
  /// a flat donation row the general reader accepts as it is; nil otherwise.
  ///
  /// - Complexity: O(line length).
  mutating func scan(_ b: UnsafeBufferPointer<UInt8>, from start: Int, timeZone: ZoneRules) -> Int?
  {
    timestamp = nil
    user = nil
    kind = nil
    intent = nil
    // Most rows have no parameters, or their text is cached and never decoded: skip
    // removeAll's generic replaceSubrange (0.8 % of the ingest bench's samples) then.
    if !parameters.isEmpty { parameters.removeAll(keepingCapacity: true) }
    parametersText = nil
    offsetField = UTCOffset.none
    seen = 0
    // A byte order mark is the general reader's business.
    if start == 0 && b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { return nil }
    var i = Self.skipSpace(b, start)
    guard i < b.count, b[i] == UInt8(ascii: "{") else { return nil }
    i = Self.skipSpace(b, i + 1)
    guard i < b.count, b[i] == UInt8(ascii: "\"") else { return nil }  // `{}` lacks the required keys
    while true {
      // Every key, not only the first, must open with a quote (`Self.string` takes the
      // byte at `i` as the quote without looking at it).
      guard i < b.count, b[i] == UInt8(ascii: "\"") else { return nil }
      guard let key = Self.string(b, at: i, asciiOnly: true) else { return nil }
      i = Self.skipSpace(b, key.upperBound + 1)
      guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
      i = Self.skipSpace(b, i + 1)
      guard i < b.count else { return nil }
      let field = Self.field(b, key)
      guard field != 0, seen & field == 0 else { return nil }  // unknown or repeated
      seen |= field
      if field == Self.parametersBit {
        guard let after = scanParameters(b, at: i) else { return nil }
        if !parameters.isEmpty { parametersText = i..<after }
        i = after
      } else if field == Self.utcOffsetBit {
        if let after = Self.null(b, at: i) {
          i = after
        } else {
          guard let (value, after) = Self.offset(b, at: i) else { return nil }
          offsetField = value
          i = after
        }
      } else if b[i] == UInt8(ascii: "\"") {
        guard let value = Self.string(b, at: i, asciiOnly: false) else { return nil }
        switch field {
        case Self.timestampBit: timestamp = value
        case Self.userBit: user = value
        case Self.kindBit: kind = value
        default: intent = value
        }
        i = value.upperBound + 1
      } else if field == Self.userBit || field == Self.intentBit, let after = Self.null(b, at: i) {
        i = after
      } else {
        return nil
      }
      i = Self.skipSpace(b, i)
      guard i < b.count else { return nil }
      if b[i] == UInt8(ascii: "}") { break }
      guard b[i] == UInt8(ascii: ",") else { return nil }
      i = Self.skipSpace(b, i + 1)
    }
    i = Self.skipSpace(b, i + 1)
    guard i == b.count || b[i] == UInt8(ascii: "\n") else { return nil }

    // What the general reader checks on the values.
    guard let timestamp, !timestamp.isEmpty, let kind, !kind.isEmpty else { return nil }
    let timestampBytes = UnsafeBufferPointer(rebasing: b[timestamp])
    var written = UTCOffset.none
    switch timeZone.instant(parsing: timestampBytes, local: &localTime, utcOffset: &written) {
    case .success(let instant):
      milliseconds = instant.milliseconds
      utcOffset = offsetField != UTCOffset.none ? offsetField : written
    case .failure: return nil
    }
    return i
  }

  /// The parameters object (or `null`) at `i`; returns the offset after it.
  private mutating func scanParameters(_ b: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
    if let after = Self.null(b, at: start) { return after }
    guard b[start] == UInt8(ascii: "{") else { return nil }
    var i = Self.skipSpace(b, start + 1)
    guard i < b.count else { return nil }
    if b[i] == UInt8(ascii: "}") { return i + 1 }
    while true {
      guard i < b.count, b[i] == UInt8(ascii: "\"") else { return nil }
      guard let key = Self.string(b, at: i, asciiOnly: true), !key.isEmpty else { return nil }
      for p in parameters where Self.equal(b, p.key, key) { return nil }  // duplicate key
      i = Self.skipSpace(b, key.upperBound + 1)
      guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
      i = Self.skipSpace(b, i + 1)
      guard i < b.count, b[i] == UInt8(ascii: "\""),
        let value = Self.string(b, at: i, asciiOnly: false)
      else { return nil }
      parameters.append((key, value))
      i = Self.skipSpace(b, value.upperBound + 1)
      guard i < b.count else { return nil }
      if b[i] == UInt8(ascii: "}") { return i + 1 }
      guard b[i] == UInt8(ascii: ",") else { return nil }
      i = Self.skipSpace(b, i + 1)
    }
  }

  /// Adds the scanned row to `sink`, as the general reader adds it. Must be given the
  /// same sink every time (the set ids of the texts it has seen are kept).
  mutating func append<Sink: DonationSink>(_ b: UnsafeBufferPointer<UInt8>, to sink: inout Sink) {
    var set: Int32 = 0
    if let text = parametersText { set = parameterSet(b, text: text, sink: &sink) }
    let userID: Int32
    if let user, !user.isEmpty {
      userID = sink.intern(UnsafeBufferPointer(rebasing: b[user]), as: .user)
    } else {
      userID = sink.intern(Donation.defaultUser, as: .user)
    }
    var intentID: Int32 = -1
    if let intent, !intent.isEmpty {
      intentID = sink.intern(UnsafeBufferPointer(rebasing: b[intent]), as: .intent)
    }
    sink.append(
      timestamp: milliseconds, user: userID,
      kind: sink.intern(UnsafeBufferPointer(rebasing: b[kind ?? 0..<0]), as: .kind),
      intent: intentID, parameterSet: set, utcOffset: utcOffset)
  }

  /// The set id of the scanned parameters, whose object text is `text`: the id given to
  /// the same text before, else the pairs' names interned and the set interned.
  private mutating func parameterSet<Sink: DonationSink>(
    _ b: UnsafeBufferPointer<UInt8>, text: Range<Int>, sink: inout Sink
  ) -> Int32 {
    if Sink.cachesParameterTexts,
      let set = parameterTexts.set(of: UnsafeBufferPointer(rebasing: b[text]))
    {
      return set
    }
    var pairs: [ParameterID] = []
    pairs.reserveCapacity(parameters.count)
    for p in parameters {
      pairs.append(
        ParameterID(
          key: sink.intern(UnsafeBufferPointer(rebasing: b[p.key]), as: .parameterKey),
          value: sink.intern(UnsafeBufferPointer(rebasing: b[p.value]), as: .parameterValue)))
    }
    pairs.sort()
    let set = sink.internSet(pairs)
    if Sink.cachesParameterTexts { parameterTexts.keep(set) }
    return set
  }

  // MARK: - Tokens

  /// Space, tab and CR (a CR before the `\n` of CRLF files); `\n` ends the line.
  @inline(__always)
  private static func skipSpace(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
    var i = start
    while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0D { i += 1 }
    return i
  }

  /// The contents of the string whose opening quote is at `quote`, when it has no
  /// escape, no control character and valid UTF-8 (only ASCII with `asciiOnly`): keys
  /// compare as Swift Strings in the general parser, which equals byte equality for
  /// ASCII only.
  ///
  /// Eight bytes at a time while at least eight are left (`stops(_:)`): a word with no
  /// quote, backslash, control character or non-ASCII byte is passed over whole; else the
  /// first such byte is handled as the byte-at-a-time loop handles it, and the scan goes
  /// on after it (measured in docs/performance.md, "JSON Lines: strings eight bytes at a
  /// time, parameter texts kept").
  ///
  /// - Complexity: O(string length).
  @inline(__always)
  static func string(_ b: UnsafeBufferPointer<UInt8>, at quote: Int, asciiOnly: Bool) -> Range<Int>?
  {
    guard let base = b.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    let n = b.count
    var i = quote + 1
    while i < n {
      if i &+ 8 <= n {
        let flags = stops(
          UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
        if flags == 0 {
          i &+= 8
          continue
        }
        i &+= flags.trailingZeroBitCount &>> 3
      }
      let c = b[i]
      if c == UInt8(ascii: "\"") { return quote + 1..<i }
      if c == UInt8(ascii: "\\") || c < 0x20 { return nil }
      if c < 0x80 {
        i += 1
      } else {
        guard !asciiOnly, let length = utf8SequenceLength(b, at: i) else { return nil }
        i += length
      }
    }
    return nil
  }

  /// Bit 7 set in the bytes of `word` (little-endian: the first byte lowest) that a
  /// string scan must stop at: `"` (0x22), `\` (0x5C), below 0x20, or 0x80 and above.
  /// The lowest set bit is exactly the first such byte, and the result is 0 exactly when
  /// there is none; a bit above the lowest may be set for a byte that is not one (a
  /// borrow carried up from a byte that is), so only the lowest is used.
  @inline(__always)
  static func stops(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let zeroQuote = (quotes &- ones) & ~quotes
    let zeroBackslash = (backslashes &- ones) & ~backslashes
    let control = (word &- ones &* 0x20) & ~word
    return (zeroQuote | zeroBackslash | control | word) & highs
  }

  /// `null` at `i` (not followed by a letter, digit or `_`); the offset after it.
  @inline(__always)
  private static func null(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
    guard i + 4 <= b.count, b[i] == UInt8(ascii: "n"), b[i + 1] == UInt8(ascii: "u"),
      b[i + 2] == UInt8(ascii: "l"), b[i + 3] == UInt8(ascii: "l")
    else { return nil }
    if i + 4 < b.count && JSONScanner.isWordByte(b[i + 4]) { return nil }
    return i + 4
  }

  /// A `utc_offset` integer at `i` that the general reader takes without a problem (an
  /// optional `-`, 1 to 5 digits, no leading zero, no fraction or exponent, within
  /// ±`UTCOffset.limit`) and the offset after it; nil for anything else.
  @inline(__always)
  private static func offset(_ b: UnsafeBufferPointer<UInt8>, at start: Int) -> (Int32, Int)? {
    var i = start
    let negative = i < b.count && b[i] == UInt8(ascii: "-")
    if negative { i += 1 }
    let first = i
    var value: Int32 = 0
    while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
      value = value * 10 + Int32(b[i] - UInt8(ascii: "0"))
      guard value <= UTCOffset.limit else { return nil }
      i += 1
    }
    guard i > first, i - first == 1 || b[first] != UInt8(ascii: "0") else { return nil }
    if i < b.count,
      b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")
    {
      return nil
    }
    return (negative ? -value : value, i)
  }

  /// The field bit of a key, 0 for an unknown key.
  @inline(__always)
  private static func field(_ b: UnsafeBufferPointer<UInt8>, _ key: Range<Int>) -> UInt8 {
    switch key.count {
    case 4:
      if matches(b, key, "user") { return userBit }
      if matches(b, key, "kind") { return kindBit }
    case 6:
      if matches(b, key, "intent") { return intentBit }
    case 9:
      if matches(b, key, "timestamp") { return timestampBit }
    case 10:
      if matches(b, key, "parameters") { return parametersBit }
      if matches(b, key, "utc_offset") { return utcOffsetBit }
    default:
      break
    }
    return 0
  }

  @inline(__always)
  private static func matches(
    _ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ name: StaticString
  ) -> Bool {
    guard range.count == name.utf8CodeUnitCount else { return false }
    let text = name.utf8Start
    for k in 0..<range.count where b[range.lowerBound + k] != text[k] { return false }
    return true
  }

  private static func equal(_ b: UnsafeBufferPointer<UInt8>, _ x: Range<Int>, _ y: Range<Int>)
    -> Bool
  {
    guard x.count == y.count else { return false }
    for k in 0..<x.count where b[x.lowerBound + k] != b[y.lowerBound + k] { return false }
    return true
  }

  /// The length of the well-formed UTF-8 sequence at `offset` (the general parser's
  /// rule: Unicode Table 3-7), or nil.
  private static func utf8SequenceLength(_ b: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
    let scanner = JSONScanner(bytes: b, position: offset, end: b.count)
    return scanner.utf8SequenceLength(at: offset)
  }
}
