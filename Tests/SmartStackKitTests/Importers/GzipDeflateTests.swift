import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench
import SmartStackTestSupport

@Suite("CRC-32")
struct CRC32Tests {
  @Test func matchesTheStandardCheckValues() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([]) == 0)
    #expect(CRC32.checksum(Array("a".utf8)) == 0xE8B7_BE43)
    #expect(
      CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
  }

  /// zlib's CRC against the bit-at-a-time definition, over many lengths, and split
  /// updates.
  @Test func zlibsCRCEqualsTheBitwiseDefinition() {
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

/// The DEFLATE data (RFC 1951) of gzip members, which zlib decodes: hand-made streams of
/// every block type, the errors of corrupt and truncated streams, and the output limit.
/// Each hand-made stream is wrapped in a gzip member (`gunzip`), so the errors carry the
/// member and the offset in the file (the stream starts at byte 10).
@Suite("Gzip: DEFLATE data through zlib")
struct GzipDeflateTests {
  /// `Gzip.decompress` of a member holding the raw DEFLATE `stream`, with a trailer
  /// for `data`.
  private func gunzip(_ stream: [UInt8], of data: [UInt8] = [], limit: Int = 100)
    throws(ArchiveError)
    -> [UInt8]
  {
    try Gzip.decompress(ImporterFixtures.gzip(deflate: stream, of: data), limit: limit)
  }

  // MARK: The three block types

  @Test func storedBlocksMadeByHandDecode() throws {
    let data = Array("Smart Stack, Smart Stack!".utf8)
    #expect(try gunzip(ImporterFixtures.stored(data), of: data) == data)
    // Several blocks of 4 bytes, the last one short.
    #expect(try gunzip(ImporterFixtures.stored(data, blockSize: 4), of: data) == data)
    // An empty final stored block.
    #expect(try gunzip([0x01, 0x00, 0x00, 0xFF, 0xFF]) == [])
  }

  @Test func emptyMembersDecodeToNothing() throws {
    // What `printf '' | gzip -n` writes: one fixed block holding only end-of-block.
    let empty = ImporterFixtures.gzip(deflate: [0x03, 0x00], of: [])
    #expect(try Gzip.decompress(empty, limit: 0) == [])
    #expect(try Gzip.decompress(empty + ImporterFixtures.helloGzip + empty, limit: 100).count == 20)
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
    let expected = [UInt8](repeating: UInt8(ascii: "a"), count: 259) + [UInt8(ascii: "b")]
    #expect(try gunzip(w.bytes, of: expected, limit: 1000) == expected)
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
    let expected = Array("ababab".utf8)
    #expect(try gunzip(stream, of: expected) == expected)
  }

  // MARK: Corrupt and truncated streams

  /// The error of a member holding `stream` (with two spare bytes, so that no stream
  /// here runs out of input before its error).
  private func error(_ stream: [UInt8]) -> ArchiveError? {
    archiveError { _ = try gunzip(stream + [0, 0, 0]) }
  }

  @Test func invalidBlockTypeIsCorrupt() {
    let error = archiveError { _ = try gunzip([0x07]) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message == "gzip member 1: deflate: invalid block type near byte 10")
  }

  @Test func storedLengthThatDisagreesWithItsComplementIsCorrupt() {
    let error = archiveError { _ = try gunzip([0x01, 5, 0, 0, 0]) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message == "gzip member 1: deflate: invalid stored block lengths near byte 14")
  }

  @Test func storedBlockCutShortIsTruncated() {
    let file = ImporterFixtures.gzip(deflate: [0x01, 5, 0, 0xFA, 0xFF, 0x61], of: [])
    let error = archiveError { _ = try Gzip.decompress(Array(file.dropLast(8)), limit: 100) }
    #expect(error?.kind == .truncated)
    #expect(
      error?.message
        == "gzip member 1: deflate: the compressed data ends inside a block (truncated)")
  }

  @Test func aHeaderWithNoDataAfterItIsTruncated() {
    let error = archiveError {
      _ = try Gzip.decompress(Array(ImporterFixtures.helloGzip.prefix(10)), limit: 100)
    }
    #expect(error?.kind == .truncated)
    #expect(error?.message == "gzip member 1: deflate: the compressed data is missing")
  }

  @Test func distanceBeforeTheStartIsCorrupt() {
    var w = BitWriter()
    w.fixedBlock(final: true)
    w.fixedSymbol(Int(UInt8(ascii: "a")))
    w.fixedSymbol(257)  // length 3
    w.code(1, 5)  // distance 2, but only 1 byte so far
    w.fixedSymbol(256)
    let error = error(w.bytes)
    #expect(error?.kind == .corrupt)
    #expect(
      error?.message.hasPrefix("gzip member 1: deflate: invalid distance too far back") == true)
  }

  @Test func lengthSymbol286AndDistanceSymbol30AreCorrupt() {
    var a = BitWriter()
    a.fixedBlock(final: true)
    a.fixedSymbol(286)
    #expect(
      error(a.bytes)?.message.hasPrefix("gzip member 1: deflate: invalid literal/length code")
        == true)

    var b = BitWriter()
    b.fixedBlock(final: true)
    b.fixedSymbol(97)
    b.fixedSymbol(257)
    b.code(30, 5)
    #expect(
      error(b.bytes)?.message.hasPrefix("gzip member 1: deflate: invalid distance code") == true)
  }

  @Test func overSubscribedCodeLengthCodeIsCorrupt() {
    var w = BitWriter()
    w.bits(1, 1)
    w.bits(2, 2)  // dynamic
    w.bits(0, 5)
    w.bits(0, 5)
    w.bits(15, 4)  // 19 code-length codes
    for _ in 0..<19 { w.bits(1, 3) }  // all of length 1: over-subscribed
    #expect(
      error(w.bytes)?.message.hasPrefix("gzip member 1: deflate: invalid code lengths set") == true)
  }

  /// The order in which a dynamic block's header sends the code-length code lengths
  /// (RFC 1951 §3.2.7).
  private static let codeLengthOrder = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
  ]

  /// A dynamic header whose code-length code has two symbols of length 1: `first` gets
  /// code 0 and `second` code 1 (canonical order, `first < second`).
  private func dynamicHeader(_ w: inout BitWriter, first: Int, second: Int) {
    w.bits(1, 1)
    w.bits(2, 2)
    w.bits(0, 5)  // 257 literal/length codes
    w.bits(0, 5)  // 1 distance code
    w.bits(15, 4)  // 19 code-length code lengths, in the transmission order
    for symbol in Self.codeLengthOrder {
      w.bits(symbol == first || symbol == second ? 1 : 0, 3)
    }
  }

  @Test func repeatWithoutAPreviousLengthIsCorrupt() {
    var w = BitWriter()
    dynamicHeader(&w, first: 0, second: 16)
    w.code(1, 1)  // symbol 16 first
    w.bits(0, 2)
    #expect(
      error(w.bytes)?.message.hasPrefix("gzip member 1: deflate: invalid bit length repeat") == true
    )
  }

  @Test func dynamicBlockWithoutEndOfBlockCodeIsCorrupt() {
    var w = BitWriter()
    dynamicHeader(&w, first: 0, second: 18)
    w.code(1, 1)  // 18: 11 + 127 = 138 zeros
    w.bits(127, 7)
    w.code(1, 1)  // 18: 11 + 109 = 120 zeros, 258 in all
    w.bits(109, 7)
    #expect(
      error(w.bytes)?.message.hasPrefix(
        "gzip member 1: deflate: invalid code -- missing end-of-block") == true)
  }

  @Test func codeLengthsRepeatingPastTheDeclaredCountAreCorrupt() {
    var w = BitWriter()
    dynamicHeader(&w, first: 0, second: 18)
    w.code(1, 1)
    w.bits(127, 7)
    w.code(1, 1)
    w.bits(127, 7)  // 276 > 258
    #expect(
      error(w.bytes)?.message.hasPrefix("gzip member 1: deflate: invalid bit length repeat") == true
    )
  }

  @Test func everyCutOfAFileIsTruncatedOrCorruptNeverACrash() {
    for fixture in [
      ImporterFixtures.helloGzip, ImporterFixtures.lsappGzip, ImporterFixtures.randomGzip,
      ImporterFixtures.lsappTarGzip,
    ] {
      for cut in 2..<fixture.count {
        let error = archiveError { _ = try Gzip.decompress(Array(fixture[..<cut]), limit: 100_000) }
        #expect(
          error?.kind == .truncated,
          "cut at \(cut) of \(fixture.count): \(String(describing: error))")
      }
    }
  }

  @Test func bytesBetweenTheFinalBlockAndTheTrailerAreCorrupt() {
    // The stray byte is read as the first byte of the trailer.
    let error = archiveError { _ = try gunzip(ImporterFixtures.stored([1, 2]) + [9], of: [1, 2]) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message.hasPrefix("gzip member 1: CRC-32 mismatch") == true)
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

  /// `gunzip` of `bomb(matches:)` with a correct trailer.
  private func explode(matches: Int, limit: Int) throws(ArchiveError) -> [UInt8] {
    try gunzip(
      Self.bomb(matches: matches), of: [UInt8](repeating: 0, count: 1 + 258 * matches), limit: limit
    )
  }

  @Test func outputBeyondTheLimitIsRefusedAndExactlyTheLimitIsAccepted() throws {
    // 1 032 001 bytes from about 6 KB.
    let error = archiveError { _ = try explode(matches: 4_000, limit: 1_000_000) }
    #expect(error?.kind == .tooLarge)
    #expect(error?.message.contains("beyond the limit of 1000000 bytes") == true)
    #expect(error?.message.contains("--max-expanded-bytes") == true)
    let exact = try explode(matches: 4_000, limit: 1_032_001)
    #expect(exact.count == 1_032_001)
    #expect(exact.allSatisfy { $0 == 0 })
    #expect(archiveError { _ = try explode(matches: 4_000, limit: 1_032_000) }?.kind == .tooLarge)
    // Limits below the buffer's first allocation hold too, for every block type.
    let twenty = [UInt8](repeating: 7, count: 20)
    let stored = ImporterFixtures.stored(twenty)
    #expect(archiveError { _ = try gunzip(stored, of: twenty, limit: 19) }?.kind == .tooLarge)
    #expect(try gunzip(stored, of: twenty, limit: 20) == twenty)
    #expect(archiveError { _ = try explode(matches: 1, limit: 258) }?.kind == .tooLarge)
    #expect(try explode(matches: 1, limit: 259).count == 259)
    let hello = ImporterFixtures.helloGzip
    #expect(archiveError { _ = try Gzip.decompress(hello, limit: 19) }?.kind == .tooLarge)
    #expect(try Gzip.decompress(hello, limit: 20).count == 20)
    // The limit counts every member's data together.
    #expect(archiveError { _ = try Gzip.decompress(hello + hello, limit: 39) }?.kind == .tooLarge)
    #expect(try Gzip.decompress(hello + hello, limit: 40).count == 40)
  }

  // MARK: Against the system's gzip

  /// Random data of several shapes through `gzip -c -LEVEL` and back; skipped when there is
  /// no gzip binary.
  @Test func randomDataRoundTripsThroughTheSystemGzip() throws {
    guard
      let gzip = ["/usr/bin/gzip", "/bin/gzip", "/usr/local/bin/gzip", "/opt/homebrew/bin/gzip"]
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else { return }
    let folder = try TestFolders.fresh("inflate")
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
