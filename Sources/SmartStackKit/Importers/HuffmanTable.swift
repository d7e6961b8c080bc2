/// Canonical Huffman decoding tables (RFC 1951 §3.2.2).
enum HuffmanTable {
  /// Builds the lookup table for a code given by its code lengths (0 = unused symbol).
  ///
  /// The table has `2^maxLength` entries indexed by the next `maxLength` input bits; the
  /// entry for every bit pattern that starts with a symbol's (bit-reversed) code is
  /// `symbol << 4 | length`. Patterns no code starts with (an incomplete code) stay 0 and
  /// are reported when met. Returns `maxLength` (at least 1), or nil for an
  /// over-subscribed code.
  ///
  /// - Complexity: O(symbols + 2^maxLength).
  static func build(_ lengths: ArraySlice<UInt8>, into table: inout [UInt16]) -> Int? {
    var counts = [Int](repeating: 0, count: 16)
    var maxLength = 1
    for length in lengths where length > 0 {
      counts[Int(length)] += 1
      maxLength = max(maxLength, Int(length))
    }
    var left = 1
    for length in 1...15 {
      left = left << 1 - counts[length]
      if left < 0 { return nil }
    }
    var nextCode = [Int](repeating: 0, count: 16)
    var code = 0
    for length in 1...15 {
      code = (code + counts[length - 1]) << 1
      nextCode[length] = code
    }
    let size = 1 << maxLength
    table.removeAll(keepingCapacity: true)
    table.append(contentsOf: repeatElement(0, count: size))
    table.withUnsafeMutableBufferPointer { t in
      var symbol = 0
      for length in lengths {
        defer { symbol += 1 }
        let l = Int(length)
        if l == 0 { continue }
        let c = nextCode[l]
        nextCode[l] += 1
        var reversed = 0
        for b in 0..<l where c & (1 << b) != 0 { reversed |= 1 << (l - 1 - b) }
        let entry = UInt16(symbol << 4 | l)
        var k = reversed
        while k < size {
          t[k] = entry
          k += 1 << l
        }
      }
    }
    return maxLength
  }

  /// The order code-length code lengths are sent in.
  static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  /// Length symbols 257...285: `base << 8 | extraBits`.
  static let lengthBase: [UInt32] = {
    let base = [
      3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
      131, 163, 195, 227, 258,
    ]
    let extra = [
      0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    return zip(base, extra).map { UInt32($0 << 8 | $1) }
  }()

  /// Distance symbols 0...29: `base << 8 | extraBits`.
  static let distanceBase: [UInt32] = {
    let base = [
      1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
      2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    return base.enumerated().map { i, b in UInt32(b << 8 | max(0, i / 2 - 1)) }
  }()

  /// The fixed literal/length code (RFC 1951 §3.2.6): 0-143 8 bits, 144-255 9, 256-279 7,
  /// 280-287 8.
  static let fixedLiterals: [UInt16] = {
    var lengths = [UInt8](repeating: 8, count: 288)
    for s in 144...255 { lengths[s] = 9 }
    for s in 256...279 { lengths[s] = 7 }
    var table: [UInt16] = []
    _ = build(lengths[...], into: &table)
    return table
  }()

  /// The fixed distance code: 32 codes of 5 bits (30 and 31 are invalid when used).
  static let fixedDistances: [UInt16] = {
    var table: [UInt16] = []
    _ = build([UInt8](repeating: 5, count: 32)[...], into: &table)
    return table
  }()
}
