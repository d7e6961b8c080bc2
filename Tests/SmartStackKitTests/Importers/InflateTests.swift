import Foundation
import Testing

@testable import SmartStackKit

@Suite("CRC-32")
struct CRC32Tests {
  @Test func matchesTheStandardCheckValues() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([]) == 0)
    #expect(CRC32.checksum(Array("a".utf8)) == 0xE8B7_BE43)
    #expect(
      CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
  }

  /// Slicing-by-8 against the bit-at-a-time definition, over lengths that exercise the
  /// 8-byte loop and the tail, and split updates.
  @Test func eightBytesAtATimeEqualsTheBitwiseDefinition() {
    func reference(_ bytes: [UInt8]) -> UInt32 {
      var c: UInt32 = 0xFFFF_FFFF
      for b in bytes {
        c ^= UInt32(b)
        for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
      }
      return ~c
    }
    var random = SplitMix64(seed: 32)
    for seed in 0..<200 {
      let count = Int(random.next() % 100)
      let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let split = count == 0 ? 0 : Int(random.next() % UInt64(count))
      let whole = CRC32.checksum(bytes)
      let parts = bytes.withUnsafeBufferPointer {
        CRC32.update(
          CRC32.update(0, UnsafeBufferPointer(rebasing: $0[..<split])),
          UnsafeBufferPointer(rebasing: $0[split...]))
      }
      #expect(whole == reference(bytes), "seed \(seed)")
      #expect(parts == whole, "seed \(seed)")
    }
  }
}

@Suite("Inflate (RFC 1951)")
struct InflateTests {
  // MARK: The three block types

  @Test func storedBlocksMadeByHandDecode() throws {
    let data = Array("Smart Stack, Smart Stack!".utf8)
    #expect(try Inflate.decompress(ImporterFixtures.stored(data), limit: 100) == data)
    // Several blocks of 4 bytes, the last one short.
    #expect(try Inflate.decompress(ImporterFixtures.stored(data, blockSize: 4), limit: 100) == data)
    // An empty final stored block.
    #expect(try Inflate.decompress([0x01, 0x00, 0x00, 0xFF, 0xFF], limit: 100) == [])
  }

  @Test func storedBlockMadeByGzipDecodes() throws {
    #expect(ImporterFixtures.firstBlockType(ImporterFixtures.randomGzip) == 0)
    #expect(
      try Gzip.decompress(ImporterFixtures.randomGzip, limit: 1000) == ImporterFixtures.randomBytes)
  }

  @Test func fixedHuffmanBlockMadeByGzipDecodes() throws {
    #expect(ImporterFixtures.firstBlockType(ImporterFixtures.helloGzip) == 1)
    let text = try Gzip.decompress(ImporterFixtures.helloGzip, limit: 1000)
    #expect(String(decoding: text, as: UTF8.self) == "hello, hello, hello\n")
  }

  @Test func dynamicHuffmanBlockMadeByGzipDecodes() throws {
    #expect(ImporterFixtures.firstBlockType(ImporterFixtures.lsappGzip) == 2)
    let text = try Gzip.decompress(ImporterFixtures.lsappGzip, limit: 10_000)
    #expect(String(decoding: text, as: UTF8.self) == ImporterFixtures.lsappText)
  }

  @Test func overlappingMatchRepeatsTheLastByte() throws {
    var w = BitWriter()
    w.fixedBlock(final: true)
    w.fixedSymbol(Int(UInt8(ascii: "a")))
    w.fixedMatch258(distanceCode: 0)  // distance 1
    w.fixedSymbol(Int(UInt8(ascii: "b")))
    w.fixedSymbol(256)
    let out = try Inflate.decompress(w.bytes, limit: 1000)
    #expect(out == [UInt8](repeating: UInt8(ascii: "a"), count: 259) + [UInt8(ascii: "b")])
  }

  @Test func blocksOfDifferentTypesFollowEachOther() throws {
    // A stored block "ab" (not final), then a fixed block copying it twice (distance 2).
    var w = BitWriter()
    w.bits(0, 1)
    w.bits(0, 2)
    var stream = w.bytes + [2, 0, 0xFD, 0xFF] + Array("ab".utf8)
    var f = BitWriter()
    f.fixedBlock(final: true)
    f.fixedSymbol(258)  // length 4
    f.code(1, 5)  // distance 2
    f.fixedSymbol(256)
    stream += f.bytes
    #expect(try Inflate.decompress(stream, limit: 100) == Array("ababab".utf8))
  }

  // MARK: Corrupt and truncated streams

  @Test func invalidBlockTypeIsCorrupt() {
    let error = archiveError { _ = try Inflate.decompress([0x07], limit: 100) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message == "deflate: invalid block type 3 near byte 0")
  }

  @Test func storedLengthThatDisagreesWithItsComplementIsCorrupt() {
    let error = archiveError { _ = try Inflate.decompress([0x01, 5, 0, 0, 0], limit: 100) }
    #expect(error?.kind == .corrupt)
    #expect(
      error?.message == "deflate: stored block length 5 does not match its complement near byte 1")
  }

  @Test func storedBlockCutShortIsTruncated() {
    let error = archiveError {
      _ = try Inflate.decompress([0x01, 5, 0, 0xFA, 0xFF, 0x61], limit: 100)
    }
    #expect(error?.kind == .truncated)
  }

  @Test func distanceBeforeTheStartIsCorrupt() {
    var w = BitWriter()
    w.fixedBlock(final: true)
    w.fixedSymbol(Int(UInt8(ascii: "a")))
    w.fixedSymbol(257)  // length 3
    w.code(1, 5)  // distance 2, but only 1 byte so far
    w.fixedSymbol(256)
    let error = archiveError { _ = try Inflate.decompress(w.bytes, limit: 100) }
    #expect(error?.kind == .corrupt)
    #expect(
      error?.message.hasPrefix(
        "deflate: distance 2 reaches before the start of the data (1 bytes so far)") == true)
  }

  @Test func lengthSymbol286AndDistanceSymbol30AreCorrupt() {
    var a = BitWriter()
    a.fixedBlock(final: true)
    a.fixedSymbol(286)
    let lengthError = archiveError { _ = try Inflate.decompress(a.bytes + [0, 0], limit: 100) }
    #expect(lengthError?.message.hasPrefix("deflate: invalid length symbol 286") == true)

    var b = BitWriter()
    b.fixedBlock(final: true)
    b.fixedSymbol(97)
    b.fixedSymbol(257)
    b.code(30, 5)
    let distanceError = archiveError { _ = try Inflate.decompress(b.bytes + [0, 0], limit: 100) }
    #expect(distanceError?.message.hasPrefix("deflate: invalid distance symbol 30") == true)
  }

  @Test func overSubscribedCodeLengthCodeIsCorrupt() {
    var w = BitWriter()
    w.bits(1, 1)
    w.bits(2, 2)  // dynamic
    w.bits(0, 5)
    w.bits(0, 5)
    w.bits(15, 4)  // 19 code-length codes
    for _ in 0..<19 { w.bits(1, 3) }  // all of length 1: over-subscribed
    let error = archiveError { _ = try Inflate.decompress(w.bytes + [0, 0, 0], limit: 100) }
    #expect(error?.message.hasPrefix("deflate: over-subscribed code-length code") == true)
  }

  /// A dynamic header whose code-length code has two symbols of length 1: `first` gets
  /// code 0 and `second` code 1 (canonical order, `first < second`).
  private func dynamicHeader(_ w: inout BitWriter, first: Int, second: Int) {
    w.bits(1, 1)
    w.bits(2, 2)
    w.bits(0, 5)  // 257 literal/length codes
    w.bits(0, 5)  // 1 distance code
    w.bits(15, 4)  // 19 code-length code lengths, in the transmission order
    for symbol in HuffmanTable.codeLengthOrder {
      w.bits(symbol == first || symbol == second ? 1 : 0, 3)
    }
  }

  @Test func repeatWithoutAPreviousLengthIsCorrupt() {
    var w = BitWriter()
    dynamicHeader(&w, first: 0, second: 16)
    w.code(1, 1)  // symbol 16 first
    w.bits(0, 2)
    let error = archiveError { _ = try Inflate.decompress(w.bytes + [0, 0], limit: 100) }
    #expect(
      error?.message.hasPrefix("deflate: repeat code 16 with no previous code length") == true)
  }

  @Test func dynamicBlockWithoutEndOfBlockCodeIsCorrupt() {
    var w = BitWriter()
    dynamicHeader(&w, first: 0, second: 18)
    w.code(1, 1)  // 18: 11 + 127 = 138 zeros
    w.bits(127, 7)
    w.code(1, 1)  // 18: 11 + 109 = 120 zeros, 258 in all
    w.bits(109, 7)
    let error = archiveError { _ = try Inflate.decompress(w.bytes + [0, 0], limit: 100) }
    #expect(error?.message.hasPrefix("deflate: dynamic block has no end-of-block code") == true)
  }

  @Test func codeLengthsRepeatingPastTheDeclaredCountAreCorrupt() {
    var w = BitWriter()
    dynamicHeader(&w, first: 0, second: 18)
    w.code(1, 1)
    w.bits(127, 7)
    w.code(1, 1)
    w.bits(127, 7)  // 276 > 258
    let error = archiveError { _ = try Inflate.decompress(w.bytes + [0, 0], limit: 100) }
    #expect(
      error?.message.hasPrefix("deflate: code lengths repeat past the 258 codes declared") == true)
  }

  @Test func everyCutOfAStreamIsTruncatedOrCorruptNeverACrash() {
    for fixture in [
      ImporterFixtures.helloGzip, ImporterFixtures.lsappGzip, ImporterFixtures.randomGzip,
    ] {
      let stream = ImporterFixtures.deflateStream(fixture)
      for cut in 0..<stream.count {
        let error = archiveError {
          _ = try Inflate.decompress(Array(stream[..<cut]), limit: 100_000)
        }
        #expect(error != nil, "cut at \(cut) of \(stream.count)")
        #expect(
          error?.kind == .truncated || error?.kind == .corrupt,
          "cut at \(cut): \(String(describing: error))")
      }
    }
  }

  @Test func bytesAfterTheFinalBlockAreCorrupt() {
    let error = archiveError {
      _ = try Inflate.decompress(ImporterFixtures.stored([1, 2]) + [9], limit: 100)
    }
    #expect(error?.message == "deflate: 1 unexpected bytes after the final block")
  }

  // MARK: Limits

  /// `1 + 258 * matches` zero bytes from a few bytes of input.
  static func bomb(matches: Int) -> [UInt8] {
    var w = BitWriter()
    w.fixedBlock(final: true)
    w.fixedSymbol(0)
    for _ in 0..<matches { w.fixedMatch258(distanceCode: 0) }
    w.fixedSymbol(256)
    return w.bytes
  }

  @Test func outputBeyondTheLimitIsRefusedAndExactlyTheLimitIsAccepted() throws {
    let stream = Self.bomb(matches: 4_000)  // 1 032 001 bytes from about 6 KB
    let error = archiveError { _ = try Inflate.decompress(stream, limit: 1_000_000) }
    #expect(error?.kind == .tooLarge)
    #expect(error?.message.contains("beyond the limit of 1000000 bytes") == true)
    #expect(error?.message.contains("--max-expanded-bytes") == true)
    let exact = try Inflate.decompress(stream, limit: 1_032_001)
    #expect(exact.count == 1_032_001)
    #expect(exact.allSatisfy { $0 == 0 })
    #expect(
      archiveError { _ = try Inflate.decompress(stream, limit: 1_032_000) }?.kind == .tooLarge)
    // Limits below the buffer's first allocation hold too, for every block type.
    let twenty = [UInt8](repeating: 7, count: 20)
    let stored = ImporterFixtures.stored(twenty)
    #expect(archiveError { _ = try Inflate.decompress(stored, limit: 19) }?.kind == .tooLarge)
    #expect(try Inflate.decompress(stored, limit: 20) == twenty)
    #expect(archiveError { _ = try Inflate.decompress(Self.bomb(matches: 1), limit: 258) }?.kind == .tooLarge)
    #expect(try Inflate.decompress(Self.bomb(matches: 1), limit: 259).count == 259)
    let hello = ImporterFixtures.deflateStream(ImporterFixtures.helloGzip)
    #expect(archiveError { _ = try Inflate.decompress(hello, limit: 19) }?.kind == .tooLarge)
    #expect(try Inflate.decompress(hello, limit: 20).count == 20)
  }

  // MARK: Against the system's gzip

  /// Random data of several shapes through `gzip -c -LEVEL` and back; skipped when there is
  /// no gzip binary.
  @Test func randomDataRoundTripsThroughTheSystemGzip() throws {
    guard
      let gzip = ["/usr/bin/gzip", "/bin/gzip", "/usr/local/bin/gzip", "/opt/homebrew/bin/gzip"]
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else { return }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("inflate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var random = SplitMix64(seed: 1951)
    for seed in 0..<24 {
      let count = Int(random.next() % 150_000)
      var data = [UInt8]()
      data.reserveCapacity(count)
      switch seed % 4 {
      case 0:  // incompressible: stored blocks
        for _ in 0..<count { data.append(UInt8(truncatingIfNeeded: random.next())) }
      case 1:  // small alphabet: dynamic blocks with short codes
        for _ in 0..<count { data.append(UInt8(ascii: "a") + UInt8(random.next() % 4)) }
      case 2:  // long repeats: distances up to 32 KiB and long matches
        let pattern = (0..<(1 + Int(random.next() % 40_000))).map { _ in
          UInt8(truncatingIfNeeded: random.next())
        }
        while data.count < count { data += pattern.prefix(count - data.count) }
      default:  // text-like lines
        let words = [
          "Opened", "Closed", "Gmail", "2018-01-16", "06:01:05", "\t", "\n", "Facebook Messenger",
        ]
        while data.count < count {
          data += Array(words[Int(random.next() % UInt64(words.count))].utf8)
        }
      }
      let input = folder.appendingPathComponent("data-\(seed)")
      try Data(data).write(to: input)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: gzip)
      process.arguments = ["-c", "-n", "-\(1 + seed % 9)", input.path]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let compressed = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
      process.waitUntilExit()
      let decoded = try Gzip.decompress(compressed, limit: 1 << 20)
      #expect(decoded == data, "seed \(seed), \(count) bytes, level \(1 + seed % 9)")
    }
  }

  /// Random bit flips and byte changes in real gzip files only ever produce `ArchiveError`s
  /// (the CRC-32 catches any damage inflate does not).
  @Test func damagedGzipFilesOnlyEverThrowArchiveErrors() {
    var random = SplitMix64(seed: 1952)
    let fixtures = [
      ImporterFixtures.helloGzip, ImporterFixtures.lsappGzip, ImporterFixtures.randomGzip,
      ImporterFixtures.lsappTarGzip,
    ]
    for seed in 0..<1_500 {
      var bytes = fixtures[seed % fixtures.count]
      let original = bytes
      for _ in 0..<(1 + Int(random.next() % 3)) {
        let at = Int(random.next() % UInt64(bytes.count))
        if random.next() % 2 == 0 {
          bytes[at] ^= UInt8(1) << UInt8(random.next() % 8)
        } else {
          bytes[at] = UInt8(truncatingIfNeeded: random.next())
        }
      }
      do {
        let out = try Gzip.decompress(bytes, limit: 1 << 16)
        // Damage confined to ignorable header bytes (mtime, OS) leaves the data intact.
        #expect(out == (try? Gzip.decompress(original, limit: 1 << 16)), "seed \(seed)")
      } catch {
        #expect(!error.message.isEmpty, "seed \(seed)")
      }
    }
  }
}
