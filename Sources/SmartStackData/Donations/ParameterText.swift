import SmartStackBase

/// The text form of donation parameters used by the CSV log's `parameters` column.
///
/// `key=value` pairs joined by `;`, for example `card=Acme;category=Grocery`. Inside a key
/// or a value, `%`, `;` and `=` are written as `%25`, `%3B` and `%3D`; a reader decodes any
/// `%XX` (hex digits in either case). The empty text means no parameters.
///
/// A reader rejects: a `%` not followed by two hex digits, `%00` (a NUL byte, refused as a
/// raw NUL in the file is), decoded bytes that are not
/// UTF-8, an empty pair (a stray `;`), a pair without `=`, a raw `=` inside a value, an
/// empty key, and a key that occurs twice.
public enum ParameterText {
  /// One problem in a parameters text: where (0-based byte offset in the text) and what.
  public struct Problem: Error, Sendable, Hashable {
    public var offset: Int
    public var message: String
  }

  /// Every problem found in one parameters text, in text order.
  public struct DecodingError: Error, Sendable, Hashable {
    public var problems: [Problem]
  }

  /// Encodes `parameters` in the given order: `key=value` joined by `;`, escaping `%`, `;`, `=`.
  public static func encode(_ parameters: [Parameter]) -> String {
    var out: [UInt8] = []
    for (i, p) in parameters.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ";")) }
      escape(p.key, into: &out)
      out.append(UInt8(ascii: "="))
      escape(p.value, into: &out)
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Decodes a parameters text into pairs, in written order, or every problem found.
  public static func decode(_ text: String) -> Result<[Parameter], DecodingError> {
    var text = text
    return text.withUTF8 { bytes in
      var parameters: [Parameter] = []
      var problems: [Problem] = []
      var decoder = Decoder()
      decoder.decode(bytes, problems: &problems) { key, value, _ in
        parameters.append(
          Parameter(String(decoding: key, as: UTF8.self), String(decoding: value, as: UTF8.self)))
      }
      return problems.isEmpty ? .success(parameters) : .failure(DecodingError(problems: problems))
    }
  }

  private static func escape(_ text: String, into out: inout [UInt8]) {
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "%"): out.append(contentsOf: [0x25, 0x32, 0x35])  // %25
      case UInt8(ascii: ";"): out.append(contentsOf: [0x25, 0x33, 0x42])  // %3B
      case UInt8(ascii: "="): out.append(contentsOf: [0x25, 0x33, 0x44])  // %3D
      default: out.append(byte)
      }
    }
  }

  /// A reusable decoder: holds scratch buffers so decoding allocates nothing per call once
  /// warmed up.
  struct Decoder {
    private var key: [UInt8] = []
    private var value: [UInt8] = []
    private var keySources: [Int] = []
    private var valueSources: [Int] = []
    /// Decoded keys seen in the current text, to find duplicates (texts hold a few pairs).
    private var seenKeys: [[UInt8]] = []

    /// Decodes `bytes`, calling `pair(key, value, pairOffset)` for each well-formed pair and
    /// appending every problem (in text order) to `problems`.
    ///
    /// - Complexity: O(n + p²) for n bytes and p pairs.
    mutating func decode(
      _ bytes: UnsafeBufferPointer<UInt8>, problems: inout [Problem],
      pair: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>, Int) -> Void
    ) {
      let n = bytes.count
      guard n > 0 else { return }
      seenKeys.removeAll(keepingCapacity: true)
      var start = 0
      while start <= n {
        var end = start
        while end < n && bytes[end] != UInt8(ascii: ";") { end += 1 }
        decodePair(bytes, start..<end, problems: &problems, pair: pair)
        start = end + 1
      }
    }

    private mutating func decodePair(
      _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, problems: inout [Problem],
      pair: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>, Int) -> Void
    ) {
      let start = range.lowerBound
      guard !range.isEmpty else {
        problems.append(Problem(offset: start, message: "empty parameter (a stray ';')"))
        return
      }
      guard let equals = range.first(where: { bytes[$0] == UInt8(ascii: "=") }) else {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        problems.append(
          Problem(offset: start, message: "parameter '\(text)' has no '=' (expected key=value)"))
        return
      }
      let before = problems.count
      if equals == start {
        problems.append(Problem(offset: start, message: "empty parameter name before '='"))
      }
      if let extra = (equals + 1..<range.upperBound).first(where: { bytes[$0] == UInt8(ascii: "=") }
      ) {
        problems.append(
          Problem(offset: extra, message: "unescaped '=' in a parameter value (write it as %3D)"))
      }
      Self.percentDecode(
        bytes, start..<equals, into: &key, sources: &keySources, problems: &problems)
      Self.percentDecode(
        bytes, equals + 1..<range.upperBound, into: &value, sources: &valueSources,
        problems: &problems)
      guard problems.count == before else { return }
      if seenKeys.contains(key) {
        let name = String(decoding: key, as: UTF8.self)
        problems.append(Problem(offset: start, message: "duplicate parameter '\(name)'"))
        return
      }
      seenKeys.append(key)
      key.withUnsafeBufferPointer { k in
        value.withUnsafeBufferPointer { v in pair(k, v, start) }
      }
    }

    /// Decodes `%XX` escapes of `bytes[range]` into `out`, remembering each output byte's
    /// source offset so a UTF-8 problem can be placed exactly.
    private static func percentDecode(
      _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8],
      sources: inout [Int], problems: inout [Problem]
    ) {
      out.removeAll(keepingCapacity: true)
      sources.removeAll(keepingCapacity: true)
      var i = range.lowerBound
      var escaped = false
      while i < range.upperBound {
        let c = bytes[i]
        if c == UInt8(ascii: "%") {
          if let high = hexValue(at: i + 1, in: bytes, before: range.upperBound),
            let low = hexValue(at: i + 2, in: bytes, before: range.upperBound)
          {
            if high == 0 && low == 0 {
              // Refused as a raw NUL byte in the field is.
              problems.append(Problem(offset: i, message: "'%00' (a NUL byte) in a parameter"))
            }
            out.append(high << 4 | low)
            sources.append(i)
            escaped = true
            i += 3
            continue
          }
          let shown = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[i..<min(i + 3, range.upperBound)]),
            as: UTF8.self)
          problems.append(
            Problem(
              offset: i,
              message: "bad percent escape '\(shown)': '%' must be followed by two hex digits"))
          i += 1
          continue
        }
        out.append(c)
        sources.append(i)
        i += 1
      }
      guard escaped else { return }
      let bad = out.withUnsafeBufferPointer {
        UTF8Validation.firstInvalidByte(in: $0, 0..<$0.count)
      }
      if let bad {
        problems.append(
          Problem(offset: sources[bad], message: "percent-decoded text is not valid UTF-8"))
      }
    }

    private static func hexValue(at i: Int, in bytes: UnsafeBufferPointer<UInt8>, before end: Int)
      -> UInt8?
    {
      guard i < end else { return nil }
      switch bytes[i] {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): return bytes[i] - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): return bytes[i] - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): return bytes[i] - UInt8(ascii: "A") + 10
      default: return nil
      }
    }
  }
}
