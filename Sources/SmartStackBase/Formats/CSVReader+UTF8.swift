/// Strict UTF-8 validation over raw bytes (RFC 3629: no overlong forms, no surrogates,
/// nothing above U+10FFFF).
package enum UTF8Validation {
  /// The index of the first byte in `bytes[range]` that does not belong to a valid UTF-8
  /// sequence, or nil when the whole range is valid UTF-8.
  ///
  /// A sequence cut off by the end of the range is invalid at its first byte.
  ///
  /// - Complexity: O(*n*) in the length of the range.
  static package func firstInvalidByte(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var i = range.lowerBound
    let end = range.upperBound
    while i < end {
      let lead = bytes[i]
      if lead < 0x80 {
        i += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return i
      }
      if end - i < length { return i }
      let second = bytes[i + 1]
      if second < low || second > high { return i }
      var k = 2
      while k < length {
        if bytes[i + k] & 0xC0 != 0x80 { return i }
        k += 1
      }
      i += length
    }
    return nil
  }

  /// True when `bytes` is entirely valid UTF-8.
  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    firstInvalidByte(in: bytes, 0..<bytes.count) == nil
  }
}
