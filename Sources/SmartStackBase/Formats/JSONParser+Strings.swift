extension JSONScanner {
  /// Reads the string whose opening quote is at `position` and moves past its closing
  /// quote.
  ///
  /// Errors: `unterminated string` at the opening quote when the input ends inside the
  /// string; `control character U+XXXX in a string must be escaped` and `invalid UTF-8`
  /// at the offending byte; `invalid escape '\q'`, `invalid \u escape` and
  /// `unpaired surrogate \udXXX` and `NUL character (\u0000) in a string` (refused as a
  /// raw NUL is) at the backslash of the escape.
  mutating func parseString() throws(JSONParseError) -> String {
    let quote = position
    var i = position + 1
    // Fast path: printable ASCII without escapes, decoded straight from the buffer.
    while i < end {
      let byte = bytes[i]
      if byte == UInt8(ascii: "\"") {
        position = i + 1
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[quote + 1..<i]), as: UTF8.self)
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
      i += 1
    }
    return try parseStringSlowly(quote: quote, from: i)
  }

  /// The general case, from `i` on: escapes, non-ASCII, errors.
  private mutating func parseStringSlowly(quote: Int, from start: Int) throws(JSONParseError)
    -> String
  {
    var i = start
    var text: [UInt8] = []
    text.reserveCapacity(start - quote + 16)
    text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[quote + 1..<start]))
    while i < end {
      let byte = bytes[i]
      switch byte {
      case UInt8(ascii: "\""):
        position = i + 1
        return String(decoding: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        i = try readEscape(at: i, quote: quote, into: &text)
      case 0..<0x20:
        throw JSONParseError(
          offset: i,
          message:
            "control character \(JSONEscaping.scalarName(UInt32(byte))) in a string must be escaped"
        )
      case 0x20..<0x80:
        text.append(byte)
        i += 1
      default:
        guard let length = utf8SequenceLength(at: i) else {
          throw JSONParseError(offset: i, message: "invalid UTF-8")
        }
        text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<i + length]))
        i += length
      }
    }
    throw JSONParseError(offset: quote, message: "unterminated string")
  }

  /// Decodes the escape whose backslash is at `backslash`, appends its UTF-8 to `text`,
  /// and returns the offset after it.
  private func readEscape(
    at backslash: Int, quote: Int, into text: inout [UInt8]
  ) throws(JSONParseError) -> Int {
    guard backslash + 1 < end else {
      throw JSONParseError(offset: quote, message: "unterminated string")
    }
    let escaped = bytes[backslash + 1]
    switch escaped {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
      text.append(escaped)
    case UInt8(ascii: "b"): text.append(0x08)
    case UInt8(ascii: "f"): text.append(0x0C)
    case UInt8(ascii: "n"): text.append(0x0A)
    case UInt8(ascii: "r"): text.append(0x0D)
    case UInt8(ascii: "t"): text.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try hex4(at: backslash + 2, backslash: backslash, quote: quote)
      switch unit {
      case 0xD800...0xDBFF:
        // A high surrogate must be followed at once by `\u` and a low surrogate.
        let next = backslash + 6
        if next + 1 < end, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u") {
          let low = try hex4(at: next + 2, backslash: next, quote: quote)
          if (0xDC00...0xDFFF).contains(low) {
            let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            Self.appendUTF8(scalar, to: &text)
            return backslash + 12
          }
        }
        throw JSONParseError(
          offset: backslash, message: "unpaired surrogate \(Self.escapeText(unit))")
      case 0xDC00...0xDFFF:
        throw JSONParseError(
          offset: backslash, message: "unpaired surrogate \(Self.escapeText(unit))")
      case 0:
        // Refused as a raw NUL byte is: no reader's text may hold one.
        throw JSONParseError(offset: backslash, message: "NUL character (\\u0000) in a string")
      default:
        Self.appendUTF8(unit, to: &text)
        return backslash + 6
      }
    default:
      let shown: String
      if escaped >= 0x21 && escaped < 0x7F {
        shown = "invalid escape '\\\(Character(Unicode.Scalar(escaped)))'"
      } else {
        shown = "invalid escape: '\\' followed by \(describeCharacter(at: backslash + 1))"
      }
      throw JSONParseError(offset: backslash, message: shown)
    }
    return backslash + 2
  }

  /// The four hex digits at `offset...offset + 3` of a `\u` escape.
  private func hex4(at offset: Int, backslash: Int, quote: Int) throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for k in offset..<offset + 4 {
      guard k < end else { throw JSONParseError(offset: quote, message: "unterminated string") }
      let byte = bytes[k]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw JSONParseError(offset: backslash, message: "invalid \\u escape")
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// `\udXXX` in lowercase hex, as in `unpaired surrogate \ud800`.
  private static func escapeText(_ unit: UInt32) -> String {
    let hex = String(unit, radix: 16)
    return "\\u" + String(repeating: "0", count: max(0, 4 - hex.utf8.count)) + hex
  }

  /// Appends the UTF-8 encoding of a scalar value (not a surrogate, at most 0x10FFFF).
  static func appendUTF8(_ scalar: UInt32, to text: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      text.append(UInt8(scalar))
    case 0x80..<0x800:
      text.append(UInt8(0xC0 | scalar >> 6))
      text.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      text.append(UInt8(0xE0 | scalar >> 12))
      text.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      text.append(UInt8(0x80 | scalar & 0x3F))
    default:
      text.append(UInt8(0xF0 | scalar >> 18 & 0x07))
      text.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      text.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      text.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  /// The length of the well-formed UTF-8 sequence starting at `offset` (Unicode
  /// Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or nil.
  package func utf8SequenceLength(at offset: Int) -> Int? {
    let lead = bytes[offset]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F
    default: return nil
    }
    guard offset + length <= end, secondRange.contains(bytes[offset + 1]) else { return nil }
    for k in offset + 2..<offset + length where bytes[k] & 0xC0 != 0x80 { return nil }
    return length
  }
}
