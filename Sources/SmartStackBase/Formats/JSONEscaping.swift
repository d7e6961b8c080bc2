/// JSON string escaping (RFC 8259 §7), shared by the writer and by messages that quote
/// a key or a value.
public enum JSONEscaping {
  /// `text` as a JSON string literal, quotes included: `"` and `\` are escaped, the
  /// control characters U+0000...U+001F become `\b \f \n \r \t` or `\u00xx`
  /// (lowercase hex), and everything else (`/` and non-ASCII included) is kept as it is.
  ///
  /// - Complexity: O(n) in the UTF-8 length of `text`.
  public static func quoted(_ text: String) -> String {
    var result = ""
    appendQuoted(text, to: &result)
    return result
  }

  /// Appends `text` as a JSON string literal, quotes included, to `output`.
  ///
  /// - Complexity: O(n) in the UTF-8 length of `text`.
  public static func appendQuoted(_ text: String, to output: inout String) {
    guard text.utf8.contains(where: needsEscape) else {
      output.append("\"")
      output.append(text)
      output.append("\"")
      return
    }
    var bytes: [UInt8] = [UInt8(ascii: "\"")]
    bytes.reserveCapacity(text.utf8.count + 16)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
      case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
      case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
      case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0..<0x20:
        bytes += Array("\\u00".utf8)
        bytes += Array(hexDigits(byte, count: 2, uppercase: false).utf8)
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
    output.append(String(decoding: bytes, as: UTF8.self))
  }

  /// True for the bytes a JSON string cannot hold as they are.
  @inline(__always)
  static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
  }

  /// `U+XXXX` with at least four uppercase hex digits, as Unicode writes scalars.
  public static func scalarName(_ value: UInt32) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.utf8.count)) + hex
  }

  static func hexDigits(_ byte: UInt8, count: Int, uppercase: Bool) -> String {
    let hex = String(byte, radix: 16, uppercase: uppercase)
    return String(repeating: "0", count: max(0, count - hex.utf8.count)) + hex
  }
}
