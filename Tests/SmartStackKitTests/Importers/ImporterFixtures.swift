import Foundation

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

/// Small hand-written fixtures for the importer tests. The compressed ones were made once
/// on Linux with GNU gzip 1.12 and GNU tar 1.34 (commands beside each); those the
/// command-line tests use too are files in `Tests/Fixtures/importers`, the others are
/// stored here as base64. No third-party data is involved.
enum ImporterFixtures {
  /// An LSApp-style TSV with every event type, two users whose session ids overlap, a
  /// Broken row, and naive New York times around the 2018-03-11 spring-forward gap
  /// (02:00 EST -> 03:00 EDT; 02:30 does not exist and is read as 02:30 EST).
  /// `Tests/Fixtures/importers/lsapp.tsv`, shared with the command-line tests.
  static let lsappText = String(decoding: file("lsapp.tsv"), as: UTF8.self)

  /// `gzip -9 -n -c lsapp.tsv` (one member, one dynamic-Huffman block):
  /// `Tests/Fixtures/importers/lsapp.tsv.gz`.
  static let lsappGzip = file("lsapp.tsv.gz")

  /// `tar --owner=0 --group=0 --numeric-owner --mtime='2018-01-01 00:00:00' -cf - lsapp.tsv
  /// | gzip -9 -n` (GNU tar format, one member `lsapp.tsv`): `Tests/Fixtures/importers/lsapp.tar.gz`.
  static let lsappTarGzip = file("lsapp.tar.gz")

  /// Foreground-app events with launcher and system apps, a naive time, an offset and a
  /// row without user: `Tests/Fixtures/importers/app-events.csv`.
  static let appEventsText = String(decoding: file("app-events.csv"), as: UTF8.self)

  /// The bytes of `Tests/Fixtures/importers/NAME`.
  static func file(_ name: String) -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/importers/\(name)")
    return [UInt8](try! Data(contentsOf: url))
  }

  /// `tar --format=pax ... --sort=name -cf - paxdir | gzip -9 -n`: a folder holding
  /// `._lsapp.tsv` (a resource fork, 4 bytes `junk`), `README.txt` (`not data\n`) and, in a
  /// sub-folder whose 112-character name needs a pax `path` record, `lsapp.tsv` with one
  /// row (user 7, Gmail, Opened at 2018-01-16 06:01:05).
  static let paxTarGzip = base64(
    "H4sIAAAAAAACA+2Y32rCMBSHe1ufoi9wNEn/DWEXg8l2Mzb2AhLtme2mSWlSqW+/2MnYHDgGWnWeD0pDIKHh1++U01I2WVENvEPCHGkct3fH9r0d81A40rid5ywWkRfEXgfUxsrKPco+Dvn1cGdC+ZF/fzw3siz71iwPk38SRTvyj7byFwlnXsAo/4PzWqs3j7hYNv4/j25uH0Z921jvCP5zvu2/4IL87wKlbZBJK3ukwiX7/ySbe5QZVmYg4UXP3QiUXCDYXFooDMy1mgEqXc9ysBoUYgYS3Gp32RwqnOoqgwlOZW0QWqnaDQwY+5v/PA2/+x+y2E0FzTn5f6ZwEQbrBK83L8L+09cluE20QshrlVVu5WRl0Qyo4pyQ/weN/c/9X8iTiFP/95/y31X/xXb/5+o/S6n+d1L/Q3Gk+v/5w4E+BBfuPxfJz/pP/Z/XzfGxGheZb9CYQqv10BYuQSsXpe8EHa/z9HGJyo7tqsRe6nNfMH4FjANPApYMGR+y2L9byGLuP5aoMCOjCYIgCIIgCIIgCIIgToZ3CzI0tQAoAAA="
  )

  /// `printf 'hello, hello, hello\n' | gzip -9 -n`: one fixed-Huffman block.
  static let helloGzip = base64("H4sIAAAAAAACA8tIzcnJ11HIQKK4AOdCblIUAAAA")

  /// 64 random bytes and `gzip -9 -n` of them, which gzip stores (block type 0).
  static let randomBytes = base64(
    "pU3KGCUwux1tEyze1iN7LtkeP3IfyxlxF0SU1kk8nVw0YL4xIB5p/tqg7ui5mX9cfCmZ/a/lkyU81lSvTfrXFA==")
  static let randomGzip = base64(
    "H4sIAAAAAAACAwFAAL//pU3KGCUwux1tEyze1iN7LtkeP3IfyxlxF0SU1kk8nVw0YL4xIB5p/tqg7ui5mX9cfCmZ/a/lkyU81lSvTfrXFMGY8GhAAAAA"
  )

  static func base64(_ text: String) -> [UInt8] {
    [UInt8](Data(base64Encoded: text)!)
  }

  /// The DEFLATE block type (0 stored, 1 fixed, 2 dynamic) of the first block of a gzip
  /// member without optional header fields.
  static func firstBlockType(_ gzip: [UInt8]) -> Int { Int(gzip[10] >> 1 & 3) }

  /// The raw DEFLATE stream of a gzip member without optional header fields.
  static func deflateStream(_ gzip: [UInt8]) -> [UInt8] { Array(gzip[10..<(gzip.count - 8)]) }

  /// A gzip member around a raw DEFLATE stream, with a correct trailer for `data`.
  static func gzip(
    deflate stream: [UInt8], of data: [UInt8], flags: UInt8 = 0, header extra: [UInt8] = []
  )
    -> [UInt8]
  {
    var bytes: [UInt8] = [0x1F, 0x8B, 8, flags, 0, 0, 0, 0, 0, 3] + extra
    bytes += stream
    bytes += littleEndian(CRC32.checksum(data))
    bytes += littleEndian(UInt32(truncatingIfNeeded: data.count))
    return bytes
  }

  /// A stored-block DEFLATE stream holding `data` (split into blocks of at most 65 535
  /// bytes).
  static func stored(_ data: [UInt8], blockSize: Int = 65_535) -> [UInt8] {
    var out: [UInt8] = []
    var start = 0
    repeat {
      let end = min(start + blockSize, data.count)
      let length = end - start
      out.append(end == data.count ? 1 : 0)  // BFINAL, BTYPE 00, then pad to a byte
      out += [
        UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8 & 0xFF),
      ]
      out += data[start..<end]
      start = end
    } while start < data.count
    return out
  }

  static func littleEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
  }
}

/// Writes DEFLATE bit streams by hand: numbers least-significant bit first, Huffman codes
/// most-significant bit first, as RFC 1951 §3.1.1 packs them.
struct BitWriter {
  private(set) var bytes: [UInt8] = []
  private var bitCount = 0

  mutating func bits(_ value: Int, _ count: Int) {
    for k in 0..<count { bit(value >> k & 1) }
  }

  mutating func code(_ code: Int, _ length: Int) {
    for k in stride(from: length - 1, through: 0, by: -1) { bit(code >> k & 1) }
  }

  private mutating func bit(_ b: Int) {
    if bitCount % 8 == 0 { bytes.append(0) }
    bytes[bytes.count - 1] |= UInt8(b) << UInt8(bitCount % 8)
    bitCount += 1
  }

  /// The fixed-Huffman code of literal/length symbol `symbol` (RFC 1951 §3.2.6).
  mutating func fixedSymbol(_ symbol: Int) {
    switch symbol {
    case 0...143: code(0x30 + symbol, 8)
    case 144...255: code(0x190 + symbol - 144, 9)
    case 256...279: code(symbol - 256, 7)
    default: code(0xC0 + symbol - 280, 8)
    }
  }

  /// A fixed-Huffman block header.
  mutating func fixedBlock(final: Bool) {
    bits(final ? 1 : 0, 1)
    bits(1, 2)
  }

  /// A match of length 258 (symbol 285) at distance `distanceCode`'s base (no extra bits
  /// for codes 0...3).
  mutating func fixedMatch258(distanceCode: Int) {
    fixedSymbol(285)
    code(distanceCode, 5)
  }
}

/// Writes tar archives by hand (POSIX ustar headers), for the cases system tar does not
/// make: bad checksums, truncations, prefixes, GNU long names, base-256 sizes.
struct TarWriter {
  private(set) var bytes: [UInt8] = []

  /// Appends an entry; `size` overrides the header's size field (the data is still
  /// `data`), `corruptChecksum` stores a wrong checksum.
  mutating func add(
    _ name: String, _ data: [UInt8], type: UInt8 = UInt8(ascii: "0"), prefix: String = "",
    size: Int? = nil, base256Size: Bool = false, corruptChecksum: Bool = false
  ) {
    var header = [UInt8](repeating: 0, count: 512)
    func put(_ text: String, at offset: Int) {
      for (k, b) in text.utf8.enumerated() { header[offset + k] = b }
    }
    func octal(_ value: Int, _ width: Int) -> String {
      let digits = String(value, radix: 8)
      return String(repeating: "0", count: width - 1 - digits.count) + digits
    }
    put(name, at: 0)
    put("0000644", at: 100)
    put("0000000", at: 108)
    put("0000000", at: 116)
    if base256Size {
      header[124] = 0x80
      var value = size ?? data.count
      for k in stride(from: 135, to: 124, by: -1) {
        header[k] = UInt8(value & 0xFF)
        value >>= 8
      }
    } else {
      put(octal(size ?? data.count, 12), at: 124)
    }
    put(octal(0, 12), at: 136)
    header[156] = type
    put("ustar", at: 257)
    put("00", at: 263)
    put(prefix, at: 345)
    for k in 148..<156 { header[k] = UInt8(ascii: " ") }
    var sum = header.reduce(0) { $0 + Int($1) }
    if corruptChecksum { sum += 1 }
    put(octal(sum, 7), at: 148)
    header[155] = UInt8(ascii: " ")
    bytes += header
    bytes += data
    bytes += [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
  }

  /// Appends the two zero blocks that end an archive.
  mutating func end() { bytes += [UInt8](repeating: 0, count: 1024) }
}

extension DiagnosticList {
  /// The diagnostics as `FILE:LINE:COLUMN: message` lines.
  var lines: [String] { diagnostics.map(\.description) }
}

/// Runs `body` and returns the `DiagnosticList` it throws (nil when it throws nothing).
func diagnostics(_ body: () throws -> Void) -> DiagnosticList? {
  do {
    try body()
    return nil
  } catch let list as DiagnosticList {
    return list
  } catch {
    return DiagnosticList([Diagnostic(file: "?", line: 0, column: 0, message: "\(error)")])
  }
}

/// Runs `body` and returns the `ArchiveError` it throws (nil when it throws nothing).
func archiveError(_ body: () throws -> Void) -> ArchiveError? {
  do {
    try body()
    return nil
  } catch let error as ArchiveError {
    return error
  } catch {
    return ArchiveError(.corrupt, "unexpected error \(error)")
  }
}
