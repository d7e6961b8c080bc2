import SmartStackBase

// The checksum that ends every journal line (version 2).
//
// A line is the compact JSON of its object with one more, last member:
// `"checksum":"HHHHHHHHHHHHHHHH"`, the FNV-1a 64 (16 lowercase hex digits) of every byte
// of the line before `,"checksum":"`. FNV-1a 64 changes with any single changed byte (each
// step is a bijection of the state), so a flipped digit is always caught; it is not
// cryptographic, so it catches damage and mix-ups, not a forger.

extension JournalCodec {
  static let checksumKey = Array(#","checksum":""#.utf8)
  /// `,"checksum":"` + 16 hex digits + `"}`.
  static let sealLength = checksumKey.count + 16 + 2

  /// The compact JSON of `object` with a last member `"checksum"`: the FNV-1a 64 (16
  /// lowercase hex digits) of every byte before `,"checksum":"`.
  static func sealed(_ object: JSONValue) -> String {
    var text = object.serialized()
    text.removeLast()  // the closing brace
    let sum = FNV1a.hexHash(text.utf8)
    return text + #","checksum":""# + sum + #""}"#
  }

  /// True when `line` (without its newline) ends with a checksum that matches the bytes
  /// before it.
  static func verified(_ line: ArraySlice<UInt8>) -> Bool {
    guard line.count > sealLength, line.last == UInt8(ascii: "}") else { return false }
    let keyStart = line.endIndex - sealLength
    let digitsStart = keyStart + checksumKey.count
    guard line[keyStart..<digitsStart].elementsEqual(checksumKey),
      line[digitsStart + 16] == UInt8(ascii: "\""),
      let written = UInt64(String(decoding: line[digitsStart..<(digitsStart + 16)], as: UTF8.self), radix: 16)
    else { return false }
    return FNV1a.hash(line[line.startIndex..<keyStart]) == written
  }
}
