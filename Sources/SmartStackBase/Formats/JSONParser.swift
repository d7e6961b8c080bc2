/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// - One top-level value of any kind, with optional whitespace (space, tab, `\n`, `\r`)
///   around it. A UTF-8 byte order mark at the very start of the buffer is skipped
///   (RFC 8259 §8.1 allows ignoring it).
/// - Strings must be valid UTF-8 with every control character (U+0000...U+001F)
///   escaped; `\u` escapes must encode scalars (surrogates only in valid pairs).
/// - Numbers follow the RFC grammar: no leading zeros, no `+`, no `.5`, no `NaN` or
///   `Infinity`; a number whose magnitude rounds beyond `Double.greatestFiniteMagnitude`
///   is refused (`number out of range`), one that underflows becomes 0 or a subnormal.
/// - Duplicate object keys are refused (the second one is named), comparing keys as
///   Swift `String`s (canonically equivalent keys are duplicates, since lookups could
///   not tell them apart).
/// - Arrays and objects nest at most `maximumDepth` levels. The parser is iterative,
///   so no input can exhaust the stack, and it stops at the first error.
/// - One text holds at most `maximumValues` values (every scalar, array and object counts
///   one; keys do not), so the tree it builds is bounded whatever the input: the value
///   past the limit is refused, located at its first byte.
///
/// Offsets in results and errors are byte offsets into the whole buffer passed in.
///
/// - Complexity: O(n) in the size of the input, plus O(k) per object member for the
///   duplicate-key check on small objects (a hash set above 12 members).
public enum JSONParser {
  /// The deepest nesting of arrays and objects accepted; a top-level array is level 1.
  public static let maximumDepth = 256

  /// The most values one JSON text may hold: 250,000. Every scalar, array and object
  /// counts one, object keys do not. The parsed tree takes about 75–185 bytes a value
  /// (measured), and a value can be written in 2 bytes (`0,`), so without a limit a 20 MB
  /// document took 1.4 GB; with it, a tree stays under about 50 MB, and the process under
  /// 1.5 × the file + 100 MB. Real documents are far below it (the largest in `Datasets/`
  /// holds 143 values; docs/reliability.md, "Peak memory"); timelines allow more
  /// (`TimelineFile.maximumValues(fileBytes:)`).
  public static let maximumValues = 250_000

  /// The message for a text with more than `limit` values.
  static package func tooManyValues(_ limit: Int) -> String {
    "more than \(limit) values in one JSON document (a limit that bounds the memory a"
      + " document takes; split the data into several files or JSON Lines)"
  }

  /// Parses the whole buffer as one JSON text.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONNode {
    try parse(bytes, range: 0..<bytes.count)
  }

  /// Parses `bytes[range]` as one JSON text (e.g. one line of a JSON Lines file), with
  /// every offset relative to the start of `bytes`. A range reaching outside the buffer
  /// is clamped to it.
  public static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>
  ) throws(JSONParseError) -> JSONNode {
    try parse(bytes, range: range, maximumValues: maximumValues)
  }

  /// `parse(_:range:)` with another limit on the number of values (`JSONDecoding`'s
  /// `maximumValues`; tests).
  static package func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, maximumValues: Int
  ) throws(JSONParseError) -> JSONNode {
    let lower = min(max(range.lowerBound, 0), bytes.count)
    let upper = min(max(range.upperBound, lower), bytes.count)
    var scanner = JSONScanner(bytes: bytes, position: lower, end: upper)
    scanner.valueLimit = maximumValues
    if lower == 0, upper >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      scanner.position = 3
    }
    return try scanner.parseDocument()
  }

  /// Parses a whole byte array as one JSON text.
  public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONNode {
    try parse(bytes, range: 0..<bytes.count)
  }

  /// Parses `bytes[range]` as one JSON text, offsets relative to the start of `bytes`.
  public static func parse(_ bytes: [UInt8], range: Range<Int>) throws(JSONParseError) -> JSONNode {
    try parse(bytes, range: range, maximumValues: maximumValues)
  }

  /// `parse(_:range:)` with another limit on the number of values.
  static package func parse(
    _ bytes: [UInt8], range: Range<Int>, maximumValues: Int
  ) throws(JSONParseError) -> JSONNode {
    let result: Result<JSONNode, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
      do throws(JSONParseError) {
        return .success(try parse(buffer, range: range, maximumValues: maximumValues))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Parses the UTF-8 encoding of `text`.
  public static func parse(_ text: String) throws(JSONParseError) -> JSONNode {
    try parse(Array(text.utf8))
  }
}

/// The parser's state: a cursor over a byte range.
package struct JSONScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var position: Int
  let end: Int
  /// The most values `parseValueTree` reads before it refuses the text.
  var valueLimit = JSONParser.maximumValues
  /// The values read so far.
  var values = 0

  package init(bytes: UnsafeBufferPointer<UInt8>, position: Int, end: Int) {
    self.bytes = bytes
    self.position = position
    self.end = end
  }

  /// An array or object whose members are still being read.
  struct Frame {
    var isObject: Bool
    var offset: Int
    var elements: [JSONNode] = []
    var members: [JSONMember] = []
    /// The key of the member whose value is being read.
    var key = ""
    var keyOffset = 0
    /// All keys so far, once the object has more than `Frame.linearKeyLimit` members.
    var keySet: Set<String>? = nil

    static let linearKeyLimit = 12
  }

  mutating func skipWhitespace() {
    while position < end {
      switch bytes[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  var unexpectedEnd: JSONParseError {
    JSONParseError(offset: end, message: "unexpected end of input")
  }

  /// The value, then nothing but whitespace.
  mutating func parseDocument() throws(JSONParseError) -> JSONNode {
    skipWhitespace()
    let root = try parseValueTree()
    skipWhitespace()
    if position < end {
      throw JSONParseError(offset: position, message: "unexpected text after the JSON value")
    }
    return root
  }

  /// Reads one value starting at `position` (whitespace already skipped), iteratively:
  /// open arrays and objects wait on an explicit stack of frames.
  mutating func parseValueTree() throws(JSONParseError) -> JSONNode {
    var stack: [Frame] = []
    var node: JSONNode
    readValue: while true {
      guard position < end else { throw unexpectedEnd }
      let start = position
      if values >= valueLimit {
        throw JSONParseError(offset: start, message: JSONParser.tooManyValues(valueLimit))
      }
      values += 1
      switch bytes[position] {
      case UInt8(ascii: "{"):
        try checkDepth(stack.count, at: start)
        position += 1
        skipWhitespace()
        if position < end, bytes[position] == UInt8(ascii: "}") {
          position += 1
          node = JSONNode(.object([]), offset: start)
        } else {
          var frame = Frame(isObject: true, offset: start)
          try readKey(into: &frame, afterComma: nil)
          stack.append(frame)
          continue readValue
        }
      case UInt8(ascii: "["):
        try checkDepth(stack.count, at: start)
        position += 1
        skipWhitespace()
        if position < end, bytes[position] == UInt8(ascii: "]") {
          position += 1
          node = JSONNode(.array([]), offset: start)
        } else {
          stack.append(Frame(isObject: false, offset: start))
          continue readValue
        }
      default:
        node = try parseScalar()
      }

      // `node` is complete: hand it to the innermost open container, closing as many
      // containers as end here.
      while let top = stack.indices.last {
        skipWhitespace()
        guard position < end else { throw unexpectedEnd }
        let byte = bytes[position]
        if stack[top].isObject {
          stack[top].members.append(
            JSONMember(key: stack[top].key, keyOffset: stack[top].keyOffset, node: node))
          if byte == UInt8(ascii: ",") {
            let comma = position
            position += 1
            skipWhitespace()
            try readKey(into: &stack[top], afterComma: comma)
            continue readValue
          }
          guard byte == UInt8(ascii: "}") else {
            throw JSONParseError(
              offset: position, message: "expected ',' or '}' after an object member")
          }
          position += 1
          let frame = stack.removeLast()
          node = JSONNode(.object(frame.members), offset: frame.offset)
        } else {
          stack[top].elements.append(node)
          if byte == UInt8(ascii: ",") {
            let comma = position
            position += 1
            skipWhitespace()
            if position < end, bytes[position] == UInt8(ascii: "]") {
              throw JSONParseError(offset: comma, message: "trailing ',' before ']' is not allowed")
            }
            continue readValue
          }
          guard byte == UInt8(ascii: "]") else {
            throw JSONParseError(
              offset: position, message: "expected ',' or ']' after an array element")
          }
          position += 1
          let frame = stack.removeLast()
          node = JSONNode(.array(frame.elements), offset: frame.offset)
        }
      }
      return node
    }
  }

  func checkDepth(_ openContainers: Int, at offset: Int) throws(JSONParseError) {
    if openContainers >= JSONParser.maximumDepth {
      throw JSONParseError(
        offset: offset, message: "nesting deeper than \(JSONParser.maximumDepth) levels")
    }
  }

  /// Reads `"key"` and `:` and the whitespace after it, refusing a duplicate key.
  /// `afterComma` is the offset of the `,` before the key, nil for an object's first key.
  mutating func readKey(into frame: inout Frame, afterComma comma: Int?) throws(JSONParseError) {
    guard position < end else { throw unexpectedEnd }
    guard bytes[position] == UInt8(ascii: "\"") else {
      if let comma, bytes[position] == UInt8(ascii: "}") {
        throw JSONParseError(offset: comma, message: "trailing ',' before '}' is not allowed")
      }
      throw JSONParseError(
        offset: position,
        message: comma == nil ? "expected a string key or '}'" : "expected a string key after ','")
    }
    let keyOffset = position
    let key = try parseString()
    if frame.keySet == nil, frame.members.count < Frame.linearKeyLimit {
      for member in frame.members where member.key == key {
        throw JSONParseError(
          offset: keyOffset, message: "duplicate key \(JSONEscaping.quoted(key))")
      }
    } else {
      var keys = frame.keySet ?? Set(frame.members.map(\.key))
      frame.keySet = nil  // keep `keys` uniquely referenced while inserting
      let inserted = keys.insert(key).inserted
      frame.keySet = keys
      if !inserted {
        throw JSONParseError(
          offset: keyOffset, message: "duplicate key \(JSONEscaping.quoted(key))")
      }
    }
    skipWhitespace()
    guard position < end else { throw unexpectedEnd }
    guard bytes[position] == UInt8(ascii: ":") else {
      throw JSONParseError(offset: position, message: "expected ':' after an object key")
    }
    position += 1
    skipWhitespace()
    frame.key = key
    frame.keyOffset = keyOffset
  }

  /// A string, number or literal at `position` (not at the end).
  mutating func parseScalar() throws(JSONParseError) -> JSONNode {
    let start = position
    let byte = bytes[position]
    switch byte {
    case UInt8(ascii: "\""):
      return JSONNode(.string(try parseString()), offset: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "_"):
      return try parseLiteral()
    case UInt8(ascii: "'"):
      throw JSONParseError(
        offset: start, message: "strings must be in double quotes, not single quotes")
    case UInt8(ascii: "+"), UInt8(ascii: "."):
      throw JSONParseError(offset: start, message: "a number must start with a digit or '-'")
    default:
      if byte >= 0x80, utf8SequenceLength(at: start) == nil {
        throw JSONParseError(offset: start, message: "invalid UTF-8")
      }
      throw JSONParseError(
        offset: start, message: "expected a value, found \(describeCharacter(at: start))")
    }
  }

  /// `true`, `false` or `null`; any other word is refused whole.
  mutating func parseLiteral() throws(JSONParseError) -> JSONNode {
    let start = position
    var wordEnd = position
    while wordEnd < end, Self.isWordByte(bytes[wordEnd]) { wordEnd += 1 }
    let word = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[start..<wordEnd]), as: UTF8.self)
    switch word {
    case "true":
      position = wordEnd
      return JSONNode(.bool(true), offset: start)
    case "false":
      position = wordEnd
      return JSONNode(.bool(false), offset: start)
    case "null":
      position = wordEnd
      return JSONNode(.null, offset: start)
    default:
      throw JSONParseError(offset: start, message: Self.invalidLiteralMessage(word))
    }
  }

  static package func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
      return true
    default:
      return false
    }
  }

  /// `invalid literal 'WORD'` plus a hint. `word` is ASCII letters, digits and `_`
  /// (with an optional leading `-`).
  static func invalidLiteralMessage(_ word: String) -> String {
    let shown = word.utf8.count > 40 ? String(word.prefix(40)) + "..." : word
    var bare = word.lowercased()
    if bare.hasPrefix("-") { bare.removeFirst() }
    let hint: String
    switch bare {
    case "nan", "inf", "infinity":
      hint = "NaN and Infinity are not allowed in JSON"
    case "true", "false", "null":
      hint = "did you mean '\(bare)'?"
    case "none", "nil", "undefined":
      hint = "did you mean 'null'?"
    default:
      hint = "strings must be in double quotes"
    }
    return "invalid literal '\(shown)' (\(hint))"
  }

  /// The character at `offset` for a message: `'x'` for a printable character,
  /// `U+XXXX` for a control character, `end of input` past the end.
  func describeCharacter(at offset: Int) -> String {
    guard offset < end else { return "end of input" }
    let byte = bytes[offset]
    if byte < 0x20 || byte == 0x7F { return JSONEscaping.scalarName(UInt32(byte)) }
    if byte < 0x80 { return "'\(Character(Unicode.Scalar(byte)))'" }
    guard let length = utf8SequenceLength(at: offset) else { return "invalid UTF-8" }
    let text = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
    let scalar = text.unicodeScalars.first.map { JSONEscaping.scalarName($0.value) } ?? "?"
    return "'\(text)' (\(scalar))"
  }
}
