/// A DEFLATE decoder (RFC 1951): stored, fixed-Huffman and dynamic-Huffman blocks.
///
/// ```swift
/// let text = try Inflate.decompress(deflated, limit: 1 << 20)
/// ```
///
/// Decoding is table-driven: each block's Huffman codes become a lookup table indexed by
/// the next `maxLength` bits of input (bit-reversed codes, as DEFLATE packs them), so every
/// symbol costs one table load. Bits are buffered 56 at a time from 8-byte loads.
///
/// Every malformed input is an `ArchiveError` (`.corrupt` or `.truncated`, with the byte
/// offset in the message), never a crash: invalid block types, over-subscribed or
/// unusable Huffman codes, repeat codes without a previous length, symbols 286/287 and
/// distance codes 30/31, distances reaching before the start of the stream, and input
/// that ends inside a block. Output beyond `limit` bytes is refused (`.tooLarge`) as soon
/// as it would be written, so a decompression bomb never allocates more than `limit`.
///
/// - Complexity: O(n + m) for n input and m output bytes, plus O(2^15) per dynamic block
///   to fill its tables.
public enum Inflate {
  /// Decompresses a raw DEFLATE stream that fills `bytes` (trailing bytes after the final
  /// block are an error).
  ///
  /// - Throws: `ArchiveError` when the stream is corrupt, truncated, followed by other
  ///   bytes, or expands beyond `limit` bytes.
  public static func decompress(_ bytes: [UInt8], limit: Int) throws(ArchiveError) -> [UInt8] {
    let output = GrowableBytes(capacity: max(bytes.count &* 4, 1024), limit: limit)
    let end = try bytes.withUnsafeBufferPointer { (buffer) throws(ArchiveError) -> Int in
      try inflate(buffer, from: 0, into: output, limit: limit)
    }
    if end != bytes.count {
      throw ArchiveError(
        .corrupt, "deflate: \(bytes.count - end) unexpected bytes after the final block")
    }
    return output.array()
  }

  /// Decompresses the DEFLATE stream that starts at `start` in `input`, appending to
  /// `output`, and returns the offset just after the stream's last byte.
  ///
  /// Distances may reach back only to the output this stream produced (the bytes
  /// already in `output` before the call are not part of its window).
  ///
  /// - Throws: `ArchiveError` (`.corrupt`, `.truncated`, or `.tooLarge` when `output`
  ///   would exceed `limit` bytes in total).
  static func inflate(
    _ input: UnsafeBufferPointer<UInt8>, from start: Int, into output: GrowableBytes, limit: Int
  ) throws(ArchiveError) -> Int {
    guard let base = input.baseAddress, start < input.count else {
      throw ArchiveError(.truncated, "deflate: the compressed data is missing")
    }
    var state = Inflater(base: base, count: input.count, start: start)
    return try state.run(into: output, limit: limit)
  }
}

/// The decoder's state: the input, the bit buffer and the current block's tables.
struct Inflater {
  let base: UnsafePointer<UInt8>
  let count: Int
  /// The next input byte to load into `bits` (may run past `count`: see `overrun`).
  var index: Int
  /// Buffered input bits, least significant first. Bits above `available` are either
  /// zero or the true following input bits (look-ahead of an 8-byte load).
  var bits: UInt64 = 0
  /// How many bits of `bits` are valid, 0...63.
  var available = 0
  /// Zero bits appended after the end of the input; consuming any of them means the
  /// input was truncated (checked at least once per symbol).
  var overrun = 0

  /// Literal/length and distance tables; `[UInt16]` entries `symbol << 4 | length`,
  /// length 0 for bit patterns no code starts with.
  var literalTable: [UInt16] = []
  var literalBits = 0
  var distanceTable: [UInt16] = []
  var distanceBits = 0

  init(base: UnsafePointer<UInt8>, count: Int, start: Int) {
    self.base = base
    self.count = count
    self.index = start
  }

  /// The offset of the next unread input byte (whole bytes only).
  var position: Int { index &- available &>> 3 }

  // MARK: Bits

  @inline(__always)
  mutating func refill() {
    if index &+ 8 <= count {
      let word = UInt64(
        littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self))
      bits |= word &<< UInt64(available)
      index &+= (63 &- available) &>> 3
      available |= 56
    } else {
      refillSlowly()
    }
  }

  mutating func refillSlowly() {
    while available < 56 {
      var byte: UInt64 = 0
      if index < count { byte = UInt64(base[index]) } else { overrun &+= 8 }
      bits |= byte &<< UInt64(available)
      index &+= 1
      available &+= 8
    }
  }

  @inline(__always)
  mutating func consume(_ n: Int) {
    bits &>>= UInt64(n)
    available &-= n
  }

  /// The next `n` bits (n <= 32) as a number, first bit least significant.
  @inline(__always)
  mutating func take(_ n: Int) -> Int {
    if available < n { refill() }
    let value = Int(truncatingIfNeeded: bits & ((1 &<< UInt64(n)) &- 1))
    consume(n)
    return value
  }

  func checkNotTruncated() throws(ArchiveError) {
    if overrun > available {
      throw ArchiveError(.truncated, "deflate: the compressed data ends inside a block (truncated)")
    }
  }

  /// The offset of the byte holding the next unread bit.
  var currentByte: Int { index &- (available &+ 7) &>> 3 }

  /// A `.corrupt` error, or `.truncated` when the input ran out under the decoder: it
  /// consumed bits past the end, or a table lookup needing `lookahead` bits had fewer real
  /// bits than that left.
  func corrupt(_ message: String, lookahead: Int = 0) -> ArchiveError {
    if overrun > available &- lookahead {
      return ArchiveError(
        .truncated, "deflate: the compressed data ends inside a block (truncated)")
    }
    return ArchiveError(
      .corrupt, "deflate: \(message) near byte \(max(0, min(currentByte, count - 1)))")
  }

  // MARK: Blocks

  mutating func run(into output: GrowableBytes, limit: Int) throws(ArchiveError) -> Int {
    let streamStart = output.count
    var final = false
    repeat {
      let header = take(3)
      try checkNotTruncated()
      final = header & 1 == 1
      switch header >> 1 {
      case 0:
        try copyStoredBlock(into: output, limit: limit)
      case 1:
        literalTable = HuffmanTable.fixedLiterals
        literalBits = 9
        distanceTable = HuffmanTable.fixedDistances
        distanceBits = 5
        try decodeCodes(into: output, streamStart: streamStart, limit: limit)
      case 2:
        try readDynamicTables()
        try decodeCodes(into: output, streamStart: streamStart, limit: limit)
      default:
        throw corrupt("invalid block type 3")
      }
    } while !final
    consume(available & 7)
    try checkNotTruncated()
    return position
  }

  /// A stored block: byte-aligned LEN, NLEN (its one's complement), then LEN bytes.
  mutating func copyStoredBlock(into output: GrowableBytes, limit: Int) throws(ArchiveError) {
    consume(available & 7)
    let at = position
    guard overrun <= available, at &+ 4 <= count else {
      throw ArchiveError(.truncated, "deflate: the compressed data ends inside a block (truncated)")
    }
    let length = Int(base[at]) | Int(base[at + 1]) << 8
    let complement = Int(base[at + 2]) | Int(base[at + 3]) << 8
    guard length == complement ^ 0xFFFF else {
      throw ArchiveError(
        .corrupt,
        "deflate: stored block length \(length) does not match its complement near byte \(at)")
    }
    guard at + 4 + length <= count else {
      throw ArchiveError(.truncated, "deflate: the compressed data ends inside a block (truncated)")
    }
    try output.reserve(length, limit: limit)
    (output.pointer + output.count).update(from: base + at + 4, count: length)
    output.count += length
    index = at + 4 + length
    bits = 0
    available = 0
    overrun = 0
  }

  /// Reads a dynamic block's code-length code and the literal/length and distance code
  /// lengths (RFC 1951 §3.2.7), and builds both tables.
  mutating func readDynamicTables() throws(ArchiveError) {
    let literalCount = take(5) + 257
    let distanceCount = take(5) + 1
    let codeLengthCount = take(4) + 4
    guard literalCount <= 286, distanceCount <= 30 else {
      throw corrupt(
        "dynamic block declares \(literalCount) literal/length and \(distanceCount) distance codes (at most 286 and 30)"
      )
    }
    var codeLengthLengths = [UInt8](repeating: 0, count: 19)
    for i in 0..<codeLengthCount {
      codeLengthLengths[HuffmanTable.codeLengthOrder[i]] = UInt8(take(3))
    }
    try checkNotTruncated()
    var codeLengthTable: [UInt16] = []
    guard
      let codeLengthBits = HuffmanTable.build(codeLengthLengths[...], into: &codeLengthTable)
    else { throw corrupt("over-subscribed code-length code") }
    let codeLengthMask = (UInt64(1) << UInt64(codeLengthBits)) &- 1

    let total = literalCount + distanceCount
    var lengths = [UInt8](repeating: 0, count: total)
    var i = 0
    while i < total {
      if available < 16 { refill() }
      let entry = codeLengthTable[Int(bits & codeLengthMask)]
      let length = Int(entry & 15)
      guard length > 0 else {
        throw corrupt("invalid code-length code", lookahead: codeLengthBits)
      }
      consume(length)
      let symbol = Int(entry >> 4)
      var repeatCount = 1
      var value: UInt8 = 0
      switch symbol {
      case 0...15:
        value = UInt8(symbol)
      case 16:
        guard i > 0 else { throw corrupt("repeat code 16 with no previous code length") }
        value = lengths[i - 1]
        repeatCount = 3 + take(2)
      case 17:
        repeatCount = 3 + take(3)
      default:
        repeatCount = 11 + take(7)
      }
      try checkNotTruncated()
      guard i + repeatCount <= total else {
        throw corrupt("code lengths repeat past the \(total) codes declared")
      }
      for k in i..<(i + repeatCount) { lengths[k] = value }
      i += repeatCount
    }
    guard lengths[256] != 0 else { throw corrupt("dynamic block has no end-of-block code") }
    guard let literalBits = HuffmanTable.build(lengths[0..<literalCount], into: &literalTable)
    else { throw corrupt("over-subscribed literal/length code") }
    guard let distanceBits = HuffmanTable.build(lengths[literalCount...], into: &distanceTable)
    else { throw corrupt("over-subscribed distance code") }
    self.literalBits = literalBits
    self.distanceBits = distanceBits
  }

  /// Decodes literal/length and distance symbols up to the end-of-block code.
  mutating func decodeCodes(into output: GrowableBytes, streamStart: Int, limit: Int)
    throws(ArchiveError)
  {
    let literalMask = (UInt64(1) << UInt64(literalBits)) &- 1
    let distanceMask = (UInt64(1) << UInt64(distanceBits)) &- 1
    let literals = literalTable
    let distances = distanceTable
    var out = output.pointer
    var n = output.count
    var capacity = output.capacity
    defer { output.count = n }
    try literals.withUnsafeBufferPointer { (literals) throws(ArchiveError) in
      try distances.withUnsafeBufferPointer { (distances) throws(ArchiveError) in
        while true {
          // 48 bits cover the longest symbol: 15 + 5 extra + 15 + 13 extra.
          if available < 48 { refill() }
          try checkNotTruncated()
          let entry = literals[Int(bits & literalMask)]
          let codeLength = Int(entry & 15)
          guard codeLength > 0 else {
            throw corrupt("invalid literal/length code", lookahead: literalBits)
          }
          consume(codeLength)
          let symbol = Int(entry >> 4)
          if symbol < 256 {
            if n >= capacity {
              output.count = n
              try output.reserve(1, limit: limit)
              out = output.pointer
              capacity = output.capacity
            }
            out[n] = UInt8(truncatingIfNeeded: symbol)
            n &+= 1
            continue
          }
          if symbol == 256 { break }
          let lengthSymbol = symbol &- 257
          guard lengthSymbol < 29 else { throw corrupt("invalid length symbol \(symbol)") }
          let lengthEntry = HuffmanTable.lengthBase[lengthSymbol]
          let lengthExtra = Int(lengthEntry & 0xFF)
          let length =
            Int(lengthEntry >> 8)
            &+ Int(truncatingIfNeeded: bits & ((1 &<< UInt64(lengthExtra)) &- 1))
          consume(lengthExtra)

          let distanceEntry = distances[Int(bits & distanceMask)]
          let distanceLength = Int(distanceEntry & 15)
          guard distanceLength > 0 else {
            throw corrupt("invalid distance code", lookahead: distanceBits)
          }
          consume(distanceLength)
          let distanceSymbol = Int(distanceEntry >> 4)
          guard distanceSymbol < 30 else {
            throw corrupt("invalid distance symbol \(distanceSymbol)")
          }
          let distanceBase = HuffmanTable.distanceBase[distanceSymbol]
          let distanceExtra = Int(distanceBase & 0xFF)
          let distance =
            Int(distanceBase >> 8)
            &+ Int(truncatingIfNeeded: bits & ((1 &<< UInt64(distanceExtra)) &- 1))
          consume(distanceExtra)
          try checkNotTruncated()
          guard distance <= n &- streamStart else {
            throw corrupt(
              "distance \(distance) reaches before the start of the data (\(n - streamStart) bytes so far)"
            )
          }
          if n &+ length > capacity {
            output.count = n
            try output.reserve(length, limit: limit)
            out = output.pointer
            capacity = output.capacity
          }
          var from = n &- distance
          let end = n &+ length
          if distance >= length {
            (out + n).update(from: out + from, count: length)
            n = end
          } else {
            while n < end {
              out[n] = out[from]
              n &+= 1
              from &+= 1
            }
          }
        }
      }
    }
  }
}
